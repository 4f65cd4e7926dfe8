package org.hostir.studio.tests.exec.tensor;

import static org.hostir.studio.tests.exec.tensor.TensorFixtures.iter;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.red;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.shape;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.tv;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Float8;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.exec.tensor.Rounding;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.UnaryOpType;
import org.junit.jupiter.api.Test;

/** Unary ops, casts, min/prod and the new dtypes' storage on host tensors, against known values. */
class UnaryOpsTest {
    private final IrBuilder b = new IrBuilder();

    private DenseTensor unary(UnaryOpType op, DataType in, DataType out, float... values) {
        TensorView x = tv(b, in, null, iter(b, values.length));
        FusionOp.Unary u = new FusionOp.Unary(op, tv(b, out, null, iter(b, values.length)), x);
        return OpKernels.compute(u, List.of(DenseTensor.of(in, shape(values.length), values)));
    }

    private float[] apply(UnaryOpType op, float... values) {
        return unary(op, DataType.FLOAT, DataType.FLOAT, values).toArray();
    }

    @Test
    void unaryOpsMatchTheirDefinitionsAtKnownPoints() {
        assertArrayEquals(new float[] {-1.5f, 2f, -0f}, apply(UnaryOpType.NEG, 1.5f, -2f, 0f));
        assertArrayEquals(new float[] {1.5f, 2f}, apply(UnaryOpType.ABS, -1.5f, 2f));
        assertArrayEquals(new float[] {1f, (float) Math.E}, apply(UnaryOpType.EXP, 0f, 1f), 1e-6f);
        assertArrayEquals(new float[] {0f, 1f}, apply(UnaryOpType.LOG, 1f, (float) Math.E), 1e-6f);
        assertArrayEquals(new float[] {3f, 0.5f}, apply(UnaryOpType.SQRT, 9f, 0.25f));
        assertArrayEquals(new float[] {0.5f, 2f}, apply(UnaryOpType.RSQRT, 4f, 0.25f));
        assertArrayEquals(new float[] {0f, 0.7615942f}, apply(UnaryOpType.TANH, 0f, 1f), 1e-6f);
        assertArrayEquals(new float[] {0.5f, 0.7310586f}, apply(UnaryOpType.SIGMOID, 0f, 1f), 1e-6f);
        assertArrayEquals(new float[] {0f, 0f, 2f}, apply(UnaryOpType.RELU, -1f, 0f, 2f));
        // PyTorch's exact gelu: x * Phi(x); Phi(1) = 0.8413447, Phi(-1) = 0.1586553
        assertArrayEquals(new float[] {0f, 0.8413447f, -0.1586553f, 2.9959502f},
                apply(UnaryOpType.GELU, 0f, 1f, -1f, 3f), 1e-6f);
        assertArrayEquals(new float[] {0f, 0.7310586f, -0.2689414f}, apply(UnaryOpType.SILU, 0f, 1f, -1f), 1e-6f);
    }

    @Test
    void nanPropagatesThroughEveryOp() {
        for (UnaryOpType op : UnaryOpType.values()) {
            assertTrue(Float.isNaN(apply(op, Float.NaN)[0]), op + " keeps NaN");
        }
    }

    /** Property: for random inputs, every op's result in a narrow dtype is its float result rounded once. */
    @Test
    void narrowOutputsAreTheFloatResultRoundedOnce() {
        SplittableRandom random = new SplittableRandom(19);
        float[] x = new float[64];
        for (int i = 0; i < x.length; i++) x[i] = (float) random.nextDouble(0.05, 4);
        for (UnaryOpType op : UnaryOpType.values()) {
            if (op == UnaryOpType.CAST) continue;
            for (DataType t : List.of(DataType.BFLOAT16, DataType.HALF, DataType.DOUBLE)) {
                float[] in = new float[x.length];
                for (int i = 0; i < x.length; i++) in[i] = Rounding.round(x[i], t);
                float[] expected = apply(op, in);
                for (int i = 0; i < expected.length; i++) expected[i] = Rounding.round(expected[i], t);
                assertArrayEquals(expected, unary(op, t, t, in).toArray(), op + " in " + t.fileName());
            }
        }
    }

    @Test
    void castsConvertOnStore() {
        assertArrayEquals(new float[] {-1f, 1f, 0f, 2f},
                unary(UnaryOpType.CAST, DataType.FLOAT, DataType.INT32, -1.7f, 1.7f, -0.5f, 2.99f).toArray());
        assertArrayEquals(new float[] {1f, 0f, 1f},
                unary(UnaryOpType.CAST, DataType.FLOAT, DataType.BOOL, -0.5f, 0f, 3f).toArray());
        assertArrayEquals(new float[] {1f, 0f},
                unary(UnaryOpType.CAST, DataType.BOOL, DataType.FLOAT, 1f, 0f).toArray());
        // bfloat16 keeps 8 significant bits: 1 + 2^-9 rounds to 1
        assertArrayEquals(new float[] {1f, 1.0078125f},
                unary(UnaryOpType.CAST, DataType.FLOAT, DataType.BFLOAT16, 1f + 0x1p-9f, 1.0078125f).toArray());
        // e4m3fn: 0.3 -> 0.3125 (3 mantissa bits), 448 is the largest, beyond 464 is NaN
        float[] e4 = unary(UnaryOpType.CAST, DataType.FLOAT, DataType.FLOAT8_E4M3FN, 0.3f, 448f, 460f, 500f).toArray();
        assertEquals(0.3125f, e4[0]);
        assertEquals(448f, e4[1]);
        assertEquals(448f, e4[2]);
        assertTrue(Float.isNaN(e4[3]));
        // e5m2 overflows to infinity; its smallest subnormal is 2^-16
        float[] e5 = unary(UnaryOpType.CAST, DataType.FLOAT, DataType.FLOAT8_E5M2, 1e6f, 0x1p-16f, 0x1p-18f).toArray();
        assertEquals(Float.POSITIVE_INFINITY, e5[0]);
        assertEquals(0x1p-16f, e5[1]);
        assertEquals(0f, e5[2]);
    }

