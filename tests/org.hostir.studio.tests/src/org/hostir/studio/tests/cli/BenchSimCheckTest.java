package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench sim-check --profile P --measured LOG --devices N}: a profile checked against any log of {@code bench
 * agmm} (issue 38 item 3: a machine's calibrated profile against that machine's own spans). The options refused in
 * one line naming the flag; a log of another device count refused at its line; a stored log gives the table the
 * fixed run gives for it.
 */
class BenchSimCheckTest {
    private static final String NIGHT = RepoPaths.repo()
            .resolve("docs/data/h200x2-2026-11-26-night/bench-agmm-2-second.log").toString();

    /** Exit 2 and the error in the first line (a usage error is followed by the usage line). */
    private static String refused(String... args) {
        CliRun r = CliRun.run(args);
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.errLines().size() == 1 || r.errLines().get(1).startsWith("usage: "), r.err());
        return r.errLines().getFirst();
    }

    @Test
    void theMeasuredLogNeedsAProfileAndItsDeviceCount() {
        assertEquals("error: bench: --measured: needs --profile NAME|FILE, the profile checked against the log",
                refused("bench", "sim-check", "--measured", NIGHT, "--devices", "2"));
        assertEquals("error: bench: --measured: needs --devices N, the GPUs the log's run had",
                refused("bench", "sim-check", "--measured", NIGHT, "--profile", "h200x2-measured"));
        assertEquals("error: bench: --devices: the GPUs of the log --measured names; without --measured sim-check"
                + " compares with its stored runs (D = 2 and 4)", refused("bench", "sim-check", "--devices", "2"));
        assertTrue(refused("bench", "sim-check", "--measured", NIGHT, "--profile", "h200x2-measured", "--devices",
                "0").contains("--devices"));
    }

    @Test
    void aLogOfAnotherDeviceCountOrNoneIsRefusedAtItsPlace(@TempDir Path dir) {
        assertEquals("error: " + NIGHT + ":11: sim-check: the log is of 2 devices, the table of 4 [bench.log]",
                refused("bench", "sim-check", "--measured", NIGHT, "--profile", "h200x4-measured", "--devices", "4"));
        String missing = dir.resolve("none.log").toString();
        assertEquals("error: " + missing + ": sim-check: no such file: the spans measured on 2 GPUs that sim-check"
                + " compares with [bench.log]", refused("bench", "sim-check", "--measured", missing, "--profile",
                "h200x2-measured", "--devices", "2"));
    }

    @Test
    void aStoredLogGivesTheFixedRunsFigures(@TempDir Path dir) throws Exception {
        // the night's log copied elsewhere: read from the path given, the same 7.8 % as the stored D = 2 run
        Path copy = dir.resolve("night.log");
        Files.copy(Path.of(NIGHT), copy);
        // the seeds named by path: the test's working directory is not the repository's in every runner
        CliRun r = CliRun.run("bench", "sim-check", "--measured", copy.toString(), "--profile", "h200x2-measured",
                "--devices", "2", "--examples", RepoPaths.repo().resolve("examples").toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("D = 2 (" + copy + "):", r.outLines().getFirst());
        assertTrue(r.outLines().contains("D = 2: mean absolute error 7.8 % over 36 cases, 28 within 10 % (profile"
                + " h200x2-measured)"), r.out());
        assertTrue(r.outLines().contains("float 32768 32768 1024: measured best CE offset fwd, predicted best coll."
                + " S=8; pairs ordered alike 24 of 36"), r.out());
    }
}
