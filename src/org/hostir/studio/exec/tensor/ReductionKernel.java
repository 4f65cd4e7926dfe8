package org.hostir.studio.exec.tensor;

import java.util.List;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * Sum and max over the op's axes. The reduced axes become reduction axes of the output TensorView, so they are
 * gone from the runtime output; the kept axes stay in the input's order (the TensorView may list its reduction
 * axes anywhere among them, as nvFuser's dumps do, which does not change the runtime layout).
 */
final class ReductionKernel {
    private ReductionKernel() {}

    /**
     * The kept axes; a reduced axis whose output axis is not a reduction axis (the partial sums of a split-sharded
     * reduction, one per device: lower.SplitReduction) stays as an axis of size 1.
     */
    static long[] shape(FusionOp.Reduction r, DenseTensor x) {
        boolean[] reduced = reducedAxes(r, x);
        // the output keeps every allocated axis: the reduced ones as size 1 (partial sums)
        boolean partial = r.output().allocationAxes().size() == r.input().allocationAxes().size();
        boolean[] kept = partial ? reduced : new boolean[x.rank()];
        long[] out = new long[x.rank() - count(reduced) + count(kept)];
        int k = 0;
        for (int i = 0; i < x.rank(); i++) {
            if (!reduced[i]) out[k++] = x.shape[i];
            else if (kept[i]) out[k++] = 1;
        }
        return out;
    }

    /** Moves the reduced axes innermost, so each output element reduces one contiguous run. */
    static DenseTensor compute(FusionOp.Reduction r, DenseTensor x) {
        boolean[] reduced = reducedAxes(r, x);
        int[] perm = new int[x.rank()];
        int k = 0;
        for (int i = 0; i < x.rank(); i++) if (!reduced[i]) perm[k++] = i;
        for (int i = 0; i < x.rank(); i++) if (reduced[i]) perm[k++] = i;
        DenseTensor y = x.permute(perm).contiguous();
        DenseTensor out = DenseTensor.zeros(shape(r, x), r.output().dtype());
        int runs = (int) out.numel();
        int run = runs == 0 ? 0 : (int) (y.numel() / runs);
        if (out.isIntegral()) {
            integer(r, y.storedLike(out), out, runs, run);
            return out;
        }
        for (int o = 0; o < runs; o++) {
            int start = y.offset + o * run;
            double v = switch (r.op()) {
                case SUM -> sum(y, start, run);
                case MAX -> max(y, start, run);
                case MIN -> min(y, start, run);
                case PROD -> prod(y, start, run);
            };
            out.write(o, v);
        }
        return out;
    }

    /** In int64, wrapped to the output's dtype on store (an int32 prod wraps, as PyTorch's does). */
    private static void integer(FusionOp.Reduction r, DenseTensor y, DenseTensor out, int runs, int run) {
        long[] v = y.ints;
        for (int o = 0; o < runs; o++) {
            int start = y.offset + o * run;
            long x = switch (r.op()) {
                case SUM -> IntegerKernels.sum(v, start, run);
                case MAX -> IntegerKernels.max(v, start, run);
                case MIN -> IntegerKernels.min(v, start, run);
                case PROD -> IntegerKernels.prod(v, start, run);
            };
            out.writeLong(o, x);
        }
    }

    /**
     * In double whatever the storage: a float32 output gets the double sum rounded once (as it always did), a
     * wide one the double sum itself, as PyTorch's float64 sum.
     */
    private static double sum(DenseTensor v, int start, int n) {
        double s = 0;
        for (int i = start; i < start + n; i++) s += v.read(i);
        return s;
    }

    /**
     * Starts from -inf like nvFuser's max; NaN propagates (Math.max returns NaN if either is NaN). The max of
     * widened float32 values is the float32 max.
     */
    private static double max(DenseTensor v, int start, int n) {
        double m = Double.NEGATIVE_INFINITY;
        for (int i = start; i < start + n; i++) m = Math.max(m, v.read(i));
        return m;
    }

    /** Starts from +inf like nvFuser's min; NaN propagates. */
    private static double min(DenseTensor v, int start, int n) {
        double m = Double.POSITIVE_INFINITY;
        for (int i = start; i < start + n; i++) m = Math.min(m, v.read(i));
        return m;
    }

    /** Starts from one like nvFuser's prod; accumulates in double as sum does. */
    private static double prod(DenseTensor v, int start, int n) {
        double p = 1;
        for (int i = start; i < start + n; i++) p *= v.read(i);
        return p;
    }

    /** The op's axes are positions among the input TensorView's axes; the tensor has no reduction axes. */
    private static boolean[] reducedAxes(FusionOp.Reduction r, DenseTensor x) {
        TensorView in = r.input();
        boolean[] reduced = new boolean[x.rank()];
        List<Integer> axes = r.axes();
        for (int a : axes) {
            if (a < 0 || a >= in.rank() || in.axis(a).isReduction()) {
                throw new IllegalArgumentException(OpKernels.describe(r) + ": axis " + a + " of " + in.name()
                        + " cannot be reduced");
            }
            reduced[OpKernels.runtimePosition(in, a)] = true;
        }
        return reduced;
    }

    private static int count(boolean[] a) {
        int n = 0;
        for (boolean v : a) if (v) n++;
        return n;
    }
}
