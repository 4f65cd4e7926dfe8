package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
            assertTrue(r.out().lines().anyMatch(l -> l.matches("iteration 1/1: [0-2] of 2 ranks done \\([0-9.]+ s\\)(, [0-9]+ of [0-9]+ stream tasks run)?")),
                    r.out());
            assertTrue(r.out().lines().anyMatch(l -> l.matches("validating the outputs against the reference \\([0-9.]+ s\\)")),
                    r.out());
        } finally {
            if (before == null) System.clearProperty(RunCommandLine.PROGRESS_PERIOD);
            else System.setProperty(RunCommandLine.PROGRESS_PERIOD, before);
        }
    }

    /**
     * AG+GEMM's ranks wait for each other's shards and finish together at the end of an iteration, so "0 of 8 ranks
     * done" stood for most of it; the lines now also count the tasks the streams have run, which move meanwhile.
     */
    @Test
    void whileNoRankIsDoneTheStreamTasksRunMove() {
        String before = System.getProperty(RunCommandLine.PROGRESS_PERIOD);
        System.setProperty(RunCommandLine.PROGRESS_PERIOD, "1");
        try {
            CliRun r = CliRun.of("run", RepoPaths.repo().resolve("examples/seeds/ag_matmul.fusion").toString(),
                    "--backend", "cpu", "--devices", "8", "--iterations", "1", "--warmup", "0", "--no-validate",
                    "--set", "M=256", "--set", "K=256", "--set", "N=256");
            assertEquals(0, r.code(), r.err());
            Pattern line = Pattern.compile("iteration 1/1: 0 of 8 ranks done \\([0-9.]+ s\\), ([0-9]+) of ([0-9]+) stream tasks run");
            Set<Long> runWhileNoRankDone = new TreeSet<>();
            r.out().lines().map(line::matcher).filter(Matcher::matches).forEach(m -> {
                assertTrue(Long.parseLong(m.group(1)) <= Long.parseLong(m.group(2)), m.group());
                runWhileNoRankDone.add(Long.parseLong(m.group(1)));
            });
            assertTrue(runWhileNoRankDone.size() >= 2, "the count moves before the first rank is done: "
                    + runWhileNoRankDone + "\n" + r.out());
        } finally {
            if (before == null) System.clearProperty(RunCommandLine.PROGRESS_PERIOD);
            else System.setProperty(RunCommandLine.PROGRESS_PERIOD, before);
        }
    }
}