    /** Every byte of both fp8 formats decodes to a value that encodes back to the same byte (NaN aside). */
    @Test
    void fp8BytesRoundTrip() {
        for (DataType t : List.of(DataType.FLOAT8_E4M3FN, DataType.FLOAT8_E5M2)) {
            int values = 0;
            for (int bits = 0; bits < 256; bits++) {
                float v = Float8.decode((byte) bits, t);
                if (Float.isNaN(v)) continue;
                values++;
                assertEquals(v, Float8.round(v, t), t + " value " + v + " is representable");
                assertEquals((byte) bits, Float8.encode(v, t), t + " byte " + Integer.toHexString(bits));
            }
            // e4m3fn: 256 - 2 NaNs; e5m2: 256 - 6 NaNs (the infinities are values)
            assertEquals(t == DataType.FLOAT8_E4M3FN ? 254 : 250, values, t.fileName());
        }
        assertEquals(448f, Float8.decode((byte) 0x7e, DataType.FLOAT8_E4M3FN));
        assertEquals(57344f, Float8.decode((byte) 0x7b, DataType.FLOAT8_E5M2));
    }

    @Test
    void minAndProdReduceWithNvFusersInitialValues() {
        TensorView in = tv(b, iter(b, 2), iter(b, 3));
        DenseTensor x = DenseTensor.of(DataType.FLOAT, shape(2, 3), 1, -2, 3, 0.5f, 4, -1);
        TensorView out = tv(b, iter(b, 2), red(b, 3));
        DenseTensor min = OpKernels.compute(new FusionOp.Reduction(ReductionOpType.MIN, out, in, List.of(1)), List.of(x));
        assertArrayEquals(new float[] {-2, -1}, min.toArray());
        DenseTensor prod = OpKernels.compute(new FusionOp.Reduction(ReductionOpType.PROD, out, in, List.of(1)), List.of(x));
        assertArrayEquals(new float[] {-6, -2}, prod.toArray());
        // an empty reduction gives the initial value: +inf for min, 1 for prod
        TensorView empty = tv(b, iter(b, 2), iter(b, 0));
        TensorView emptyOut = tv(b, iter(b, 2), red(b, 0));
        DenseTensor none = DenseTensor.zeros(shape(2, 0), DataType.FLOAT);
        assertArrayEquals(new float[] {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY}, OpKernels.compute(
                new FusionOp.Reduction(ReductionOpType.MIN, emptyOut, empty, List.of(1)), List.of(none)).toArray());
        assertArrayEquals(new float[] {1, 1}, OpKernels.compute(
                new FusionOp.Reduction(ReductionOpType.PROD, emptyOut, empty, List.of(1)), List.of(none)).toArray());
    }

    @Test
    void whereSelectsSqueezeDropsAndExpandStretches() {
        TensorView c = tv(b, DataType.BOOL, null, iter(b, 3));
        TensorView x = tv(b, iter(b, 2), iter(b, 3));
        TensorView y = tv(b, iter(b, 1), iter(b, 3));
        TensorView out = tv(b, iter(b, 2), iter(b, 3));
        DenseTensor sel = OpKernels.compute(new FusionOp.Where(out, c, x, y), List.of(
                DenseTensor.of(DataType.BOOL, shape(3), 1, 0, 1),
                DenseTensor.of(DataType.FLOAT, shape(2, 3), 1, 2, 3, 4, 5, 6),
                DenseTensor.of(DataType.FLOAT, shape(1, 3), -1, Float.NaN, -3)));
        float[] v = sel.toArray();
        assertArrayEquals(new float[] {1, 3, 4, 6}, new float[] {v[0], v[2], v[3], v[5]});
        assertTrue(Float.isNaN(v[1]) && Float.isNaN(v[4]), "the unselected operand is not read: NaN where chosen");
        TensorView sq = tv(b, iter(b, 2), b.broadcast(), iter(b, 3));
        DenseTensor squeezed = OpKernels.compute(new FusionOp.Squeeze(tv(b, iter(b, 2), iter(b, 3)), sq,
                List.of(false, true, false)), List.of(DenseTensor.of(DataType.FLOAT, shape(2, 1, 3), 1, 2, 3, 4, 5, 6)));
        assertArrayEquals(shape(2, 3), squeezed.shape());
        TensorView ex = tv(b, b.broadcast(), iter(b, 3));
        DenseTensor expanded = OpKernels.compute(new FusionOp.Expand(tv(b, iter(b, 2), iter(b, 3)), ex),
                List.of(DenseTensor.of(DataType.FLOAT, shape(1, 3), 7, 8, 9)));
        assertArrayEquals(new float[] {7, 8, 9, 7, 8, 9}, expanded.toArray());
    }
}
