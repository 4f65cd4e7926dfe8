package org.hostir.studio.tests.exec.tensor;

import static org.hostir.studio.tests.exec.tensor.TensorFixtures.iter;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.red;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.shape;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.tv;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.tensor.Comparison;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.NpyFiles;
import org.hostir.studio.exec.tensor.NpyReader;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.exec.tensor.Tolerance;
import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.UnaryOpType;
import org.junit.jupiter.api.Test;

/**
 * Issue 30 item 8: integer tensors have PyTorch's (and C++'s) integer meaning. int32 and int64 are held exactly
 * and computed in 64-bit integers, an int32 result wrapping to 32 bits as two's complement
 * ({@code torch.tensor([65536], dtype=torch.int32) * 65536} is 0, and {@code torch.prod} of int32 wraps); the
 * integer {@code div} is nvFuser's, C++'s truncating division (csrc/ops/arith.cpp:954 keeps the dtype,
 * csrc/ir/internal_nodes.cpp:788-791 computes {@code lhs / rhs} and refuses a zero divisor), which is
 * {@code torch.div(a, b, rounding_mode="trunc")}, and PyTorch raises "ZeroDivisionError" for a zero divisor
 * (aten/src/ATen/native/cpu/BinaryOpsKernel.cpp, div_trunc_kernel). Before, int32 was held in float32 and each
 * of these came out wrong.
 */
class IntegerSemanticsTest {
    private static final DataType I32 = DataType.INT32;
    private static final DataType I64 = DataType.INT64;
    private final IrBuilder b = new IrBuilder();

    private DenseTensor binary(BinaryOpType op, DataType dtype, long[] x, long[] y) {
        int n = x.length;
        FusionOp.Binary bin = new FusionOp.Binary(op, tv(b, dtype, null, iter(b, n)), tv(b, dtype, null, iter(b, n)),
                tv(b, dtype, null, iter(b, n)));
        return OpKernels.compute(bin, List.of(DenseTensor.ofLongs(dtype, shape(n), x),
                DenseTensor.ofLongs(dtype, shape(n), y)));
    }

    private DenseTensor reduce(ReductionOpType op, DataType dtype, long... x) {
        FusionOp.Reduction r = new FusionOp.Reduction(op, tv(b, dtype, null, red(b, x.length)),
                tv(b, dtype, null, iter(b, x.length)), List.of(0));
        return OpKernels.compute(r, List.of(DenseTensor.ofLongs(dtype, shape(x.length), x)));
    }

    /** The product: float32 storage made it -1080450048. */
    @Test
    void anInRangeInt32ProductIsExact() {
        DenseTensor p = binary(BinaryOpType.MUL, I32, new long[] {-36015, 46341}, new long[] {30000, 46340});
        assertArrayEquals(new long[] {-1080450000L, 2147441940L}, p.toLongArray());
        assertTrue(p.isIntegral());
    }

    @Test
    void int32ArithmeticWrapsAsTwosComplement() {
        DenseTensor p = binary(BinaryOpType.MUL, I32, new long[] {65536, 100000}, new long[] {65536, 100000});
        // 2^32 wraps to 0; 10^10 mod 2^32 = 1410065408
        assertArrayEquals(new long[] {0, 1410065408}, p.toLongArray());
        DenseTensor s = binary(BinaryOpType.ADD, I32, new long[] {Integer.MAX_VALUE}, new long[] {1});
        assertEquals(Integer.MIN_VALUE, s.getLong(0));
        DenseTensor n = OpKernels.compute(new FusionOp.Unary(UnaryOpType.NEG, tv(b, I32, null, iter(b, 1)),
                tv(b, I32, null, iter(b, 1))), List.of(DenseTensor.ofLongs(I32, shape(1), Integer.MIN_VALUE)));
        assertEquals(Integer.MIN_VALUE, n.getLong(0), "-(-2^31) wraps to -2^31 in int32");
    }

    /** It saturated at 2147483647. */
    @Test
    void int32ProdWrapsInsteadOfSaturating() {
        assertEquals(1410065408, reduce(ReductionOpType.PROD, I32, 100000, 100000).getLong());
        assertEquals(-2147483648L, reduce(ReductionOpType.SUM, I32, Integer.MAX_VALUE, 1).getLong());
        assertEquals(5, reduce(ReductionOpType.MAX, I32, -3, 5, 2).getLong());
    }

