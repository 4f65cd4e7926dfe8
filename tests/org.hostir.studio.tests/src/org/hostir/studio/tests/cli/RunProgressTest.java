package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: a long run says how far it got while it runs (a long CPU run printed nothing for 11 s): during an
 * iteration, every period, how many ranks are done; during the validation, that it goes on. The period is made
 * short here so that a run of a second shows the lines a long run prints every 2 s.
 */
class RunProgressTest {
    private static final String SEED = RepoPaths.repo().resolve("examples/seeds/ag_matmul_p2p.fusion").toString();

    @Test
    void aRunSaysHowManyRanksAreDoneWhileAnIterationLasts() {
        String before = System.getProperty(RunCommandLine.PROGRESS_PERIOD);
        System.setProperty(RunCommandLine.PROGRESS_PERIOD, "1");
        try {
            CliRun r = CliRun.of("run", SEED, "--backend", "cpu", "--devices", "2", "--iterations", "1",
                    "--warmup", "0", "--set", "M=1024", "--set", "K=1024", "--set", "N=1024");
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().lines().anyMatch(l -> l.matches("iteration 1/1: [0-2] of 2 ranks done \\([0-9.]+ s\\)")),
                    r.out());
            assertTrue(r.out().lines().anyMatch(l -> l.matches("validating the outputs against the reference \\([0-9.]+ s\\)")),
                    r.out());
        } finally {
            if (before == null) System.clearProperty(RunCommandLine.PROGRESS_PERIOD);
            else System.setProperty(RunCommandLine.PROGRESS_PERIOD, before);
        }
    }
}
