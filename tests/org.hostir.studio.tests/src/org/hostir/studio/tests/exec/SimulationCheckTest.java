package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import org.hostir.studio.bench.SimulationCheck;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * {@code bench sim-check}'s comparison (docs/simulation.md, "Checked against reality"): the nine AG+GEMM schedules
 * on four shapes simulated on the measured H200 profiles, against the spans measured on 2 and 4 x H200. The figures
 * are the command's output of 2026-11-29 (the copy-engine P2P Allgather in nvFuser's CUDA form; issue 38 item 3's
 * target: each mean under 10 %); a change to the cost
 * model or the profiles that moves them shows here, and docs/simulation.md's tables are to be regenerated with it.
 */
class SimulationCheckTest {
    private static final Path EXAMPLES = RepoPaths.repo().resolve("examples");

    @Test
    void twoH200sWithinTenPercentOnAverageAndTheFastestScheduleOnThreeShapesOfFour() throws Exception {
        SimulationCheck.Comparison c = SimulationCheck.compare(EXAMPLES,
                SimulationCheck.MEASURED_2X_H200.read(RepoPaths.repo()), ProfileFiles.builtIn("h200x2-measured"));
        assertEquals(7.8, c.meanAbsError(), 0.05);
        assertEquals(28, c.within(10));
        // fp32 32768 32768 1024: the prediction puts collective S = 8 (42.89 ms) ahead of CE offset fwd (43.12)
        assertEquals(List.of(false, true, true, true), sameBest(c));
        assertEquals(List.of(24, 24, 29, 35), pairs(c));
    }

    @Test
    void fourH200sWithinTenPercentOnAverageAndTheFastestScheduleOnEveryShape() throws Exception {
        SimulationCheck.Comparison c = SimulationCheck.compare(EXAMPLES,
                SimulationCheck.MEASURED_4X_H200.read(RepoPaths.repo()), ProfileFiles.builtIn("h200x4-measured"));
        assertEquals(8.6, c.meanAbsError(), 0.05);
        assertEquals(21, c.within(10));
        assertEquals(List.of(true, true, true, true), sameBest(c));
        assertEquals(List.of(34, 30, 33, 33), pairs(c));
        assertTrue(c.meanAbsError() < 10, "issue 38 item 3: under 10 % at D = 4");
    }

    private static List<Boolean> sameBest(SimulationCheck.Comparison c) {
        return IntStream.range(0, c.shapes().size()).mapToObj(c::sameBest).toList();
    }

    private static List<Integer> pairs(SimulationCheck.Comparison c) {
        return IntStream.range(0, c.shapes().size()).mapToObj(c::pairsAlike).toList();
    }
}
