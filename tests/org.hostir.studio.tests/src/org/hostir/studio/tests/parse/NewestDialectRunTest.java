package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.Evaluator;
import org.hostir.studio.exec.NotExecutableNodeException;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.LaunchKernel;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * Programs of nvFuser main's dialect run where the Studio can run them: test_stream.py's two matmuls (a
 * {@code FOR i99 from 0 to 3} loop of ShardByStreams and matmuls) computes matmul(matmul(T0, T1), T2) chunk by
 * chunk; a LaunchKernel is refused by name.
 */
class NewestDialectRunTest {
    @Test
    void twoMatmulsRunChunkByChunkThroughShardByStream() throws IOException {
        HostIrContainer program = HostIrDumpReader.read(Files.readString(RepoPaths.repo()
                .resolve("examples/dumps/nvfuser-2026-04/test_stream_two_matmuls_inlinable.log"))).program();
        long m = 6, k = 3, n = 5, p = 3;
        float[] a = values(m * k, 1), b = values(k * n, 2), c = values(n * p, 3);
        try (CpuBackend backend = new CpuBackend(1)) {
            Device device = backend.device(0);
            ScalarEnv env = new ScalarEnv(Map.of("i0", m, "i2", k, "i4", n, "i6", p), 0, 3);
            Map<Integer, Buffer> bound = new HashMap<>();
            List<float[]> data = List.of(a, b, c);
            List<long[]> shapes = List.of(new long[] {m, k}, new long[] {k, n}, new long[] {n, p});
            for (int i = 0; i < 3; i++) {
                bound.put(program.inputs().get(i).id(),
                        device.upload(DenseTensor.of(DataType.FLOAT, shapes.get(i), data.get(i))));
            }
            Map<Integer, Buffer> out = new Evaluator(program, device, env, bound).run();
            device.synchronize();
            DenseTensor result = device.download(out.get(program.outputs().get(0).id()));
            assertArrayEquals(new long[] {m, p}, result.shape());
            assertArrayEquals(matmul(matmul(a, b, m, k, n), c, m, n, p), result.toArray(), 1e-3f);
        }
    }

    @Test
    void aLaunchKernelIsReadAndRefusedByName() {
        String dump = """
                %HostIrContainer { (T0_g_float[iS0{4}]) -> (T1_g_float[iS1{4}]) :
                  T1_g_float[iS1{4}] = ALLOCATE(mem_type=global, zero_init=false)
                  LaunchKernel(
                    Group ID: 0,
                    Inputs: {T0_g_float[iS0{4}]},
                    Outputs: {T1_g_float[iS1{4}]},
                  )
                } // %HostIrContainer
                """;
        var read = HostIrDumpReader.read(dump);
        assertEquals(List.of(), read.warnings());
        assertTrue(read.program().topLevel().get(1) instanceof LaunchKernel);
        HostIrContainer program = read.program();
        try (CpuBackend backend = new CpuBackend(1)) {
            Device device = backend.device(0);
            Map<Integer, Buffer> bound = new HashMap<>(Map.of(program.inputs().get(0).id(),
                    device.upload(DenseTensor.of(DataType.FLOAT, new long[] {4}, 1, 2, 3, 4))));
            var e = assertThrows(NotExecutableNodeException.class,
                    () -> new Evaluator(program, device, new ScalarEnv(Map.of(), 0, 1), bound).run());
            assertEquals("cannot run 'LaunchKernel(Group ID: 0, Inputs: {T0_g_float[iS0{4}]}, Outputs: {T1_g_float[iS1{4}]})':"
                    + " nvFuser's LaunchKernel runs the compiled CUDA kernel"
                    + " of segment 0, which a Host IR dump does not contain", e.getMessage());
        }
    }

    private static float[] values(long count, int seed) {
        float[] v = new float[(int) count];
        for (int i = 0; i < v.length; i++) v[i] = (i * 7 + seed * 3) % 5 - 2;
        return v;
    }

    private static float[] matmul(float[] x, float[] y, long rows, long inner, long cols) {
        float[] out = new float[(int) (rows * cols)];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                float s = 0;
                for (int t = 0; t < inner; t++) s += x[(int) (i * inner + t)] * y[(int) (t * cols + j)];
                out[(int) (i * cols + j)] = s;
            }
        }
        return out;
    }
}
