package org.hostir.studio.exec.tensor;

import java.util.Arrays;
import java.util.List;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * Set (copy, or Set.Permute), binary ops with size-1 broadcasting, and broadcast (insertion of size-1 axes).
 * Results are fresh contiguous tensors of the output's dtype, not yet rounded ({@link OpKernels} stores them);
 * arithmetic is float32, float64 where the output is wide ({@link DenseTensor#isWide}), or 64-bit integers where
 * it is an integer ({@link DenseTensor#isIntegral}).
 */
final class PointwiseKernels {
    private PointwiseKernels() {}

    static long[] setShape(FusionOp.Set s, DenseTensor x) {
        return s.isPermute() ? x.permute(permutation(s, x)).shape() : x.shape();
    }

    /** Output axis i is input runtime axis {@code perm[i]}: a permuted view, then a copy. */
    static DenseTensor set(FusionOp.Set s, DenseTensor x) {
        DenseTensor src = s.isPermute() ? x.permute(permutation(s, x)) : x;
        DenseTensor out = DenseTensor.zeros(src.shape(), s.output().dtype());
        out.copyFrom(src);
        return out;
    }

    private static int[] permutation(FusionOp.Set s, DenseTensor x) {
        List<Integer> p = s.permutation();
        if (p.size() != x.rank()) {
            throw new IllegalArgumentException(OpKernels.describe(s) + ": permutation " + p + " for "
                    + x.rank() + " runtime axes");
        }
        return p.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Right-aligned, and a size-1 axis stretches to the other operand's size (broadcast axes, local DID axes). */
    static long[] binaryShape(FusionOp.Binary b, DenseTensor l, DenseTensor r) {
        int rank = Math.max(l.rank(), r.rank());
        long[] out = new long[rank];
        for (int i = 0; i < rank; i++) {
            int li = i - (rank - l.rank());
            int ri = i - (rank - r.rank());
            long x = li < 0 ? 1 : l.shape[li];
            long y = ri < 0 ? 1 : r.shape[ri];
            if (x != y && x != 1 && y != 1) {
                throw new IllegalArgumentException(OpKernels.describe(b) + ": shapes " + Arrays.toString(l.shape)
                        + " and " + Arrays.toString(r.shape) + " do not broadcast at axis " + i);
            }
            out[i] = x == 1 ? y : x;
        }
        return out;
    }

    /**
     * In float32 into a float32 output, in float64 into a wide one (double), in int64 into an integer one; an
     * operand held another way is converted first ({@link DenseTensor#storedAs}).
     */
    static DenseTensor binary(FusionOp.Binary b, DenseTensor lhs, DenseTensor rhs) {
        long[] shape = binaryShape(b, lhs, rhs);
        DenseTensor out = DenseTensor.zeros(shape, b.output().dtype());
        // expanding makes both operands the output's shape; contiguous() materialises the repeats once
        DenseTensor l = lhs.expand(shape).contiguous().storedLike(out);
        DenseTensor r = rhs.expand(shape).contiguous().storedLike(out);
        if (out.isIntegral()) {
            IntegerKernels.binary(b, l.ints, l.offset, r.ints, r.offset, out);
            return out;
        }
        if (out.isWide()) {
            binaryWide(b, l.wide, l.offset, r.wide, r.offset, out.wide);
            return out;
        }
        float[] x = l.data;
        float[] y = r.data;
        float[] o = out.data;
        int lo = l.offset;
        int ro = r.offset;
        int n = o.length;
        // a loop per operator, chosen by an exhaustive switch
        return switch (b.op()) {
            case ADD -> { for (int i = 0; i < n; i++) o[i] = x[lo + i] + y[ro + i]; yield out; }
            case SUB -> { for (int i = 0; i < n; i++) o[i] = x[lo + i] - y[ro + i]; yield out; }
            case MUL -> { for (int i = 0; i < n; i++) o[i] = x[lo + i] * y[ro + i]; yield out; }
            case DIV -> { for (int i = 0; i < n; i++) o[i] = x[lo + i] / y[ro + i]; yield out; }
        };
    }

    /** The same loops in float64. */
    private static void binaryWide(FusionOp.Binary b, double[] x, int lo, double[] y, int ro, double[] o) {
        int n = o.length;
        switch (b.op()) {
            case ADD -> { for (int i = 0; i < n; i++) o[i] = x[lo + i] + y[ro + i]; }
            case SUB -> { for (int i = 0; i < n; i++) o[i] = x[lo + i] - y[ro + i]; }
            case MUL -> { for (int i = 0; i < n; i++) o[i] = x[lo + i] * y[ro + i]; }
            case DIV -> { for (int i = 0; i < n; i++) o[i] = x[lo + i] / y[ro + i]; }
        }
    }

    static long[] broadcastShape(FusionOp.Broadcast b, DenseTensor x) {
        boolean[] fresh = newAxes(b);
        long[] out = new long[fresh.length];
        int kept = 0;
        for (int o = 0; o < fresh.length; o++) {
            if (fresh[o]) {
                out[o] = 1;
            } else {
                if (kept == x.rank()) break;
                out[o] = x.shape[kept++];
            }
        }
        if (kept != x.rank() || fresh.length - countTrue(fresh) != x.rank()) {
            throw new IllegalArgumentException(OpKernels.describe(b) + ": the output keeps "
                    + (fresh.length - countTrue(fresh)) + " axes, but the input has shape " + Arrays.toString(x.shape));
        }
        return out;
    }

    /** New size-1 axes do not move any element: the input's values in order, in the output's shape. */
    static DenseTensor broadcast(FusionOp.Broadcast b, DenseTensor x) {
        long[] shape = broadcastShape(b, x);
        DenseTensor out = DenseTensor.zeros(shape, b.output().dtype());
        out.copyFrom(x.reshape(shape));
        return out;
    }

    /**
     * Which runtime output axes are new: from the op's flags (one per output axis), or, for an op built without
     * them, the output axes that no input axis feeds according to the AxisMap.
     */
    static boolean[] newAxes(FusionOp.Broadcast b) {
        TensorView out = b.output();
        boolean[] fresh = new boolean[out.allocationAxes().size()];
        if (b.flags().size() == out.rank()) {
            for (int o = 0; o < out.rank(); o++) {
                if (!out.axis(o).isReduction()) fresh[OpKernels.runtimePosition(out, o)] = b.flags().get(o);
            }
            return fresh;
        }
        TensorView in = b.input();
        FusionOp.Broadcast runtime = new FusionOp.Broadcast(out.withAxes(out.allocationAxes()),
                in.withAxes(in.allocationAxes()), b.flags());
        Arrays.fill(fresh, true);
        for (int o : AxisMap.of(runtime, 0)) {
            if (o != AxisMap.NONE) fresh[o] = false;
        }
        return fresh;
    }

    private static int countTrue(boolean[] a) {
        int n = 0;
        for (boolean v : a) if (v) n++;
        return n;
    }
}
