package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.bench.ProfileFit;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;

/** Calibration's arithmetic (the GPU measurements themselves run only on a GPU machine) and its refusal without one. */
class ProfileFitTest {
    private static final double MIB = 1 << 20;

    @Test
    void alphaBetaRecoversTheLineOfAllgatherTimes() {
        // 4 ranks, alpha 12 us, bus 300 GB/s: t = 3 x 12 + 0.75 x bytes / 300e3
        List<ProfileFit.Point> points = List.of(1e6, 1e7, 1e8, 1e9).stream()
                .map(b -> new ProfileFit.Point(b, 36 + 0.75 * b / 300e3)).toList();
        HardwareProfile.Link l = ProfileFit.alphaBeta(points, 3, 0.75);
        assertEquals(12, l.alphaUs(), 1e-6);
        assertEquals(300, l.busGBps(), 1e-6);
    }

    @Test
    void aRelativeFitKeepsTheSmallMessagesLatencyWhereAPlainOneIsTheLargestMessagesAlone() {
        // the allgather-alone column of 2 x H200, 2026-11-26 night (bench-agmm-2-second.log): 64 MiB ... 4 GiB
        List<ProfileFit.Point> points = List.of(new ProfileFit.Point(64 * MIB, 186), new ProfileFit.Point(256 * MIB,
                622), new ProfileFit.Point(512 * MIB, 1085), new ProfileFit.Point(4096 * MIB, 7613));
        HardwareProfile.Link l = ProfileFit.alphaBeta(points, 1, 0.5);
        assertEquals(65.7, l.alphaUs(), 0.05);
        assertEquals(267.6, l.busGBps(), 0.05);
        for (ProfileFit.Point p : points) {
            double predicted = l.alphaUs() + l.transferUs(0.5 * p.x());
            assertTrue(Math.abs(predicted / p.us() - 1) < 0.09, p + " predicted " + predicted);
        }
    }

    /**
     * The "no hand editing" check: calibrate's fit, given what a run on 4 x H200 measures (here the figures of
     * docs/data/h200x4-2026-11-28/bench-agmm-4.log, standing in for the GPU: the GEMMs alone, the allgather sweep,
     * the traced NCCL receive), gives the built-in h200x4-measured profile's constants, which were derived by hand.
     */
    @Test
    void theFitOfAFourH200RunsMeasurementsIsTheBuiltInFourH200Profile() throws Exception {
        HardwareProfile builtIn = ProfileFiles.builtIn("h200x4-measured");
        HardwareProfile base = ProfileFiles.builtIn("h200x2-measured");
        List<ProfileFit.GemmTime> gemms = List.of(new ProfileFit.GemmTime(DataType.FLOAT, 32768, 32768, 1024, 42048),
                new ProfileFit.GemmTime(DataType.BFLOAT16, 32768, 8192, 8192, 5829),
                new ProfileFit.GemmTime(DataType.BFLOAT16, 16384, 8192, 4096, 1441),
                new ProfileFit.GemmTime(DataType.BFLOAT16, 8192, 4096, 4096, 391));
        HardwareProfile.Gemm g = ProfileFit.gemm(base.gemm(), gemms, base.gemm().launchUs(), base.gemm().memoryGBps());
        assertEquals(builtIn.gemm().efficiency().size(), g.efficiency().size());
        for (int i = 0; i < g.efficiency().size(); i++) {
            assertEquals(builtIn.gemm().efficiency().get(i)[0], g.efficiency().get(i)[0], 0.5, "size " + i);
            assertEquals(builtIn.gemm().efficiency().get(i)[1], g.efficiency().get(i)[1], 5e-4, "fraction " + i);
        }
        assertEquals(builtIn.gemm().peakTflops().get(DataType.FLOAT), g.peakTflops().get(DataType.FLOAT), 0.05);
        HardwareProfile.Link perStep = ProfileFit.alphaBeta(List.of(new ProfileFit.Point(64 * MIB, 224),
                new ProfileFit.Point(256 * MIB, 729), new ProfileFit.Point(512 * MIB, 1317),
                new ProfileFit.Point(4096 * MIB, 9626)), 3, 0.75);
        assertEquals(24.3, perStep.alphaUs(), 0.05);
        HardwareProfile.Link nvlink = ProfileFit.ncclRing(perStep, 3);
        assertEquals(builtIn.nvlink().alphaUs(), nvlink.alphaUs(), 0.05);
        // the built-in's 62.7 is 3 x the rounded 24.3 less 3 steps of 3.4; the unrounded fit leaves 62.6
        assertEquals(builtIn.nvlink().callUs(), nvlink.callUs(), 0.1);
        assertEquals(builtIn.nvlink().busGBps(), nvlink.busGBps(), 0.05);
        assertEquals(builtIn.ncclP2p().alphaUs(), perStep.alphaUs(), 0.05, "send/recv's latency: the fitted one per step");
        HardwareProfile.Link p2p = ProfileFit.sendRecv(16 * MIB, 137, builtIn.ncclP2p());
        assertEquals(builtIn.ncclP2p().busGBps(), p2p.busGBps(), 0.05);
    }

