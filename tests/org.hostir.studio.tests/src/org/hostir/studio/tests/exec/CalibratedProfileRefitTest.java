package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.hostir.studio.bench.ProfileFit;
import org.hostir.studio.bench.SimulationCheck;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * Why {@code calibrate}'s profile of 2 x H200 (2026-11-29, docs/data/h200x2-2026-11-29-s11/) missed the 10 % of
 * {@code bench sim-check} and the hand-derived one did not (docs/simulation.md, "Why calibrate's constants
 * differed"): its GEMMs, send/recv and dispatch were probed in a cold process, the send/recv one way only. Re-fitted
 * by {@link ProfileFit} with the figures the same session's three {@code bench agmm} runs took of those components
 * under the conditions the fixed probes reproduce (a warm process; the P2P step's exchange both ways), and nothing
 * else changed, it meets the target at D = 2 and D = 4. No figure here comes from the spans checked (2026-11-26 at
 * D = 2, 2026-11-28 at D = 4).
 */
class CalibratedProfileRefitTest {
    private static final Path EXAMPLES = RepoPaths.repo().resolve("examples");
    private static final Path SESSION = RepoPaths.repo().resolve("docs/data/h200x2-2026-11-29-s11");
    private static final double MIB = 1 << 20;

    private static HardwareProfile stored() throws Exception {
        return ProfileFiles.read(Files.readString(SESSION.resolve("h200x2-calibrated.json")), "h200x2-calibrated.json");
    }

    @Test
    void theStoredCalibrationMissesTheTargetAtBothD() throws Exception {
        HardwareProfile cal = stored();
        assertEquals(14.0, check(2, cal).meanAbsError(), 0.05);
        assertEquals(13.2, check(4, cal).meanAbsError(), 0.05);
    }

    @Test
    void refittedWithTheSessionsWarmComponentFiguresItIsWithinTenPercentWithTheSameFastestSchedules()
            throws Exception {
        HardwareProfile cal = stored();
        // GEMMs alone: the medians of t_gemm in bench-agmm-2-run1..3.log (42.079/42.090/42.104, 5.820/6.208/5.934,
        // 1.449/1.505/1.468, 0.370/0.362/0.380 ms), against calibrate's 42055/6312/1574/455 us of a cold process
        List<ProfileFit.GemmTime> gemms = List.of(new ProfileFit.GemmTime(DataType.FLOAT, 32768, 32768, 1024, 42090),
                new ProfileFit.GemmTime(DataType.BFLOAT16, 32768, 8192, 8192, 5934),
                new ProfileFit.GemmTime(DataType.BFLOAT16, 16384, 8192, 4096, 1468),
                new ProfileFit.GemmTime(DataType.BFLOAT16, 8192, 4096, 4096, 370));
        HardwareProfile.Gemm g = ProfileFit.gemm(cal.gemm(), gemms, cal.gemm().launchUs(), cal.gemm().memoryGBps());
        // the exchange both ways: the shortest traced recv bar of the runs (run 2, 32 MiB in 0.257 ms) after the
        // latency calibrate fitted to its Allgather sweep (74.04 us, its written ncclP2p alpha)
        HardwareProfile.Link perCall = new HardwareProfile.Link(cal.ncclP2p().alphaUs(), cal.nvlink().busGBps());
        HardwareProfile.Link p2p = ProfileFit.sendRecv(32 * MIB, 257, perCall);
        assertEquals(183.4, p2p.busGBps(), 0.1);
        // dispatch: the events-off host means of the three runs, the middle run's (HostOp 15.6 / 22.8 / 30.4 us)
        Map<String, Double> dispatch = Map.of("HostOp", 22.83, "EndCoalescing", 35.88, "Allocate", 7.15,
                "Synchronize", 2.61, "Wait", 0.69);
        HardwareProfile refit = ProfileFit.apply(cal, new ProfileFit.Measured("h200x2-refit", "refit", g, null, null,
                p2p, dispatch, "refit"));
        for (int d : new int[] {2, 4}) {
            SimulationCheck.Comparison c = check(d, refit);
            assertTrue(c.meanAbsError() < 10, "D = " + d + ": " + c.meanAbsError());
            assertEquals(List.of(true, true, true, true), IntStream.range(0, c.shapes().size())
                    .mapToObj(c::sameBest).toList(), "D = " + d);
        }
        assertEquals(7.7, check(2, refit).meanAbsError(), 0.05);
        assertEquals(9.9, check(4, refit).meanAbsError(), 0.05);
    }

    private static SimulationCheck.Comparison check(int devices, HardwareProfile p) throws Exception {
        org.hostir.studio.bench.MeasuredLog log = devices == 2 ? SimulationCheck.MEASURED_2X_H200
                : SimulationCheck.MEASURED_4X_H200;
        return SimulationCheck.compare(EXAMPLES, log.read(RepoPaths.repo()), p);
    }
}
