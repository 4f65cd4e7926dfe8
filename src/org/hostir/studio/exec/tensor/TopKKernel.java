package org.hostir.studio.exec.tensor;

import java.util.Arrays;
import java.util.Comparator;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;

/**
 * {@code at::topk(x, k, dim, largest, sorted)}, one of its outputs ({@link FusionOp.TopK#indices}): along {@code dim}
 * the k largest (smallest) elements, NaN counting as larger than every number as PyTorch orders it. Equal values
 * keep their input order, and the result is always in sorted order: PyTorch leaves the order of ties, and with
 * {@code sorted = False} the order of the k, unspecified, so this is one of the answers it may give, the same on
 * every backend of the Studio.
 */
final class TopKKernel {
    private TopKKernel() {}

    /** The input's shape with k at {@code dim}: k from the output buffer, else the output's constant extent. */
    static long[] shape(FusionOp.TopK t, DenseTensor x, long[] out) {
        int dim = t.dim();
        if (dim < 0 || dim >= x.rank()) {
            throw new IllegalArgumentException(OpKernels.describe(t) + ": axis " + dim + " of an input of rank " + x.rank());
        }
        long k = out != null && out.length == x.rank() ? out[dim]
                : t.output().axes().get(dim).extent() instanceof Extent.Constant c ? c.value() : -1;
        if (k < 0) throw new IllegalArgumentException(OpKernels.describe(t) + ": k is symbolic; its size needs the"
                + " output buffer");
        if (k > x.size(dim)) throw new IllegalArgumentException(OpKernels.describe(t) + ": k = " + k + " exceeds the "
                + x.size(dim) + " elements of axis " + dim + " (at::topk: selected index k out of range)");
        long[] shape = x.shape();
        shape[dim] = k;
        return shape;
    }

    static DenseTensor compute(FusionOp.TopK t, DenseTensor x, long[] outShape) {
        long[] shape = shape(t, x, outShape);
        int dim = t.dim();
        DenseTensor out = DenseTensor.zeros(shape, t.output().dtype());
        long[] sliceShape = x.shape();
        sliceShape[dim] = 1;
        long slices = Arrays.stream(sliceShape).reduce(1, (a, b) -> a * b);
        long[] at = new long[shape.length];
        for (long s = 0; s < slices; s++) {
            unravel(s, sliceShape, at);
            DenseTensor row = ShapeKernels.line(x, at, dim);
            Integer[] order = order(row, t.largest());
            DenseTensor target = ShapeKernels.line(out, at, dim);
            for (int j = 0; j < shape[dim]; j++) {
                DenseTensor cell = target.narrow(0, j, 1);
                if (t.indices()) cell.setDouble(order[j], 0);
                else cell.copyFrom(row.narrow(0, order[j], 1));
            }
        }
        return out;
    }

    /** Positions of a 1-D line, largest (or smallest) first, NaN largest, ties by position. */
    private static Integer[] order(DenseTensor row, boolean largest) {
        int n = (int) row.size(0);
        double[] v = new double[n];
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            v[i] = row.getDouble(i);
            order[i] = i;
        }
        Comparator<Integer> ascending = (a, b) -> Double.compare(v[a], v[b]); // Double.compare puts NaN last
        Arrays.sort(order, largest ? ascending.reversed().thenComparing(i -> i) : ascending.thenComparing(i -> i));
        return order;
    }

    static void unravel(long n, long[] shape, long[] at) {
        long rest = n;
        for (int i = shape.length - 1; i >= 0; i--) {
            at[i] = rest % shape[i];
            rest /= shape[i];
        }
    }
}
