package org.hostir.studio.exec.tensor;

import java.util.Arrays;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * where (a select with the operands broadcast right-aligned, as binary ops are), squeeze (size-1 axes removed),
 * expand (size-1 axes stretched to the output's sizes) and reshape (the elements in order, another shape) on host
 * tensors. Results are fresh contiguous tensors
 * of the output's dtype, not yet rounded.
 */
public final class ShapeKernels {
    private ShapeKernels() {}

    static long[] whereShape(FusionOp.Where w, DenseTensor c, DenseTensor x, DenseTensor y) {
        long[] xy = broadcast(w, x.shape(), y.shape());
        return broadcast(w, c.shape(), xy);
    }

    private static long[] broadcast(FusionOp op, long[] a, long[] b) {
        int rank = Math.max(a.length, b.length);
        long[] out = new long[rank];
        for (int i = 0; i < rank; i++) {
            int ai = i - (rank - a.length);
            int bi = i - (rank - b.length);
            long p = ai < 0 ? 1 : a[ai];
            long q = bi < 0 ? 1 : b[bi];
            if (p != q && p != 1 && q != 1) {
                throw new IllegalArgumentException(OpKernels.describe(op) + ": shapes " + Arrays.toString(a) + " and "
                        + Arrays.toString(b) + " do not broadcast at axis " + i);
            }
            out[i] = p == 1 ? q : p;
        }
        return out;
    }

    /** A non-zero condition selects x, as torch.where does with a bool condition. */
    static DenseTensor where(FusionOp.Where w, DenseTensor cond, DenseTensor x, DenseTensor y) {
        long[] shape = whereShape(w, cond, x, y);
        DenseTensor c = cond.expand(shape).contiguous();
        DenseTensor a = x.expand(shape).contiguous();
        DenseTensor b = y.expand(shape).contiguous();
        DenseTensor out = DenseTensor.zeros(shape, w.output().dtype());
        // the selected value moves unchanged (as an integer into an integer, else as a double, exact)
        int n = (int) out.numel();
        if (out.isIntegral()) {
            for (int i = 0; i < n; i++) {
                out.writeLong(i, c.read(c.offset + i) != 0 ? a.readLong(a.offset + i) : b.readLong(b.offset + i));
            }
            return out;
        }
        for (int i = 0; i < n; i++) {
            out.write(i, c.read(c.offset + i) != 0 ? a.read(a.offset + i) : b.read(b.offset + i));
        }
        return out;
    }

    /** index_select's output shape: the input's with axis {@code dim} the index's length. */
    static long[] indexSelectShape(FusionOp.IndexSelect s, DenseTensor x, DenseTensor index) {
        int dim = s.dim();
        if (dim < 0 || dim >= x.rank() || index.rank() != 1) {
            throw new IllegalArgumentException(OpKernels.describe(s) + ": axis " + dim + " of a " + x.rank()
                    + "-D input with a " + index.rank() + "-D index");
        }
        long[] shape = x.shape();
        shape[dim] = index.size(0);
        return shape;
    }

    /** {@code at::index_select(x, dim, index)}: output row i along {@code dim} is input row {@code index[i]}. */
    static DenseTensor indexSelect(FusionOp.IndexSelect s, DenseTensor x, DenseTensor index) {
        DenseTensor out = DenseTensor.zeros(indexSelectShape(s, x, index), s.output().dtype());
        int dim = s.dim();
        for (long i = 0; i < index.size(0); i++) {
            long row = index.getLong(i);
            if (row < 0 || row >= x.size(dim)) throw new IndexOutOfRange(s, dim, row, x.size(dim));
            out.narrow(dim, i, 1).copyFrom(x.narrow(dim, row, 1));
        }
        return out;
    }

    /** take_along_axis's output shape: the index's, which must match the input's but along {@code dim}. */
    static long[] takeAlongAxisShape(FusionOp.TakeAlongAxis t, DenseTensor x, DenseTensor index) {
        int dim = t.dim();
        boolean fits = dim >= 0 && dim < x.rank() && index.rank() == x.rank();
        for (int i = 0; fits && i < x.rank(); i++) fits = i == dim || x.size(i) == index.size(i) || x.size(i) == 1;
        if (!fits) throw new IllegalArgumentException(OpKernels.describe(t) + ": an index of shape "
                + Arrays.toString(index.shape()) + " along axis " + dim + " of an input of shape "
                + Arrays.toString(x.shape()));
        return index.shape();
    }

    /** {@code at::take_along_dim(x, index, dim)}: {@code out[.., j, ..] = x[.., index[.., j, ..], ..]}. */
    static DenseTensor takeAlongAxis(FusionOp.TakeAlongAxis t, DenseTensor x, DenseTensor index) {
        long[] shape = takeAlongAxisShape(t, x, index);
        DenseTensor out = DenseTensor.zeros(shape, t.output().dtype());
        DenseTensor idx = index.contiguous();
        int dim = t.dim();
        long[] at = new long[shape.length];
        for (long n = 0; n < out.numel(); n++) {
            long rest = n;
            for (int i = shape.length - 1; i >= 0; i--) {
                at[i] = rest % shape[i];
                rest /= shape[i];
            }
            long row = idx.getLong(at);
            if (row < 0 || row >= x.size(dim)) throw new IndexOutOfRange(t, dim, row, x.size(dim));
            long[] from = at.clone();
            from[dim] = row;
            for (int i = 0; i < from.length; i++) if (i != dim && x.size(i) == 1) from[i] = 0;
            element(out, at).copyFrom(element(x, from));
        }
        return out;
    }

    /** The 1-D view of {@code t} along {@code dim} through {@code at} (whose entry at {@code dim} is ignored). */
    static DenseTensor line(DenseTensor t, long[] at, int dim) {
        DenseTensor v = t;
        for (int i = at.length - 1; i >= 0; i--) if (i != dim) v = v.select(i, at[i]);
        return v;
    }

    /** The one-element view of {@code t} at {@code index} (its dtype's exact copy, int64 included). */
    static DenseTensor element(DenseTensor t, long[] index) {
        DenseTensor v = t;
        for (int i = 0; i < index.length; i++) v = v.narrow(i, index[i], 1);
        return v;
    }

    /** Which runtime input axes squeeze removes: the flags are per input axis, reduction axes have none. */
    static boolean[] squeezed(FusionOp.Squeeze q, int runtimeRank) {
        TensorView in = q.input();
        boolean[] out = new boolean[runtimeRank];
        for (int i = 0; i < in.rank() && i < q.flags().size(); i++) {
            if (in.axis(i).isReduction()) continue;
            int p = OpKernels.runtimePosition(in, i);
            if (p < runtimeRank) out[p] = q.flags().get(i);
        }
        return out;
    }

    static long[] squeezeShape(FusionOp.Squeeze q, DenseTensor x) {
        boolean[] gone = squeezed(q, x.rank());
        long[] out = new long[x.rank()];
        int n = 0;
        for (int i = 0; i < x.rank(); i++) {
            if (!gone[i]) {
                out[n++] = x.size(i);
            } else if (x.size(i) != 1) {
                throw new IllegalArgumentException(OpKernels.describe(q) + ": axis " + i + " has size " + x.size(i)
                        + ", only a size-1 axis can be squeezed");
            }
        }
        return Arrays.copyOf(out, n);
    }

    static DenseTensor squeeze(FusionOp.Squeeze q, DenseTensor x) {
        long[] shape = squeezeShape(q, x);
        DenseTensor out = DenseTensor.zeros(shape, q.output().dtype());
        out.copyFrom(x.contiguous().reshape(shape));
        return out;
    }

    /**
     * Size-1 axes stretched to {@code to} (the output buffer's shape, which the backends allocate from the symbol
     * values), or, without it, to the output's constant extents; a symbolic extent without a buffer is refused
     * rather than guessed (ReferenceInterpreter allocates the buffer from the inputs' sizes).
     */
    static long[] expandShape(FusionOp.Expand e, DenseTensor x, long[] to) {
        long[] shape = x.shape();
        long[] target = to != null ? to : constantExtents(e);
        if (target.length != shape.length) {
            throw new IllegalArgumentException(OpKernels.describe(e) + ": the output has " + target.length
                    + " runtime axes, the input " + shape.length);
        }
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] == target[i] || (shape[i] == 1 && target[i] >= 0 && to != null)) {
                shape[i] = target[i];
            } else if (shape[i] == 1 && target[i] > 0) {
                shape[i] = target[i];
            } else if (shape[i] == 1 && target[i] < 0) {
                throw new IllegalArgumentException(OpKernels.describe(e) + ": axis " + i
                        + " expands to a symbolic extent; its size needs the output buffer");
            } else if (target[i] >= 0) {
                throw new IllegalArgumentException(OpKernels.describe(e) + ": axis " + i + " of size " + shape[i]
                        + " cannot expand to " + target[i]);
            }
        }
        return shape;
    }

    static DenseTensor expand(FusionOp.Expand e, DenseTensor x, long[] to) {
        long[] shape = expandShape(e, x, to);
        DenseTensor out = DenseTensor.zeros(shape, e.output().dtype());
        out.copyFrom(x.expand(shape));
        return out;
    }

    /** Constant extents of the output's runtime axes (a DID axis counts 1: a rank holds one slice), else -1. */
    private static long[] constantExtents(FusionOp.Expand e) {
        return e.output().allocationAxes().stream().filter(a -> !a.isReduction())
                .mapToLong(a -> a.isDeviceDim() ? 1 : a.extent() instanceof Extent.Constant c ? c.value() : -1)
                .toArray();
    }

    /**
     * reshape's runtime shape: the output buffer's, or the output's constant extents (a DID axis counts 1); the
     * element count must be the input's.
     */
    static long[] reshapeShape(FusionOp.Reshape r, DenseTensor x, long[] to) {
        long[] shape = to;
        if (shape == null) {
            shape = r.output().allocationAxes().stream().filter(a -> !a.isReduction())
                    .mapToLong(a -> a.isDeviceDim() ? 1 : a.extent() instanceof Extent.Constant c ? c.value() : -1)
                    .toArray();
        }
        long n = 1;
        for (long s : shape) n = s < 0 ? -1 : n * s;
        if (n != x.numel()) {
            throw new IllegalArgumentException(OpKernels.describe(r) + ": cannot reshape " + Arrays.toString(x.shape())
                    + " (" + x.numel() + " elements) to " + Arrays.toString(shape));
        }
        return shape;
    }

    static DenseTensor reshape(FusionOp.Reshape r, DenseTensor x, long[] to) {
        long[] shape = reshapeShape(r, x, to);
        DenseTensor out = DenseTensor.zeros(shape, r.output().dtype());
        out.copyFrom(x.contiguous().reshape(shape));
        return out;
    }
}
