package org.hostir.studio.exec.tensor;

import java.util.Arrays;
import java.util.List;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.ir.FusionOp;

/**
 * {@code at::scatter(self, dim, index, src)}, out of place (nvFuser's ScatterOp::evaluate,
 * csrc/ir/internal_nodes.cpp:449-452): a copy of self where {@code out[.., index[.., j, ..], ..] = src[.., j, ..]}
 * for every position of the index. Two positions writing one element leave PyTorch's result undefined ("the order
 * is undefined" on CUDA), so the run fails there naming the op rather than pick one; an index outside self's axis
 * fails as PyTorch raises.
 */
final class ScatterKernel {
    private ScatterKernel() {}

    static long[] shape(FusionOp.Scatter s, DenseTensor self, DenseTensor index, DenseTensor src) {
        int dim = s.dim();
        boolean fits = dim >= 0 && dim < self.rank() && index.rank() == self.rank() && src.rank() == self.rank();
        for (int i = 0; fits && i < self.rank(); i++) {
            fits = index.size(i) <= src.size(i) && (i == dim || index.size(i) <= self.size(i));
        }
        if (!fits) throw new IllegalArgumentException(OpKernels.describe(s) + ": an index of shape "
                + Arrays.toString(index.shape()) + " and src of shape " + Arrays.toString(src.shape())
                + " along axis " + dim + " of self of shape " + Arrays.toString(self.shape()));
        return self.shape();
    }

    static DenseTensor compute(FusionOp.Scatter s, DenseTensor self, DenseTensor index, DenseTensor src) {
        long[] shape = shape(s, self, index, src);
        DenseTensor out = DenseTensor.zeros(shape, s.output().dtype());
        out.copyFrom(self);
        int dim = s.dim();
        long[] strides = new long[shape.length];
        for (int i = shape.length - 1, step = 1; i >= 0; step *= (int) shape[i], i--) strides[i] = step;
        boolean[] written = new boolean[(int) out.numel()];
        long[] at = new long[shape.length];
        long[] indexShape = index.shape();
        for (long n = 0; n < index.numel(); n++) {
            TopKKernel.unravel(n, indexShape, at);
            long row = index.getLong(at);
            if (row < 0 || row >= shape[dim]) throw new IndexOutOfRange(s, dim, row, shape[dim]);
            long[] to = at.clone();
            to[dim] = row;
            int flat = 0;
            for (int i = 0; i < to.length; i++) flat += (int) (to[i] * strides[i]);
            if (written[flat]) throw duplicate(s, to);
            written[flat] = true;
            ShapeKernels.element(out, to).copyFrom(ShapeKernels.element(src, at));
        }
        return out;
    }

    private static RunFailure duplicate(FusionOp.Scatter s, long[] to) {
        return new RunFailure(OpKernels.describe(s) + ": two index entries write element " + Arrays.toString(to)
                + " (at::scatter leaves the result of repeated indices undefined)",
                List.of(s.output().subject(), s.indices().subject()));
    }
}
