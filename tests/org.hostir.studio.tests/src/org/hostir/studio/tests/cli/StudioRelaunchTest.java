package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35: File > Restart quit the Studio for good, since {@code ./hirstudio studio} ran {@code java -jar} on the
 * equinox launcher and ended with its exit code. {@code scripts/relaunch.sh}, the launch loop the script now runs
 * the Studio in, is driven here with a fake program that records its arguments and exits with the codes given
 * (Eclipse's IApplication.EXIT_RESTART is 23, EXIT_RELAUNCH 24 with the new arguments in eclipse.exitdata, which
 * the Studio writes to the file named by -Dhirstudio.exitdata).
 */
class StudioRelaunchTest {
    @TempDir
    Path dir;

    /** A program that logs its arguments (one run a line), writes the run's exit data if any and exits. */
    private static final String FAKE = """
            #!/usr/bin/env bash
            dir=$(dirname "$0")
            printf '%s ' "$@" >>"$dir/runs.log"; echo >>"$dir/runs.log"
            n=$(wc -l <"$dir/runs.log")
            code=$(sed -n "${n}p" "$dir/codes")
            data=$(sed -n "${n}p" "$dir/data")
            if [[ -n $data && $data != - ]]; then printf '%b' "$data" >"${1#-Dhirstudio.exitdata=}"; fi
            exit "$code"
            """;

    private record Run(int status, List<String> runs, String err) {}

    /** Runs the loop with {@code codes} (one per start) and the exit data each start leaves ("-": none). */
    private Run loop(List<Integer> codes, List<String> data) throws IOException, InterruptedException {
        Path fake = dir.resolve("fake.sh");
        Files.writeString(fake, FAKE);
        assertTrue(fake.toFile().setExecutable(true));
        Files.write(dir.resolve("codes"), codes.stream().map(String::valueOf).toList());
        Files.write(dir.resolve("data"), data);
        Path exitData = dir.resolve("exitdata");
        List<String> cmd = new ArrayList<>(List.of(TestPaths.repo("scripts", "relaunch.sh").toString(),
                exitData.toString(), fake.toString(), "-Dhirstudio.exitdata=" + exitData, "--",
                "-data", "/srv/ws one", "-clean"));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the loop ended");
        List<String> runs = Files.exists(dir.resolve("runs.log")) ? Files.readAllLines(dir.resolve("runs.log")) : List.of();
        return new Run(p.exitValue(), runs.stream().map(String::strip).toList(), err);
    }

    @Test
    void restartCode23StartsTheSameCommandAgain() throws Exception {
        Run r = loop(List.of(23, 0), List.of("-", "-"));
        String first = "-Dhirstudio.exitdata=" + dir.resolve("exitdata") + " -data /srv/ws one -clean";
        assertEquals(List.of(first, first), r.runs(), r.err());
        assertEquals(0, r.status());
        assertTrue(r.err().contains("restart (exit 23)"), r.err());
    }

    @Test
    void relaunchCode24StartsAgainWithTheExitDataArguments() throws Exception {
        // what Workbench.restart(true) leaves: "-data\n<workspace URI>\n"
        Run r = loop(List.of(24, 23, 0), List.of("-data\\nfile:/srv/ws%20two/\\n", "-", "-"));
        String prefix = "-Dhirstudio.exitdata=" + dir.resolve("exitdata");
        assertEquals(List.of(prefix + " -data /srv/ws one -clean", prefix + " -data file:/srv/ws%20two/",
                prefix + " -data file:/srv/ws%20two/"), r.runs(), r.err());
        assertEquals(0, r.status());
        assertTrue(Files.notExists(dir.resolve("exitdata")), "the exit data file is removed at the end");
    }

    @Test
    void relaunchWithoutExitDataStopsAndSaysWhy() throws Exception {
        Run r = loop(List.of(24, 0), List.of("-", "-"));
        assertEquals(1, r.runs().size(), "started once: " + r.runs());
        assertEquals(24, r.status());
        assertTrue(r.err().contains("left no arguments"), r.err());
    }

    @Test
    void anyOtherStatusEndsTheLoopWithIt() throws Exception {
        Run r = loop(List.of(13, 0), List.of("-", "-"));
        assertEquals(1, r.runs().size(), "started once: " + r.runs());
        assertEquals(13, r.status());
    }
}
