package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.hostir.studio.exec.DeviceOutOfMemory;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.file.LoadedFusion;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * An allocation that cannot succeed names the TensorView, its shape, dtype and bytes, and the device's memory:
 * on the CPU backend (a tensor over 2^31 elements) and, with a GPU, on CUDA (an outer sum of 2^20 x 2^20 floats,
 * 4 TiB, with inputs of 4 MiB each).
 */
class OutOfMemoryTest {
    @Test
    void theCpuBackendNamesTheTensorThatDoesNotFit() throws Exception {
        LoadedFusion loaded = OutOfMemoryFusion.load(1L << 16, 1L << 16);
        try (CpuBackend backend = new CpuBackend(1, 10_000)) {
            DeviceOutOfMemory e = assertThrows(DeviceOutOfMemory.class, () -> Runs.run(loaded, 1, Map.of(), backend, line -> { }).validation());
            String m = e.getMessage();
            for (String part : new String[] {"TensorView T4 'outer'", "shape [65536, 65536] float", "17179869184 bytes",
                    "rank 0", "MiB free"}) {
                assertTrue(m.contains(part), () -> part + " missing in: " + m);
            }
        }
    }

    @Test
    void theCudaBackendNamesTheTensorAndTheDevicesFreeMemory() throws Exception {
        Assumptions.assumeTrue(CudaBackend.available(1), CudaSkip.message(1));
        LoadedFusion loaded = OutOfMemoryFusion.load(1L << 20, 1L << 20);
        try (CudaBackend backend = new CudaBackend(1, 10_000)) {
            DeviceOutOfMemory e = assertThrows(DeviceOutOfMemory.class, () -> Runs.run(loaded, 1, Map.of(), backend, line -> { }));
            String m = e.getMessage();
            System.out.println("diagnostic: " + m);
            for (String part : new String[] {"TensorView T4 'outer'", "shape [1048576, 1048576] float",
                    "4398046511104 bytes", "(4096.00 GiB)", "GPU 0", " free of ", "GiB"}) {
                assertTrue(m.contains(part), () -> part + " missing in: " + m);
            }
        }
    }
}
