package org.hostir.studio.tests.exec.tensor;

import static org.hostir.studio.tests.exec.tensor.TensorFixtures.F;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.assertValues;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.bcast;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.did;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.iota;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.iter;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.red;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.shape;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.tv;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.junit.jupiter.api.Test;

class OpKernelsTest {
    private final IrBuilder b = new IrBuilder();

    private static final float[] A23 = {1, 2, 3, 4, 5, 6};

    @Test
    void setCopiesWithoutAliasing() {
        TensorView in = tv(b, iter(b, 2), iter(b, 3));
        FusionOp.Set set = new FusionOp.Set(tv(b, iter(b, 2), iter(b, 3)), in);
        DenseTensor x = DenseTensor.of(F, shape(2, 3), A23);
        DenseTensor y = OpKernels.compute(set, List.of(x));
        assertValues(y, shape(2, 3), A23);
        y.set(0f, 0, 0);
        assertEquals(1f, x.get(0, 0));
    }

    @Test
    void setWithPermutationTransposes() {
        TensorView in = tv(b, iter(b, 2), iter(b, 3));
        FusionOp.Set set = new FusionOp.Set(tv(b, iter(b, 3), iter(b, 2)), in, List.of(1, 0));
        DenseTensor y = OpKernels.compute(set, List.of(DenseTensor.of(F, shape(2, 3), A23)));
        assertValues(y, shape(3, 2), 1, 4, 2, 5, 3, 6);
        // a 3-D permutation: output axis i is input axis perm[i]
        TensorView in3 = tv(b, iter(b, 2), iter(b, 3), iter(b, 4));
        FusionOp.Set p3 = new FusionOp.Set(tv(b, iter(b, 4), iter(b, 2), iter(b, 3)), in3, List.of(2, 0, 1));
        DenseTensor x3 = iota(2, 3, 4);
        DenseTensor y3 = OpKernels.compute(p3, List.of(x3));
        assertArrayEquals(shape(4, 2, 3), y3.shape());
        assertEquals(x3.get(1, 2, 3), y3.get(3, 1, 2));
    }

    @Test
    void binaryOpsBroadcastSizeOneAxes() {
        TensorView l = tv(b, iter(b, 2), iter(b, 3));
        TensorView r = tv(b, bcast(b), iter(b, 3));
        DenseTensor x = DenseTensor.of(F, shape(2, 3), A23);
        DenseTensor row = DenseTensor.of(F, shape(1, 3), 10, 20, 30);
        assertValues(OpKernels.compute(binary(BinaryOpType.ADD, l, r), List.of(x, row)), shape(2, 3),
                11, 22, 33, 14, 25, 36);
        assertValues(OpKernels.compute(binary(BinaryOpType.SUB, l, r), List.of(x, row)), shape(2, 3),
                -9, -18, -27, -6, -15, -24);
        assertValues(OpKernels.compute(binary(BinaryOpType.MUL, l, r), List.of(x, row)), shape(2, 3),
                10, 40, 90, 40, 100, 180);
        assertValues(OpKernels.compute(binary(BinaryOpType.DIV, r, l), List.of(row, x)), shape(2, 3),
                10, 10, 10, 2.5f, 4, 5);
        // a column against a row: both stretch
        TensorView col = tv(b, iter(b, 2), bcast(b));
        DenseTensor c = DenseTensor.of(F, shape(2, 1), 1, 2);
        assertValues(OpKernels.compute(binary(BinaryOpType.MUL, col, r), List.of(c, row)), shape(2, 3),
                10, 20, 30, 20, 40, 60);
        assertThrows(IllegalArgumentException.class,
                () -> OpKernels.compute(binary(BinaryOpType.ADD, l, l), List.of(x, iota(2, 2))));
    }

    private FusionOp.Binary binary(BinaryOpType op, TensorView l, TensorView r) {
        return new FusionOp.Binary(op, tv(b, iter(b, 2), iter(b, 3)), l, r);
    }

    @Test
    void sumOverAMiddleAxisDropsItFromTheRuntimeOutput() {
        TensorView in = tv(b, iter(b, 2), iter(b, 3), iter(b, 2));
        TensorView out = tv(b, iter(b, 2), red(b, 3), iter(b, 2));
        FusionOp.Reduction sum = new FusionOp.Reduction(ReductionOpType.SUM, out, in, List.of(1));
        assertValues(OpKernels.compute(sum, List.of(iota(2, 3, 2))), shape(2, 2), 6, 9, 24, 27);
        assertEquals(12, OpKernels.flops(sum, List.of(iota(2, 3, 2))));
    }

