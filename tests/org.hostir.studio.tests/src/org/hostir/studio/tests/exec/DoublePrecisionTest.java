package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.tensor.Comparison;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.ErrorBudget;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.NpyReader;
import org.hostir.studio.exec.tensor.Reference;
import org.hostir.studio.exec.tensor.Tolerance;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19: a fusion in double runs in float64 on the CPU backend and in the reference. examples/ops/
 * double_precision_dp computes q = x * y + x and r = sum of q over the sharded axis and N; the run's saved
 * inputs and outputs are checked against the same formulas evaluated here in Java double, and against float32
 * arithmetic, which they must not match.
 */
class DoublePrecisionTest {
    private static final String EXAMPLE = "ops/double_precision_dp";

    private static Path example() { return RepoPaths.repo().resolve("examples/" + EXAMPLE + ".fusion"); }

    /** {@code hirstudio run FILE --devices 2 --backend cpu --save-npy DIR}: it must validate. */
    private static void run(Path fusion, Path dir) {
        CliRun r = CliRun.of("run", fusion.toString(), "--devices", "2", "--backend", "cpu", "--save-npy",
                dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("validation: PASS"), r.out());
    }

    @Test
    void theCpuBackendComputesADoubleFusionInFloat64(@TempDir Path dir) throws Exception {
        run(example(), dir);
        double[] x = NpyReader.read(dir.resolve("in_x.npy"), DataType.DOUBLE).toDoubleArray();
        double[] y = NpyReader.read(dir.resolve("in_y.npy"), DataType.DOUBLE).toDoubleArray();
        DenseTensor q = NpyReader.read(dir.resolve("out_q.npy"), DataType.DOUBLE);
        DenseTensor r = NpyReader.read(dir.resolve("out_r.npy"), DataType.DOUBLE);
        long notFloat = java.util.Arrays.stream(x).filter(v -> v != (float) v).count();
        assertTrue(notFloat > x.length / 2, "the double inputs need float64: " + notFloat + " of " + x.length);
        double[] qs = q.toDoubleArray();
        double floatGap = 0;
        for (int i = 0; i < x.length; i++) {
            // bit for bit what Java's double gives: one rounding for the product, one for the sum
            assertEquals(Double.doubleToLongBits(x[i] * y[i] + x[i]), Double.doubleToLongBits(qs[i]), "q[" + i + "]");
            float inFloat = (float) x[i] * (float) y[i] + (float) x[i];
            floatGap = Math.max(floatGap, Math.abs(inFloat - qs[i]));
        }
        assertTrue(floatGap > 1e-9, "float32 arithmetic would be off by " + floatGap);
        int m = (int) r.size(0);
        int n = x.length / (2 * m); // x is [D = 2, M, N]
        for (int i = 0; i < m; i++) {
            double sum = 0;
            double magnitude = 0;
            float floatSum = 0;
            for (int d = 0; d < 2; d++) {
                for (int k = 0; k < n; k++) {
                    int at = (d * m + i) * n + k;
                    sum += x[at] * y[at] + x[at];
                    magnitude += Math.abs(x[at] * y[at]) + Math.abs(x[at]);
                    floatSum += (float) x[at] * (float) y[at] + (float) x[at];
                }
            }
            double got = r.getDouble(i);
            // another summation order (per rank, then the Allreduce): within 2n double roundings of |terms|
            assertTrue(Math.abs(got - sum) <= 2 * n * 0x1p-53 * magnitude, i + ": " + got + " vs " + sum);
            assertTrue(Math.abs(floatSum - sum) > 1e3 * 2 * n * 0x1p-53 * magnitude, "float32 would pass too");
        }
    }