    /**
     * The split of a fitted Allgather's latency as NCCL prices it (src/graph/tuning.cc: a base once per call, 3.4 us
     * per NVLink ring step): the Allgather it was fitted to keeps its latency, an Allreduce (twice the steps) pays
     * the per-call part once. The 2 x H200 (65.7 us, 1 step) and 4 x H200 (3 x 24.3 us) fits, on two machines and
     * days, leave nearly the same per-call part (62.3 and 62.7 us): their latency is per call, not per step.
     */
    @Test
    void aFittedAllgathersLatencyIsNcclsStepsPlusOnePerCallPart() {
        HardwareProfile.Link two = ProfileFit.ncclRing(new HardwareProfile.Link(65.7, 267.6), 1);
        HardwareProfile.Link four = ProfileFit.ncclRing(new HardwareProfile.Link(24.3, 325.3), 3);
        assertEquals(HardwareProfile.NCCL_NVLINK_RING_STEP_US, two.alphaUs());
        assertEquals(62.3, two.callUs(), 1e-9);
        assertEquals(62.7, four.callUs(), 1e-9);
        assertEquals(72.9, four.latencyUs(3), 1e-9, "the Allgather's fitted latency is kept");
        assertEquals(62.7 + 6 * 3.4, four.latencyUs(6), 1e-9, "an Allreduce's 2 (n-1) steps");
        // a fitted latency below NCCL's steps is all per step
        HardwareProfile.Link small = ProfileFit.ncclRing(new HardwareProfile.Link(2, 300), 3);
        assertEquals(2, small.alphaUs(), 1e-9);
        assertEquals(0, small.callUs(), 1e-9);
    }

