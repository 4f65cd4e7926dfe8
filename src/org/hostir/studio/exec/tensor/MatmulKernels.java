package org.hostir.studio.exec.tensor;

import java.util.Arrays;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * Matmul ({@code at::matmul}: 1-D, 2-D, batched) and linear ({@code at::linear}). Operands are copied to
 * contiguous row-major form, a as [.., M, K] and b (or linear's transposed weight) as [.., K, N], and each
 * batch is one {@link Gemm#standard()} call (OpenBLAS where the machine has it): float32 products and sums, as
 * the GPU's GEMMs accumulate (the Java fallback sums in double, which errs less), so the reference and the CPU backend round as a backend does (docs/validation.md
 * counts the reference's rounding as well as the backend's).
 * A double output is computed by {@link DoubleGemm} in float64 instead, as PyTorch's float64 matmul.
 */
final class MatmulKernels {
    private MatmulKernels() {}

    /**
     * How one matmul runs: {@code outBatch} sizes, and per output batch axis the element stride to step in the
     * contiguous a and b (0 where the operand is broadcast along it); {@code mapA}/{@code mapB}: the output batch
     * axis of each operand batch axis ({@link AxisMap#NONE} for none).
     */
    record Plan(long[] outBatch, int[] aStride, int[] bStride, int m, int n, int k, boolean aVector,
                boolean bVector, int[] mapA, int[] mapB) {
        long[] outShape() {
            long[] s = Arrays.copyOf(outBatch, outBatch.length + (aVector ? 0 : 1) + (bVector ? 0 : 1));
            int i = outBatch.length;
            if (!aVector) s[i++] = m;
            if (!bVector) s[i] = n;
            return s;
        }

        long flops() { return 2L * OpKernels.numel(outBatch) * m * n * k; }
    }

    /**
     * Batch axes pair as the op's {@link AxisMap} says, not by plain right alignment: in
     * {@code [DIDx D, S, M, K] x [DIDx D, K, N]} b's D goes with a's D, and b is broadcast along S. With a 1-D
     * operand there is only one set of batch axes, which maps one to one.
     */
    static Plan matmulPlan(FusionOp.Matmul op, DenseTensor a, DenseTensor b) {
        int ra = a.rank();
        int rb = b.rank();
        if (ra == 0 || rb == 0) throw new IllegalArgumentException(OpKernels.describe(op) + ": 0-D operand");
        int k = a.shape[ra - 1];
        int kb = rb == 1 ? b.shape[0] : b.shape[rb - 2];
        if (k != kb) {
            throw new IllegalArgumentException(OpKernels.describe(op) + ": contracted sizes differ, "
                    + Arrays.toString(a.shape) + " x " + Arrays.toString(b.shape));
        }
        int batchA = Math.max(ra - 2, 0);
        int batchB = Math.max(rb - 2, 0);
        int[] mapA = new int[batchA];
        int[] mapB = new int[batchB];
        int outBatchCount;
        if (batchA > 0 && batchB > 0) {
            // AxisMap reads the TensorViews' axes; give it the runtime ones so positions match the tensors
            TensorView ta = op.a().withAxes(op.a().allocationAxes());
            TensorView tb = op.b().withAxes(op.b().allocationAxes());
            FusionOp.Matmul runtime = new FusionOp.Matmul(op.output(), ta, tb);
            System.arraycopy(AxisMap.of(runtime, 0), 0, mapA, 0, batchA);
            System.arraycopy(AxisMap.of(runtime, 1), 0, mapB, 0, batchB);
            outBatchCount = Math.max(op.output().allocationAxes().size() - 2, 0);
        } else {
            outBatchCount = Math.max(batchA, batchB);
            for (int i = 0; i < batchA; i++) mapA[i] = outBatchCount - batchA + i;
            for (int i = 0; i < batchB; i++) mapB[i] = outBatchCount - batchB + i;
        }
        long[] outBatch = new long[outBatchCount];
        Arrays.fill(outBatch, 1);
        int[] aStride = new int[outBatchCount];
        int[] bStride = new int[outBatchCount];
        align(op, a, mapA, DenseTensor.contiguousStrides(a.shape), outBatch, aStride);
        align(op, b, mapB, DenseTensor.contiguousStrides(b.shape), outBatch, bStride);
        int m = ra >= 2 ? a.shape[ra - 2] : 1;
        int n = rb >= 2 ? b.shape[rb - 1] : 1;
        return new Plan(outBatch, aStride, bStride, m, n, k, ra == 1, rb == 1, mapA, mapB);
    }

    private static void align(FusionOp.Matmul op, DenseTensor t, int[] map, int[] strides, long[] outBatch,
                              int[] step) {
        for (int i = 0; i < map.length; i++) {
            int o = map[i];
            int size = t.shape[i];
            if (o == AxisMap.NONE || o < 0 || o >= outBatch.length) {
                if (size == 1) continue;
                throw new IllegalArgumentException(OpKernels.describe(op) + ": batch axis " + i + " of shape "
                        + Arrays.toString(t.shape) + " maps to no output batch axis");
            }
            if (size == 1) continue;
            if (outBatch[o] != 1 && outBatch[o] != size) {
                throw new IllegalArgumentException(OpKernels.describe(op) + ": batch axis " + o + " has size "
                        + outBatch[o] + " in one operand and " + size + " in the other");
            }
            outBatch[o] = size;
            step[o] = strides[i];
        }
    }

    static DenseTensor matmul(FusionOp.Matmul op, DenseTensor a, DenseTensor b) {
        Plan p = matmulPlan(op, a, b);
        // a 1-D a is one row [1, K] and a 1-D b one column [K, 1]: the same contiguous layouts
        DenseTensor out = DenseTensor.zeros(p.outShape(), op.output().dtype());
        DenseTensor ac = a.contiguous().storedLike(out);
        DenseTensor bc = b.contiguous().storedLike(out);
        int batches = (int) OpKernels.numel(p.outBatch());
        int nb = p.outBatch().length;
        int[] idx = new int[nb];
        int aOff = ac.offset;
        int bOff = bc.offset;
        for (int batch = 0; batch < batches; batch++) {
            gemm(p.m(), p.n(), p.k(), ac, aOff, bc, bOff, out, batch * p.m() * p.n());
            for (int ax = nb - 1; ax >= 0; ax--) {
                aOff += p.aStride()[ax];
                bOff += p.bStride()[ax];
                if (++idx[ax] < p.outBatch()[ax]) break;
                aOff -= p.aStride()[ax] * idx[ax];
                bOff -= p.bStride()[ax] * idx[ax];
                idx[ax] = 0;
            }
        }
        return out;
    }

    /** in [.., K], weight [N, K] (or [K]), bias [N] (or a scalar) -> [.., N] (or [..]). */
    static long[] linearShape(FusionOp.Linear op, DenseTensor in, DenseTensor weight) {
        if (in.rank() == 0 || weight.rank() == 0 || weight.rank() > 2) {
            throw new IllegalArgumentException(OpKernels.describe(op) + ": shapes " + Arrays.toString(in.shape)
                    + " and weight " + Arrays.toString(weight.shape));
        }
        if (in.shape[in.rank() - 1] != weight.shape[weight.rank() - 1]) {
            throw new IllegalArgumentException(OpKernels.describe(op) + ": contracted sizes differ, "
                    + Arrays.toString(in.shape) + " and weight " + Arrays.toString(weight.shape));
        }
        long[] out = Arrays.copyOf(in.shape(), in.rank() - 1 + (weight.rank() == 2 ? 1 : 0));
        if (weight.rank() == 2) out[out.length - 1] = weight.shape[0];
        return out;
    }

    static long linearFlops(FusionOp.Linear op, DenseTensor in, DenseTensor weight) {
        linearShape(op, in, weight);
        long n = weight.rank() == 2 ? weight.shape[0] : 1;
        return 2 * rows(in) * n * in.shape[in.rank() - 1];
    }

    static DenseTensor linear(FusionOp.Linear op, DenseTensor in, DenseTensor weight, DenseTensor bias) {
        long[] shape = linearShape(op, in, weight);
        int k = in.shape[in.rank() - 1];
        int n = weight.rank() == 2 ? weight.shape[0] : 1;
        DenseTensor out = DenseTensor.zeros(shape, op.output().dtype());
        DenseTensor x = in.contiguous().storedLike(out);
        // the weight [N, K] transposed to [K, N]; a 1-D weight [K] already is [K, 1]
        DenseTensor wt = (weight.rank() == 2 ? weight.permute(1, 0).contiguous() : weight.contiguous())
                .storedLike(out);
        DenseTensor bc = bias == null ? null : bias.contiguous();
        if (bc != null && bc.numel() != n && bc.numel() != 1) {
            throw new IllegalArgumentException(OpKernels.describe(op) + ": bias " + Arrays.toString(bias.shape)
                    + " for N = " + n);
        }
        int rows = (int) rows(in);
        gemm(rows, n, k, x, x.offset, wt, wt.offset, out, 0);
        if (bc != null) addBias(out, rows, n, bc, bc.numel() == 1 ? 0 : 1);
        return out;
    }

    /**
     * {@code out[cOff..] = a[aOff..] (M x K) b[bOff..] (K x N)}, all row-major and dense: the float32 GEMM into a
     * float32 output, the float64 one into a wide output (the operands are already stored the output's way).
     */
    private static void gemm(int m, int n, int k, DenseTensor a, int aOff, DenseTensor b, int bOff, DenseTensor out,
                             int cOff) {
        if (out.isWide()) DoubleGemm.dgemm(m, n, k, a.wide, aOff, k, b.wide, bOff, n, out.wide, cOff, n);
        else Gemm.standard().sgemm(m, n, k, a.data, aOff, k, b.data, bOff, n, out.data, cOff, n);
    }

    /** The product of the leading axes of linear's input: its rows, M. */
    private static long rows(DenseTensor in) {
        long rows = 1;
        for (int i = 0; i < in.rank() - 1; i++) rows *= in.shape[i];
        return rows;
    }

    /** out[i, j] += bias[j * step], in float32 as the GPU's epilogue adds it (in float64 into a wide output). */
    private static void addBias(DenseTensor out, int rows, int n, DenseTensor bias, int step) {
        DenseTensor b = bias.storedLike(out);
        for (int i = 0; i < rows; i++) {
            if (out.isWide()) {
                for (int j = 0; j < n; j++) out.wide[i * n + j] += b.wide[b.offset + j * step];
            } else {
                for (int j = 0; j < n; j++) out.data[i * n + j] += b.data[b.offset + j * step];
            }
        }
    }
}