    @Test
    void theSameFusionInFloatComputesInFloat32(@TempDir Path dir) throws Exception {
        Path inFloat = dir.resolve("double_precision_as_float.fusion");
        Files.writeString(inFloat, Files.readString(example()).replace("\"double\"", "\"float\""));
        run(inFloat, dir);
        float[] x = NpyReader.read(dir.resolve("in_x.npy"), DataType.FLOAT).toArray();
        float[] y = NpyReader.read(dir.resolve("in_y.npy"), DataType.FLOAT).toArray();
        float[] q = NpyReader.read(dir.resolve("out_q.npy"), DataType.FLOAT).toArray();
        int roundedAway = 0;
        for (int i = 0; i < x.length; i++) {
            assertEquals(Float.floatToIntBits(x[i] * y[i] + x[i]), Float.floatToIntBits(q[i]), "q[" + i + "]");
            if ((double) x[i] * y[i] + x[i] != q[i]) roundedAway++;
        }
        assertTrue(roundedAway > x.length / 2, "float32 rounds most of q: " + roundedAway + " of " + x.length);
    }

    /** The reference's tolerance of a double output is double's: a 1e-10 error fails there and passes in float. */
    @Test
    void validationAllowsDoubleItsOwnRoundoff() throws Exception {
        assertEquals(0x1p-53, ErrorBudget.unit(DataType.DOUBLE));
        assertEquals(1e-12, Tolerance.of(DataType.DOUBLE).rtol());
        for (String dtype : List.of("double", "float")) {
            String text = Files.readString(example()).replace("\"double\"", "\"" + dtype + "\"");
            LoadedFusion loaded = FusionLoader.load(text, EXAMPLE + "." + dtype, 2);
            Map<Integer, DenseTensor> inputs = Inputs.generate(loaded.fusion(), loaded.bindings().asMap(), 7);
            Reference ref = Reference.evaluate(loaded.fusion(), inputs);
            TensorView r = loaded.fusion().outputs().get(1);
            DenseTensor expected = ref.value(r);
            DenseTensor off = expected.copy();
            off.setDouble(expected.getDouble(0) * (1 + 1e-10), 0);
            boolean passes = Comparison.compare(expected, off, ref.tolerance(r)).passed();
            if (dtype.equals("double")) {
                assertTrue(expected.isWide());
                assertFalse(passes, "double's tolerance catches a 1e-10 relative error");
                assertTrue(ref.budget(r).coefficient() < 1e-13, ref.budget(r).toString());
            } else {
                assertTrue(passes, "float's tolerance allows a 1e-10 relative error");
            }
        }
    }

    /** The heap estimate counts 8 bytes per double element: the same fusion needs twice what it needs in float. */
    @Test
    void theRunBudgetCountsEightBytesPerDoubleElement(@TempDir Path dir) throws Exception {
        long elements = Math.min(Integer.MAX_VALUE - 8, Runtime.getRuntime().maxMemory() / Float.BYTES);
        double[] needed = new double[2];
        List<String> dtypes = List.of("float", "double");
        for (int i = 0; i < 2; i++) {
            Path f = dir.resolve("neg_" + dtypes.get(i) + ".fusion");
            Files.writeString(f, """
                    {"format": "hostir-fusion/1", "name": "neg", "symbols": {"M": %d},
                     "tensors": [{"name": "a", "dtype": "%s", "axes": ["M"]}, {"name": "b", "dtype": "%s", "axes": ["M"]}],
                     "ops": [{"op": "neg", "inputs": ["a"], "output": "b"}], "inputs": ["a"], "outputs": ["b"]}
                    """.formatted(elements, dtypes.get(i), dtypes.get(i)));
            CliRun r = CliRun.of("run", f.toString(), "--devices", "1", "--backend", "cpu");
            assertEquals(2, r.code(), r.out() + r.err());
            var m = java.util.regex.Pattern.compile("the run needs about ([0-9.]+) (\\w+) of Java heap").matcher(r.err());
            assertTrue(m.find(), r.err());
            needed[i] = Double.parseDouble(m.group(1)) * switch (m.group(2)) {
                case "GiB" -> 1024;
                case "MiB" -> 1;
                default -> throw new AssertionError(r.err());
            };
        }
        assertEquals(2, needed[1] / needed[0], 0.05, needed[0] + " MiB in float, " + needed[1] + " in double");
    }