    @Test
    void reductionAxesArePositionsAmongTheTensorViewsAxes() {
        // the input already has a reduction axis (it does not exist at run time): axis 2 is runtime axis 1
        TensorView in = tv(b, red(b, 5), iter(b, 3), iter(b, 4));
        TensorView out = tv(b, iter(b, 3), red(b, 4));
        FusionOp.Reduction sum = new FusionOp.Reduction(ReductionOpType.SUM, out, in, List.of(2));
        assertValues(OpKernels.compute(sum, List.of(iota(3, 4))), shape(3), 6, 22, 38);
        // sum of everything, and the output's reduction axis listed first (as nvFuser's dumps move it)
        TensorView all = tv(b, iter(b, 2), iter(b, 3));
        FusionOp.Reduction total = new FusionOp.Reduction(ReductionOpType.SUM, tv(b, red(b, 2), red(b, 3)), all,
                List.of(0, 1));
        assertValues(OpKernels.compute(total, List.of(iota(2, 3))), shape(), 15);
    }

    @Test
    void maxReducesWithNegativeInfinityAsStart() {
        TensorView in = tv(b, iter(b, 2), iter(b, 3));
        FusionOp.Reduction max = new FusionOp.Reduction(ReductionOpType.MAX, tv(b, red(b, 2), iter(b, 3)), in,
                List.of(0));
        DenseTensor x = DenseTensor.of(F, shape(2, 3), 1, 5, -2, 3, -1, 4);
        assertValues(OpKernels.compute(max, List.of(x)), shape(3), 3, 5, 4);
        FusionOp.Reduction rows = new FusionOp.Reduction(ReductionOpType.MAX, tv(b, iter(b, 2), red(b, 3)), in,
                List.of(1));
        DenseTensor neg = DenseTensor.of(F, shape(2, 3), -5, -3, -4, -9, -8, -7);
        assertValues(OpKernels.compute(rows, List.of(neg)), shape(2), -3, -7);
    }

    @Test
    void broadcastInsertsSizeOneAxes() {
        TensorView in = tv(b, iter(b, 3));
        TensorView out = tv(b, bcast(b), iter(b, 3), bcast(b));
        FusionOp.Broadcast op = new FusionOp.Broadcast(out, in, List.of(true, false, true));
        assertValues(OpKernels.compute(op, List.of(DenseTensor.of(F, shape(3), 7, 8, 9))), shape(1, 3, 1), 7, 8, 9);
        // seed 001's matmul_RS_through_bcast: [DIDx D, K, N] -> [DIDx D, b1, b1, K, N]
        TensorView w = tv(b, iter(b, 2), iter(b, 2), iter(b, 3));
        TensorView wb = tv(b, iter(b, 2), bcast(b), bcast(b), iter(b, 2), iter(b, 3));
        FusionOp.Broadcast mid = new FusionOp.Broadcast(wb, w, List.of(false, true, true, false, false));
        DenseTensor y = OpKernels.compute(mid, List.of(iota(2, 2, 3)));
        assertArrayEquals(shape(2, 1, 1, 2, 3), y.shape());
        assertEquals(11f, y.get(1, 0, 0, 1, 2));
        // an op built without flags: the AxisMap says which output axes the input feeds
        FusionOp.Broadcast noFlags = new FusionOp.Broadcast(tv(b, bcast(b), iter(b, 3)), tv(b, iter(b, 3)), List.of());
        assertArrayEquals(shape(1, 3), OpKernels.compute(noFlags, List.of(iota(3))).shape());
    }

    @Test
    void matmulTwoByThreeTimesThreeByTwo() {
        TensorView a = tv(b, iter(b, 2), iter(b, 3));
        TensorView bb = tv(b, iter(b, 3), iter(b, 2));
        FusionOp.Matmul mm = new FusionOp.Matmul(tv(b, iter(b, 2), iter(b, 2), red(b, 3)), a, bb);
        List<DenseTensor> args = List.of(DenseTensor.of(F, shape(2, 3), A23),
                DenseTensor.of(F, shape(3, 2), 7, 8, 9, 10, 11, 12));
        assertValues(OpKernels.compute(mm, args), shape(2, 2), 58, 64, 139, 154);
        assertEquals(2 * 2 * 2 * 3, OpKernels.flops(mm, args));
        assertArrayEquals(shape(2, 2), OpKernels.outputShape(mm, args));
    }

    @Test
    void matmulWithVectorOperands() {
        TensorView a = tv(b, iter(b, 2), iter(b, 3));
        TensorView v = tv(b, iter(b, 3));
        FusionOp.Matmul mv = new FusionOp.Matmul(tv(b, iter(b, 2), red(b, 3)), a, v);
        DenseTensor x = DenseTensor.of(F, shape(2, 3), A23);
        DenseTensor ones = DenseTensor.of(F, shape(3), 1, 1, 1);
        assertValues(OpKernels.compute(mv, List.of(x, ones)), shape(2), 6, 15);
        TensorView at = tv(b, iter(b, 3), iter(b, 2));
        FusionOp.Matmul vm = new FusionOp.Matmul(tv(b, iter(b, 2), red(b, 3)), v, at);
        assertValues(OpKernels.compute(vm, List.of(ones, DenseTensor.of(F, shape(3, 2), A23))), shape(2), 9, 12);
    }