    @Test
    void measuredConstantsReplaceTheBasesAndTheSourceSaysWhatWasNotMeasured() throws Exception {
        HardwareProfile base = ProfileFiles.builtIn("h200x8-nvlink");
        List<double[]> curve = ProfileFit.efficiency(Map.of(1024L, 10.0, 4096L, 200.0), 989, 5);
        assertEquals(2.0 * 1024 * 1024 * 1024 / (5 * 989e6), curve.get(0)[1], 1e-9);
        HardwareProfile.Gemm gemm = new HardwareProfile.Gemm(base.gemm().peakTflops(), 3000, 5, curve);
        HardwareProfile p = ProfileFit.apply(base, new ProfileFit.Measured("mine", "test", gemm,
                new HardwareProfile.Link(7, 280), null, null, Map.of("HostOp", 9.0, "default", 0.8), "measured here"));
        assertEquals(280, p.nvlink().busGBps());
        assertEquals(p.nvlink(), p.ncclP2p(), "a base without its own send/recv link takes the measured NVLink");
        assertEquals(base.copyEngine(), p.copyEngine());
        assertEquals(9.0, p.dispatch().us("HostOp"));
        assertEquals(0.8, p.dispatch().us("Wait"));
        // the base's constants kept are named, not only the base's source quoted (which describes its GEMM too)
        String kept = p.source().substring(0, p.source().indexOf(" (its source: "));
        assertTrue(kept.startsWith("measured here; not measured, from h200x8-nvlink: contention, network, copy engine,"
                + " NCCL send/recv, dispatch of "), p.source());
        assertFalse(kept.contains("GEMM") || kept.contains("NVLink") || kept.contains("HostOp"), kept);
        assertEquals(ProfileJson.write(p), ProfileJson.write(ProfileFiles.read(ProfileJson.write(p), "x")));
        HardwareProfile q = ProfileFit.apply(ProfileFiles.builtIn("h200x4-measured"), new ProfileFit.Measured("q",
                "test", null, null, null, null, null, "measured here"));
        assertEquals(148.9, q.ncclP2p().busGBps(), "a base's own send/recv link stays when none was measured");
        assertTrue(q.source().startsWith("measured here; not measured, from h200x4-measured: contention, network,"
                + " GEMM, NVLink, copy engine, NCCL send/recv, dispatch (its source: "), q.source());
        assertEquals(ProfileJson.write(q), ProfileJson.write(ProfileFiles.read(ProfileJson.write(q), "x")));
    }

    /**
     * The launch confound (docs/simulation.md, "Calibration"): synthetic medians of N queued 1 MiB copies on a GPU
     * whose host takes 17 us to launch and synchronise a first copy, whose device adds 2.5 us per kernel and copies
     * at 3,300 GB/s. From an idle stream every N pays the 17 us once; queued behind a long copy (600 us), each copy
     * costs its launch and bytes. The fit gives back 17, 2.5 and the per-copy time, where one copy timed alone (the
     * fit before) would have called its 17 + 2.5 us, less its bytes, the launch.
     */
    @Test
    void launchIsTheSlopeOfQueuedCopiesNotOneTimedCopy() {
        double bytes = 1 << 20, gbps = 3300, perCopy = 2.5 + 2 * bytes / (gbps * 1e3);
        List<ProfileFit.Point> idle = new java.util.ArrayList<>(), queued = new java.util.ArrayList<>();
        for (int n : new int[] {1, 2, 4, 8, 16, 32}) {
            idle.add(new ProfileFit.Point(n, 17 + n * perCopy + (n % 2 == 0 ? 0.05 : -0.05))); // a little noise
            queued.add(new ProfileFit.Point(n, 600 + n * perCopy));
        }
        ProfileFit.LaunchFit fit = ProfileFit.launch(idle, queued, bytes, gbps);
        assertEquals(17, fit.hostUs(), 0.1);
        assertEquals(perCopy, fit.perCopyUs(), 1e-9);
        assertEquals(2.5, fit.launchUs(), 1e-9);
        double oneTimedCopy = idle.getFirst().us() - 2 * bytes / (gbps * 1e3);
        assertTrue(oneTimedCopy > 6 * fit.launchUs(), "the old fit's launch: " + oneTimedCopy);
        List<ProfileFit.Point> flat = List.of(new ProfileFit.Point(1, 600), new ProfileFit.Point(2, 600));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ProfileFit.launch(idle, flat, bytes, gbps));
        assertTrue(e.getMessage().contains("no launch to fit"), e.getMessage());
    }

    @Test
    void calibrateWithoutAGpuSaysSoAndExits2() {
        assumeTrue(CudaBackend.localDeviceCount() == 0, "this machine has a GPU: calibrate would measure it");
        CliRun r = CliRun.of("calibrate", "--out", "never-written.json");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("error: calibrate: no CUDA device found"), r.err());
        assertTrue(!java.nio.file.Files.exists(java.nio.file.Path.of("never-written.json")));
    }
}
