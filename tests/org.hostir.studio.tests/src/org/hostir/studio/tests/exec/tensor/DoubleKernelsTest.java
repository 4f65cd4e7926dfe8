package org.hostir.studio.tests.exec.tensor;

import static org.hostir.studio.tests.exec.tensor.TensorFixtures.iter;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.red;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.shape;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.tv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.NpyFiles;
import org.hostir.studio.exec.tensor.NpyReader;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.exec.tensor.Rounding;
import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.UnaryOpType;
import org.junit.jupiter.api.Test;

/**
 * Issue 19: double tensors are held in float64 and the kernels compute them in float64 (int64:
 * IntegerSemanticsTest), each checked against the same arithmetic in Java double; float32 tensors keep their
 * float32 results.
 */
class DoubleKernelsTest {
    private static final DataType D = DataType.DOUBLE;
    private final IrBuilder b = new IrBuilder();

    private static double[] random(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = r.nextDouble(-1, 1);
        return v;
    }

    /** A [M, K] x [K, N] matmul in {@code dtype} (the kernel; files refuse double matmuls, as cuBLASLt does). */
    private DenseTensor matmul(DataType dtype, int m, int k, int n, double[] a, double[] bv) {
        FusionOp.Matmul op = new FusionOp.Matmul(tv(b, dtype, null, iter(b, m), iter(b, n)),
                tv(b, dtype, null, iter(b, m), iter(b, k)), tv(b, dtype, null, iter(b, k), iter(b, n)));
        return OpKernels.compute(op, List.of(DenseTensor.ofDoubles(dtype, shape(m, k), a),
                DenseTensor.ofDoubles(dtype, shape(k, n), bv)));
    }