    /**
     * Seed 001's matmul_AR: {@code a [DIDx D, S, M, K] x b [DIDx D, K, N]} pairs b's D with a's D (AxisMap), and
     * b is broadcast along S. With S and D of the same size, right alignment would pair b's D with S instead and
     * give other numbers, so this checks the pairing, not just the shape.
     */
    @Test
    void batchedMatmulPairsBatchAxesByTheAxisMap() {
        int d = 2, s = 2, m = 3, k = 4, n = 5;
        DeviceMesh mesh = DeviceMesh.forNumDevices(d);
        TensorView a = tv(b, F, mesh, did(b, "D"), iter(b, "S"), iter(b, "M"), iter(b, "K"));
        TensorView bb = tv(b, F, mesh, did(b, "D"), iter(b, "K"), iter(b, "N"));
        TensorView out = tv(b, F, mesh, did(b, "D"), iter(b, "S"), iter(b, "M"), iter(b, "N"), red(b, "K"));
        FusionOp.Matmul mm = new FusionOp.Matmul(out, a, bb);
        DenseTensor x = Inputs.uniform(shape(d, s, m, k), F, 1);
        DenseTensor y = Inputs.uniform(shape(d, k, n), F, 2);
        DenseTensor z = OpKernels.compute(mm, List.of(x, y));
        assertArrayEquals(shape(d, s, m, n), z.shape());
        for (int i = 0; i < d; i++) for (int j = 0; j < s; j++) for (int r = 0; r < m; r++) for (int c = 0; c < n; c++) {
            double acc = 0;
            for (int q = 0; q < k; q++) acc += x.get(i, j, r, q) * y.get(i, q, c);
            assertEquals(acc, z.get(i, j, r, c), 1e-5, "at " + i + "," + j + "," + r + "," + c);
        }
        assertEquals(2L * d * s * m * n * k, OpKernels.flops(mm, List.of(x, y)));
        // in a rank's local world the DID axis has size 1 and the same op still runs
        DenseTensor local = OpKernels.compute(mm, List.of(x.narrow(0, 1, 1), y.narrow(0, 1, 1)));
        assertArrayEquals(shape(1, s, m, n), local.shape());
        assertEquals(z.get(1, 1, 2, 4), local.get(0, 1, 2, 4));
    }

    @Test
    void batchedMatmulBroadcastsSizeOneBatchAxes() {
        // [2, 2, 3] x [1, 3, 2]: the second operand's batch axis of size 1 is repeated
        TensorView a = tv(b, iter(b, 2), iter(b, 2), iter(b, 3));
        TensorView bb = tv(b, bcast(b), iter(b, 3), iter(b, 2));
        FusionOp.Matmul mm = new FusionOp.Matmul(tv(b, iter(b, 2), iter(b, 2), iter(b, 2), red(b, 3)), a, bb);
        DenseTensor x = iota(2, 2, 3);
        DenseTensor w = DenseTensor.of(F, shape(1, 3, 2), 1, 0, 0, 1, 0, 0);
        assertValues(OpKernels.compute(mm, List.of(x, w)), shape(2, 2, 2), 0, 1, 3, 4, 6, 7, 9, 10);
    }

    @Test
    void linearWithAndWithoutBias() {
        TensorView in = tv(b, iter(b, 2), iter(b, 3));
        TensorView w = tv(b, iter(b, 2), iter(b, 3));
        TensorView bias = tv(b, iter(b, 2));
        DenseTensor x = DenseTensor.of(F, shape(2, 3), A23);
        DenseTensor weight = DenseTensor.of(F, shape(2, 3), 1, 0, 1, 0, 1, 0);
        DenseTensor bv = DenseTensor.of(F, shape(2), 10, 20);
        FusionOp.Linear withBias = new FusionOp.Linear(tv(b, iter(b, 2), iter(b, 2), red(b, 3)), in, w, bias);
        assertValues(OpKernels.compute(withBias, List.of(x, weight, bv)), shape(2, 2), 14, 22, 20, 25);
        FusionOp.Linear noBias = new FusionOp.Linear(tv(b, iter(b, 2), iter(b, 2), red(b, 3)), in, w, null);
        assertValues(OpKernels.compute(noBias, List.of(x, weight)), shape(2, 2), 4, 2, 10, 5);
        assertEquals(2 * 2 * 2 * 3, OpKernels.flops(noBias, List.of(x, weight)));
        // leading axes of the input are kept: [S, D, M, K] -> [S, D, M, N] as in ag_linear
        TensorView in4 = tv(b, iter(b, 2), iter(b, 2), iter(b, 2), iter(b, 3));
        FusionOp.Linear l4 = new FusionOp.Linear(tv(b, iter(b, 2), iter(b, 2), iter(b, 2), iter(b, 2), red(b, 3)),
                in4, w, bias);
        DenseTensor x4 = iota(2, 2, 2, 3);
        DenseTensor y4 = OpKernels.compute(l4, List.of(x4, weight, bv));
        assertArrayEquals(shape(2, 2, 2, 2), y4.shape());
        assertEquals(x4.get(1, 0, 1, 1) + 20, y4.get(1, 0, 1, 1), 1e-5);
        assertEquals(2L * 8 * 2 * 3, OpKernels.flops(l4, List.of(x4, weight, bv)));
    }

