package org.hostir.studio.tests.reliability;

import static org.hostir.studio.tests.reliability.ReliabilityFiles.oneLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 item 6: a fusion "file" that is a FIFO blocked every command forever (reading waits for a writer); a
 * folder gave the operating system's wording (both now one line naming what the path is, at once); control
 * characters in a fusion's name went raw to the terminal.
 */
class InputFilesTest {
    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aPipeIsRefusedInsteadOfBlocking(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("pipe.fusion");
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (IOException e) {
            assumeTrue(false, "skipped: no mkfifo on this machine");
            return;
        }
        assumeTrue(mkfifo.waitFor() == 0 && Files.exists(fifo), "skipped: mkfifo failed here");
        for (String command : new String[] {"check", "lower", "run"}) {
            oneLine(CliRun.of(command, fifo.toString()), 2,
                    fifo + ": $: is not a regular file (a pipe or a device?) [file.read]");
        }
    }

    /**
     * A fusion's name is an identifier (it reaches generated code, traces and the terminal): one with control
     * characters is refused at its line, quoted with them escaped, never sent raw to the terminal.
     */
    @Test
    void aFusionNameWithControlCharactersIsRefusedEscaped(@TempDir Path dir) throws IOException {
        Path fusion = ReliabilityFiles.write(dir, "evil", """
                {"format": "hostir-fusion/1", "name": "evil\\u001b[31mred\\u0007",
                 "tensors": [{"name": "a", "dtype": "float", "axes": [4]}, {"name": "b", "dtype": "float", "axes": [4]}],
                 "ops": [{"op": "set", "inputs": ["a"], "output": "b"}], "inputs": ["a"], "outputs": ["b"]}
                """);
        for (String command : new String[] {"check", "run"}) {
            oneLine(CliRun.of(command, fusion.toString(), "--devices", "1"), 2, fusion + ":1: $.name: invalid fusion"
                    + " name 'evil\\u001b[31mred\\u0007' (a letter or '_', then letters, digits or '_', at most 128, as"
                    + " nvFuser names tests) [schema.name]");
        }
    }

    @Test
    void aFolderIsNamedAsOne(@TempDir Path dir) {
        oneLine(CliRun.of("check", dir.toString()), 2, dir + ": $: is a folder, not a fusion file [file.read]");
    }
}