    /**
     * A double matmul with K = 8192, batch-sharded over 2 ranks: each element is Java's double dot product summed
     * in k order (the float64 GEMM's order), bit for bit, where float32 products and sums are off by far more.
     */
    @Test
    void aDoubleMatmulWithLargeKRunsInFloat64(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("double_matmul.fusion");
        Files.writeString(f, """
                {"format": "hostir-fusion/1", "name": "double_matmul", "symbols": {"M": 3, "K": 8192, "N": 2},
                 "tensors": [
                   {"name": "a", "dtype": "double", "axes": [{"extent": "D", "parallel": "DIDx"}, "M", "K"], "mesh": "all"},
                   {"name": "b", "dtype": "double", "axes": ["K", "N"], "mesh": "all"},
                   {"name": "c", "dtype": "double", "axes": [{"extent": "D", "parallel": "DIDx"}, "M", "N",
                     {"extent": "K", "iter": "reduction"}], "mesh": "all"}],
                 "ops": [{"op": "matmul", "inputs": ["a", "b"], "output": "c"}],
                 "inputs": ["a", "b"], "outputs": ["c"]}
                """);
        Path npy = dir.resolve("npy");
        run(f, npy);
        double[] a = NpyReader.read(npy.resolve("in_a.npy"), DataType.DOUBLE).toDoubleArray();
        double[] b = NpyReader.read(npy.resolve("in_b.npy"), DataType.DOUBLE).toDoubleArray();
        double[] c = NpyReader.read(npy.resolve("out_c.npy"), DataType.DOUBLE).toDoubleArray();
        int k = 8192, n = 2, rows = a.length / k;
        assertEquals(rows * n, c.length);
        double floatGap = 0;
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                float sf = 0;
                for (int kk = 0; kk < k; kk++) {
                    s += a[i * k + kk] * b[kk * n + j];
                    sf += (float) a[i * k + kk] * (float) b[kk * n + j];
                }
                assertEquals(s, c[i * n + j], 0, "c[" + i + ", " + j + "]");
                floatGap = Math.max(floatGap, Math.abs(sf - s));
            }
        }
        assertTrue(floatGap > 1e-7, "float32 would be off by " + floatGap);
    }

    /**
     * A backend whose double results carry float32 precision (the CUDA backend's host transfers still convert a
     * double to a float) is held to float32's roundoff: its result, here the float fusion on the inputs rounded to
     * float, fails double's tolerance and passes the one the reference gives for such a backend.
     */
    @Test
    void aBackendComputingDoubleInFloat32IsHeldToFloat32() throws Exception {
        String text = Files.readString(example());
        LoadedFusion d = FusionLoader.load(text, EXAMPLE, 2);
        LoadedFusion f = FusionLoader.load(text.replace("\"double\"", "\"float\""), EXAMPLE + ".float", 2);
        Map<Integer, DenseTensor> inputs = Inputs.generate(d.fusion(), d.bindings().asMap(), 7);
        Map<Integer, DenseTensor> rounded = new java.util.HashMap<>();
        inputs.forEach((id, t) -> {
            DenseTensor r = DenseTensor.zeros(t.shape(), DataType.FLOAT);
            r.copyFrom(t);
            rounded.put(id, r);
        });
        for (int i = 0; i < 2; i++) {
            TensorView out = d.fusion().outputs().get(i);
            DenseTensor inFloat32 = Reference.evaluate(f.fusion(), rounded).value(f.fusion().outputs().get(i));
            DenseTensor asDouble = DenseTensor.zeros(inFloat32.shape(), DataType.DOUBLE);
            asDouble.copyFrom(inFloat32);
            Reference strict = Reference.evaluate(d.fusion(), inputs, true);
            Reference loose = Reference.evaluate(d.fusion(), inputs, false);
            assertFalse(Comparison.compare(strict.value(out), asDouble, strict.tolerance(out)).passed(), out.name());
            assertTrue(Comparison.compare(loose.value(out), asDouble, loose.tolerance(out)).passed(), out.name());
        }
    }
}