    @Test
    void preAllocatedOutputsAreWrittenThroughViews() {
        TensorView a = tv(b, iter(b, 2), iter(b, 3));
        TensorView bb = tv(b, iter(b, 3), iter(b, 2));
        FusionOp.Matmul mm = new FusionOp.Matmul(tv(b, iter(b, 2), iter(b, 2), red(b, 3)), a, bb);
        DenseTensor whole = DenseTensor.zeros(F, 3, 2, 2);
        DenseTensor slot = whole.select(0, 1);
        DenseTensor r = OpKernels.compute(mm, List.of(DenseTensor.of(F, shape(2, 3), A23),
                DenseTensor.of(F, shape(3, 2), 7, 8, 9, 10, 11, 12)), slot);
        assertSame(slot, r);
        assertValues(whole.select(0, 1), shape(2, 2), 58, 64, 139, 154);
        assertEquals(0f, whole.get(0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> OpKernels.compute(mm,
                List.of(DenseTensor.of(F, shape(2, 3), A23), iota(3, 2)), DenseTensor.zeros(F, 2, 3)));
        // an in-place set through a permuted output view
        TensorView sq = tv(b, iter(b, 2), iter(b, 2));
        FusionOp.Set copy = new FusionOp.Set(tv(b, iter(b, 2), iter(b, 2)), sq);
        DenseTensor x = iota(2, 2);
        OpKernels.compute(copy, List.of(x), x.permute(1, 0));
        assertValues(x, shape(2, 2), 0, 2, 1, 3);
    }

    @Test
    void outputsAreRoundedToTheirDtype() {
        IrBuilder ib = new IrBuilder();
        TensorView l = tv(ib, DataType.BFLOAT16, null, iter(ib, 1));
        FusionOp.Binary add = new FusionOp.Binary(BinaryOpType.ADD, tv(ib, DataType.BFLOAT16, null, iter(ib, 1)), l, l);
        DenseTensor one = DenseTensor.of(DataType.BFLOAT16, shape(1), 1f);
        DenseTensor tiny = DenseTensor.of(DataType.BFLOAT16, shape(1), 0x1p-8f);
        // 1 + 2^-8 is computed in float, then stored as bf16: a tie, which rounds to the even 1
        assertValues(OpKernels.compute(add, List.of(one, tiny)), shape(1), 1f);
        DenseTensor into = DenseTensor.zeros(DataType.BFLOAT16, 1);
        OpKernels.compute(add, List.of(one, tiny), into);
        assertEquals(1f, into.get(0));
    }

    @Test
    void tensorsMustHaveTheTensorViewsRuntimeRank() {
        TensorView a = tv(b, iter(b, 2), iter(b, 3));
        FusionOp.Set set = new FusionOp.Set(tv(b, iter(b, 2), iter(b, 3)), a);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OpKernels.compute(set, List.of(iota(6))));
        assertTrue(e.getMessage().contains(a.name()), e.getMessage());
    }

    @Test
    void matmulOf256CubedTakesWellUnderASecond() {
        int size = 256;
        TensorView a = tv(b, iter(b, size), iter(b, size));
        TensorView bb = tv(b, iter(b, size), iter(b, size));
        FusionOp.Matmul mm = new FusionOp.Matmul(tv(b, iter(b, size), iter(b, size), red(b, size)), a, bb);
        List<DenseTensor> args = List.of(Inputs.uniform(shape(size, size), F, 3), Inputs.uniform(shape(size, size), F, 4));
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            OpKernels.compute(mm, args);
            best = Math.min(best, System.nanoTime() - t0);
        }
        assertTrue(best < 500_000_000L, "256^3 matmul took " + best / 1e6 + " ms");
    }
}
