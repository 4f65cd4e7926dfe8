package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.bench.ProfileFit;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;

/** Calibration's arithmetic (the GPU measurements themselves run only on a GPU machine) and its refusal without one. */
class ProfileFitTest {
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
    void measuredConstantsReplaceTheBasesAndTheSourceSaysWhatWasNotMeasured() throws Exception {
        HardwareProfile base = ProfileFiles.builtIn("h200x8-nvlink");
        List<double[]> curve = ProfileFit.efficiency(Map.of(1024L, 10.0, 4096L, 200.0), 989, 5);
        assertEquals(2.0 * 1024 * 1024 * 1024 / (5 * 989e6), curve.get(0)[1], 1e-9);
        HardwareProfile p = ProfileFit.apply(base, new ProfileFit.Measured("mine", "test", curve, null, 3000.0, 5.0,
                new HardwareProfile.Link(7, 280), null, Map.of("HostOp", 9.0, "default", 0.8), "measured here"));
        assertEquals(280, p.nvlink().busGBps());
        assertEquals(base.copyEngine(), p.copyEngine());
        assertEquals(9.0, p.dispatch().us("HostOp"));
        assertEquals(0.8, p.dispatch().us("Wait"));
        assertTrue(p.source().startsWith("measured here; not measured, from h200x8-nvlink"), p.source());
        assertEquals(ProfileJson.write(p), ProfileJson.write(ProfileFiles.read(ProfileJson.write(p), "x")));
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
