package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dump that cannot be read says why in one line (issue 31, item 7): a missing one does not exist (it was "not a
 * regular file"), a folder is a folder, and bytes that are not UTF-8 are named by line and byte offset (it was
 * Java's "Input length = 1").
 */
class DumpFilesTest {
    private static void oneLine(CliRun r, String expected) {
        assertEquals(2, r.code(), r.err());
        assertEquals(expected + "\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void aMissingDumpDoesNotExist(@TempDir Path dir) {
        Path missing = dir.resolve("missing.log");
        oneLine(CliRun.of("dump", missing.toString()), "error: " + missing + ": dump: no such file [dump.read]");
        oneLine(CliRun.of("dump", dir.resolve("no/such/folder.log").toString()),
                "error: " + dir.resolve("no/such/folder.log") + ": dump: no such file [dump.read]");
    }

    @Test
    void aFolderIsNotADump(@TempDir Path dir) {
        oneLine(CliRun.of("dump", dir.toString()), "error: " + dir + ": dump: is a folder, not a dump [dump.read]");
    }

    @Test
    void bytesThatAreNotUtf8AreNamedByLineAndOffset(@TempDir Path dir) throws IOException {
        Path latin1 = Files.write(dir.resolve("latin1.log"), "first line\nna\u00efve\n".getBytes("ISO-8859-1"));
        oneLine(CliRun.of("dump", latin1.toString()), "error: " + latin1 + ":2: dump: the file is not UTF-8 text"
                + " (byte offset 13): an NVFUSER_DUMP=host_ir dump or log is [dump.encoding]");
        Path cut = Files.write(dir.resolve("cut.log"), new byte[] {'%', 'H', (byte) 0xE2, (byte) 0x82});
        CliRun diff = CliRun.of("diff", cut.toString(), cut.toString());
        oneLine(diff, "error: " + cut + ":1: dump: the file is not UTF-8 text (byte offset 2): an NVFUSER_DUMP=host_ir"
                + " dump or log is [dump.encoding]");
    }
}