    @Test
    void int64StaysExactPastTwoToTheFiftyThree() {
        long big = (1L << 62) + 1;
        DenseTensor s = binary(BinaryOpType.ADD, I64, new long[] {big, Long.MAX_VALUE}, new long[] {2, 1});
        assertArrayEquals(new long[] {big + 2, Long.MIN_VALUE}, s.toLongArray());
        assertEquals((1L << 54) + 1, reduce(ReductionOpType.SUM, I64, 1L << 54, 1).getLong());
        DenseTensor back = NpyReader.parse(NpyFiles.bytes(s), I64);
        assertArrayEquals(s.toLongArray(), back.toLongArray(), "npy files carry int64 bit for bit");
    }

    @Test
    void integerDivTruncatesTowardZero() {
        DenseTensor q = binary(BinaryOpType.DIV, I32, new long[] {-7, 7, -8, 1}, new long[] {2, -2, 3, 4});
        assertArrayEquals(new long[] {-3, -3, -2, 0}, q.toLongArray());
    }

    @Test
    void integerDivisionByZeroFailsNamingTheOp() {
        for (DataType dtype : List.of(I32, I64)) {
            RunFailure e = assertThrows(RunFailure.class,
                    () -> binary(BinaryOpType.DIV, dtype, new long[] {3, 1}, new long[] {1, 0}));
            // typed: about the op's output and its two inputs, the order its message names them in
            assertEquals(3, e.tensors().size(), e.tensors().toString());
            assertEquals(RunFailure.RULE, e.rule());
            assertTrue(e.getMessage().contains("= div(") && e.getMessage().contains("integer division by zero"),
                    e.getMessage());
            assertFalse(e.toString().contains("Exception"), "the user sees no Java class name: " + e);
        }
    }

    /** A cast from float truncates toward zero; int64 into int32 keeps the low 32 bits (tensor.to(torch.int32)). */
    @Test
    void castsTruncateAndWrap() {
        FusionOp.Unary toInt = new FusionOp.Unary(UnaryOpType.CAST, tv(b, I32, null, iter(b, 3)),
                tv(b, DataType.FLOAT, null, iter(b, 3)));
        DenseTensor f = DenseTensor.of(DataType.FLOAT, shape(3), -2.7f, 2.7f, 123456.5f);
        assertArrayEquals(new long[] {-2, 2, 123456}, OpKernels.compute(toInt, List.of(f)).toLongArray());
        FusionOp.Unary narrow = new FusionOp.Unary(UnaryOpType.CAST, tv(b, I32, null, iter(b, 1)),
                tv(b, I64, null, iter(b, 1)));
        DenseTensor wide = DenseTensor.ofLongs(I64, shape(1), (1L << 32) + 5);
        assertEquals(5, OpKernels.compute(narrow, List.of(wide)).getLong(0));
        FusionOp.Unary toFloat = new FusionOp.Unary(UnaryOpType.CAST, tv(b, DataType.DOUBLE, null, iter(b, 1)),
                tv(b, I64, null, iter(b, 1)));
        assertEquals(0x1p62, OpKernels.compute(toFloat, List.of(DenseTensor.ofLongs(I64, shape(1), 1L << 62)))
                .getDouble(0));
    }

    /** docs/validation.md: integers allow no error, whatever the allowance a float tensor would get. */
    @Test
    void integerOutputsAreValidatedExactly() {
        DenseTensor expected = DenseTensor.ofLongs(I32, shape(2), -1080450000, 7);
        DenseTensor off = DenseTensor.ofLongs(I32, shape(2), -1080450048, 7);
        Comparison.Result r = Comparison.compare(expected, off, new Tolerance(100, 0.1));
        assertFalse(r.passed(), r.summary());
        assertEquals(List.of(0L), r.worstIndex());
        assertTrue(Comparison.compare(expected, expected.copy(), new Tolerance(100, 0.1)).passed());
        DenseTensor mask = DenseTensor.of(DataType.BOOL, shape(2), 1, 0);
        assertFalse(Comparison.compare(mask, DenseTensor.of(DataType.BOOL, shape(2), 1, 1), new Tolerance(100, 1))
                .passed(), "a bool is exact too");
        DenseTensor big = DenseTensor.ofLongs(I64, shape(1), (1L << 60) + 1);
        assertFalse(Comparison.compare(big, DenseTensor.ofLongs(I64, shape(1), 1L << 60)).passed(),
                "two int64s one apart past 2^53 differ");
    }
}
