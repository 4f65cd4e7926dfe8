package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import org.hostir.studio.bench.MeasuredLog;
import org.hostir.studio.bench.SimulationCheck;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 38 item 3's check: a profile written by {@code calibrate} alone, no hand editing, against the spans
 * {@code bench agmm} measured on the same 2 x H200 the same minute (docs/data/h200x2-2026-11-29-s12/, 16:06-16:07
 * UTC; docs/simulation.md, "Calibrate's own profile against its machine's spans"). Both files are read as stored;
 * the earlier calibration of the same kind of machine (docs/data/h200x2-2026-11-29-s11/, cold probes) misses the
 * target on the same log, so the check can fail.
 */
class CalibratedProfileSameSessionTest {
    private static final Path EXAMPLES = RepoPaths.repo().resolve("examples");
    private static final MeasuredLog SAME_MINUTE = new MeasuredLog(2, "h200x2-calibrated",
            "docs/data/h200x2-2026-11-29-s12/bench-agmm-2.log");

    private static HardwareProfile calibrated(String session) throws Exception {
        Path file = RepoPaths.repo().resolve("docs/data/" + session + "/h200x2-calibrated.json");
        return ProfileFiles.read(Files.readString(file), file.getFileName().toString());
    }

    private static SimulationCheck.Comparison check(MeasuredLog log, HardwareProfile p) throws Exception {
        return SimulationCheck.compare(EXAMPLES, log.read(RepoPaths.repo()), p);
    }

    @Test
    void theSameMinutesCalibrationIsWithinTenPercentOfItsMachinesSpans() throws Exception {
        SimulationCheck.Comparison c = check(SAME_MINUTE, calibrated("h200x2-2026-11-29-s12"));
        assertTrue(c.meanAbsError() < 10, "issue 38 item 3: " + c.meanAbsError());
        assertEquals(6.0, c.meanAbsError(), 0.05);
        assertEquals(31, c.within(10));
        // bf16 32768 8192 8192: measured CE p2p 6.234 ms ahead of CE offset fwd 6.617; predicted 6.294 and 6.147
        // (the hand profile orders them the same way: not a constant of calibrate's)
        assertEquals(List.of(true, false, true, true), sameBest(c));
        assertEquals(List.of(30, 26, 25, 30), pairs(c));
    }

    @Test
    void theHandProfileAndTheColdCalibrationDoWorseOnTheSameLog() throws Exception {
        SimulationCheck.Comparison hand = check(SAME_MINUTE, ProfileFiles.builtIn("h200x2-measured"));
        assertEquals(7.4, hand.meanAbsError(), 0.05);
        assertEquals(27, hand.within(10));
        assertEquals(List.of(false, false, true, true), sameBest(hand));
        SimulationCheck.Comparison cold = check(SAME_MINUTE, calibrated("h200x2-2026-11-29-s11"));
        assertEquals(13.4, cold.meanAbsError(), 0.05);
        assertEquals(21, cold.within(10));
    }

    @Test
    void theSameCalibrationOnTheStoredNightLogOfAnotherSession() throws Exception {
        SimulationCheck.Comparison c = check(SimulationCheck.MEASURED_2X_H200, calibrated("h200x2-2026-11-29-s12"));
        assertEquals(5.8, c.meanAbsError(), 0.05);
        assertEquals(30, c.within(10));
        assertEquals(List.of(true, true, true, true), sameBest(c));
    }

    private static List<Boolean> sameBest(SimulationCheck.Comparison c) {
        return IntStream.range(0, c.shapes().size()).mapToObj(c::sameBest).toList();
    }

    private static List<Integer> pairs(SimulationCheck.Comparison c) {
        return IntStream.range(0, c.shapes().size()).mapToObj(c::pairsAlike).toList();
    }
}
