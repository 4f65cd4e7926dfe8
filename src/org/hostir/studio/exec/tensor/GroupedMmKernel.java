package org.hostir.studio.exec.tensor;

import java.util.Arrays;
import java.util.List;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.ir.FusionOp;

/**
 * nvFuser's GroupedMmaOp fallback (csrc/ir/composite_nodes.cpp:1166-1220 at 81c4b22fd): the offsets' group sizes
 * (each offset minus the one before) split K ([m, k] x [k, n] -> [g, m, n]), N ([g, m, k] x [k, n] -> [m, n]) or M
 * ([m, k] x [g, k, n] -> [m, n]) and each group is one {@code at::matmul_out}. The sizes must add up to the split
 * axis ({@code Tensor::split} refuses otherwise) and may not fall, so offsets that do not rise to it fail the run
 * naming the op. Each dot product is summed in double and stored in the output's dtype.
 */
final class GroupedMmKernel {
    private GroupedMmKernel() {}

    static long[] shape(FusionOp.GroupedMm g, DenseTensor a, DenseTensor b, DenseTensor offsets) {
        long k = a.size(a.rank() - 1);
        boolean fits = offsets.rank() == 1 && a.rank() + b.rank() >= 4 && a.rank() + b.rank() <= 5 && a.rank() >= 2
                && b.rank() >= 2 && k == b.size(b.rank() - 2);
        if (!fits) throw new IllegalArgumentException(OpKernels.describe(g) + ": operands of shape "
                + Arrays.toString(a.shape()) + " and " + Arrays.toString(b.shape()) + " with offsets of shape "
                + Arrays.toString(offsets.shape()));
        long m = a.size(a.rank() - 2);
        long n = b.size(b.rank() - 1);
        return a.rank() == 2 && b.rank() == 2 ? new long[] {offsets.size(0), m, n} : new long[] {m, n};
    }

    static DenseTensor compute(FusionOp.GroupedMm g, DenseTensor a, DenseTensor b, DenseTensor offsets) {
        long[] shape = shape(g, a, b, offsets);
        DenseTensor out = DenseTensor.zeros(shape, g.output().dtype());
        int groups = (int) offsets.size(0);
        long split = a.rank() == 3 ? b.size(1) : b.rank() == 3 ? a.size(0) : a.size(1);
        long start = 0;
        for (int i = 0; i < groups; i++) {
            long end = offsets.getLong(i);
            if (end < start || end > split || (i == groups - 1 && end != split)) throw badOffsets(g, offsets, split);
            long size = end - start;
            if (a.rank() == 2 && b.rank() == 2) {
                gemm(a.narrow(1, start, size), b.narrow(0, start, size), out.select(0, i));
            } else if (a.rank() == 3) {
                gemm(a.select(0, i), b.narrow(1, start, size), out.narrow(1, start, size));
            } else {
                gemm(a.narrow(0, start, size), b.select(0, i), out.narrow(0, start, size));
            }
            start = end;
        }
        if (groups == 0 && split != 0) throw badOffsets(g, offsets, split);
        return out;
    }

    /** out[m, n] = sum over k of a[m, k] b[k, n], in double. */
    private static void gemm(DenseTensor a, DenseTensor b, DenseTensor out) {
        for (long i = 0; i < a.size(0); i++) {
            for (long j = 0; j < b.size(1); j++) {
                double sum = 0;
                for (long k = 0; k < a.size(1); k++) sum += a.getDouble(i, k) * b.getDouble(k, j);
                out.setDouble(sum, i, j);
            }
        }
    }

    private static RunFailure badOffsets(FusionOp.GroupedMm g, DenseTensor offsets, long split) {
        return new RunFailure(OpKernels.describe(g) + ": offsets " + Arrays.toString(offsets.toLongArray())
                + " must rise from 0 to " + split + ", the end of each group (GroupedMmaOp's fallback splits by them)",
                List.of(g.output().subject(), g.offsets().subject()));
    }
}