    @Test
    void aDoubleMatmulWithLargeKIsJavasDoubleDotProduct() {
        int m = 3, k = 20_000, n = 5;
        double[] a = random(m * k, 1);
        double[] bv = random(k * n, 2);
        // terms like 1 + 1e-12: float32 cannot tell them from 1
        for (int i = 0; i < a.length; i++) a[i] = 1 + 1e-12 * (i % 7) + a[i] * 1e-9;
        DenseTensor c = matmul(D, m, k, n, a, bv);
        DenseTensor f = matmul(DataType.FLOAT, m, k, n, a, bv);
        assertTrue(c.isWide());
        double floatGap = 0;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int kk = 0; kk < k; kk++) s += a[i * k + kk] * bv[kk * n + j];
                // the float64 kernel sums k in order, as this loop does: the same double
                assertEquals(s, c.getDouble(i, j), 0, "c[" + i + ", " + j + "]");
                floatGap = Math.max(floatGap, Math.abs(f.get(i, j) - s) / Math.max(1, Math.abs(s)));
            }
        }
        assertTrue(floatGap > 1e-9, "the float32 GEMM errs by " + floatGap + ", beyond double's tolerance");
    }

    @Test
    void sumsAndProductsOfNearOneTermsKeepDoublePrecision() {
        int n = 1000;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = 1 + 1e-12 * (i + 1);
        TensorView in = tv(b, D, null, iter(b, n));
        DenseTensor x = DenseTensor.ofDoubles(D, shape(n), v);
        double sum = 0;
        double prod = 1;
        for (double t : v) {
            sum += t;
            prod *= t;
        }
        DenseTensor s = OpKernels.compute(new FusionOp.Reduction(ReductionOpType.SUM, tv(b, D, null, red(b, n)), in,
                List.of(0)), List.of(x));
        DenseTensor p = OpKernels.compute(new FusionOp.Reduction(ReductionOpType.PROD, tv(b, D, null, red(b, n)), in,
                List.of(0)), List.of(x));
        assertEquals(sum, s.getDouble(), 0);
        assertEquals(prod, p.getDouble(), 0);
        assertTrue(Math.abs(prod - 1 - 1e-12 * n * (n + 1) / 2) < 1e-12, "the product keeps the 1e-12 terms");
        // pointwise: (x - 1) * 1e12 is 1, 2, 3, .. only in float64
        DenseTensor one = DenseTensor.ofDoubles(D, shape(n), new double[n]);
        one.fill(1);
        DenseTensor diff = OpKernels.compute(new FusionOp.Binary(BinaryOpType.SUB, tv(b, D, null, iter(b, n)), in,
                tv(b, D, null, iter(b, n))), List.of(x, one));
        for (int i = 0; i < n; i++) assertEquals(v[i] - 1, diff.getDouble(i), 0);
        assertTrue(diff.getDouble(n - 1) > 0 && diff.getDouble(n - 1) < 2e-9);
    }

    @Test
    void castsBetweenFloatAndDoubleRoundOnceAndWidenExactly() {
        TensorView d = tv(b, D, null, iter(b, 3));
        double[] v = {1 + 0x1p-30, Math.PI, -1e-300};
        DenseTensor x = DenseTensor.ofDoubles(D, shape(3), v);
        DenseTensor f = OpKernels.compute(new FusionOp.Unary(UnaryOpType.CAST, tv(b, DataType.FLOAT, null,
                iter(b, 3)), d), List.of(x));
        assertFalse(f.isWide());
        for (int i = 0; i < 3; i++) assertEquals((float) v[i], f.get(i));
        DenseTensor back = OpKernels.compute(new FusionOp.Unary(UnaryOpType.CAST, tv(b, D, null, iter(b, 3)),
                tv(b, DataType.FLOAT, null, iter(b, 3))), List.of(f));
        for (int i = 0; i < 3; i++) assertEquals((double) (float) v[i], back.getDouble(i), 0);
        // double -> bfloat16 directly: 1 + 2^-8 + 2^-30 is above the tie, so it rounds up, where rounding to
        // float first (to 1 + 2^-8, a tie) and then to bfloat16 would go to the even 1
        double aboveTie = 1 + 0x1p-8 + 0x1p-30;
        assertEquals(1 + 0x1p-7, Rounding.round(aboveTie, DataType.BFLOAT16));
        assertEquals(1f, Rounding.round((float) aboveTie, DataType.BFLOAT16));
    }

    /** int64 stays exact past 2^24 (held in int64 since issue 30, IntegerSemanticsTest; float32 held it to 2^24). */
    @Test
    void int64ValuesStayExactBeyondTwoToTheTwentyFour() {
        DataType i64 = DataType.INT64;
        long big = (1L << 40) + 1;
        DenseTensor x = DenseTensor.ofDoubles(i64, shape(2), big, (1L << 53) - 1);
        DenseTensor y = DenseTensor.ofDoubles(i64, shape(2), 1, -1);
        DenseTensor s = OpKernels.compute(new FusionOp.Binary(BinaryOpType.ADD, tv(b, i64, null, iter(b, 2)),
                tv(b, i64, null, iter(b, 2)), tv(b, i64, null, iter(b, 2))), List.of(x, y));
        assertEquals(big + 1, (long) s.getDouble(0));
        assertEquals((1L << 53) - 2, (long) s.getDouble(1));
        assertEquals(8, DenseTensor.hostBytes(i64));
        assertEquals(4, DenseTensor.hostBytes(DataType.HALF));
    }

    @Test
    void npyRoundTripsDoubleAndInt64BitForBit() {
        double[] v = {1 + 1e-12, Math.PI, -0.0, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, -1e-300};
        DenseTensor t = DenseTensor.ofDoubles(D, shape(v.length), v);
        byte[] file = NpyFiles.bytes(t);
        assertEquals(128 + 8 * v.length, file.length);
        double[] back = NpyReader.parse(file, D).toDoubleArray();
        for (int i = 0; i < v.length; i++) {
            assertEquals(Double.doubleToRawLongBits(v[i]), Double.doubleToRawLongBits(back[i]), "element " + i);
        }
        DenseTensor ints = DenseTensor.ofDoubles(DataType.INT64, shape(2, 1), (1L << 53) - 1, -(1L << 40) - 3);
        DenseTensor intsBack = NpyReader.parse(NpyFiles.bytes(ints), DataType.INT64);
        assertEquals((1L << 53) - 1, (long) intsBack.getDouble(0, 0));
        assertEquals(-(1L << 40) - 3, (long) intsBack.getDouble(1, 0));
        // a float file is not read as double
        byte[] floats = NpyFiles.bytes(DenseTensor.of(DataType.FLOAT, shape(1), 1f));
        assertEquals("descr <f4 is not <f8 (double)", assertThrowsMessage(() -> NpyReader.parse(floats, D)));
    }

    private static String assertThrowsMessage(Runnable r) {
        return org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }
}
