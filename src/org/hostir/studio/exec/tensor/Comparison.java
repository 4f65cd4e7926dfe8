package org.hostir.studio.exec.tensor;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntToDoubleFunction;
import java.util.function.Supplier;

/**
 * Compares a computed tensor with the expected one (the reference interpreter's) element by element, within an
 * {@link Allowance}: a fixed {@link Tolerance}, or the reference's error bound. Shapes must match exactly; a NaN
 * matches only a NaN, equal infinities match, and an infinite difference never passes.
 */
public final class Comparison {
    private Comparison() {}

    /**
     * The outcome. {@code maxAbsError} is the largest |actual - expected| (infinite where a NaN meets a number or
     * an infinity a finite value, and for a shape mismatch). {@code worstFraction} is the largest
     * |actual - expected| / allowed over the elements (above 1 exactly when the comparison fails) and
     * {@code worstIndex} that element, so a failing comparison points at a failing element even when a larger
     * but allowed difference sits elsewhere; empty when no element differs or the shapes differ. {@code problem}
     * is null unless the shapes differ; {@code explanation} says how the worst element's allowance came about.
     */
    public record Result(boolean passed, double maxAbsError, double worstFraction, List<Long> worstIndex,
                         double expected, double actual, String explanation, String problem) {
        public Result {
            worstIndex = List.copyOf(worstIndex);
        }

        /** One line, as {@code run --validate} prints after {@code validation: }. */
        public String summary() {
            if (problem != null) return "FAIL " + problem;
            String err = String.format(Locale.ROOT, "max_abs_err=%.3e worst=%.3g of allowed", maxAbsError,
                    worstFraction);
            if (passed) return "PASS " + err;
            return "FAIL " + err + " at " + worstIndex + ": expected " + shortest(expected) + ", got "
                    + shortest(actual) + " (" + explanation + ")";
        }

        /** A float32 value as float32 prints it (0.1, not 0.10000000149011612), a float64 one in full. */
        private static String shortest(double v) {
            return (float) v == v || Double.isNaN(v) ? Float.toString((float) v) : Double.toString(v);
        }
    }

    /** With the fixed tolerance of the coarser of the two dtypes. */
    public static Result compare(DenseTensor expected, DenseTensor actual) {
        return compare(expected, actual, Tolerance.of(expected.dtype(), actual.dtype()));
    }

    public static Result compare(DenseTensor expected, DenseTensor actual, Allowance allowance) {
        return compare(expected, actual, () -> allowance);
    }

    /**
     * As {@link #compare(DenseTensor, DenseTensor, Allowance)}, asking for the allowance only when some element
     * differs: equal tensors pass with a worst fraction of 0 without it (the reference's bounds cost a second
     * evaluation of the fusion, which a bit-exact backend does not need).
     */
    public static Result compare(DenseTensor expected, DenseTensor actual, Supplier<? extends Allowance> allowance) {
        if (!Arrays.equals(expected.shape, actual.shape)) {
            return new Result(false, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, List.of(), Float.NaN,
                    Float.NaN, "", "shape " + Arrays.toString(actual.shape) + " differs from the expected "
                            + Arrays.toString(expected.shape));
        }
        if (!expected.dtype().isFloatingPoint() && !actual.dtype().isFloatingPoint()) return integers(expected, actual);
        IntToDoubleFunction e = values(expected);
        IntToDoubleFunction a = values(actual);
        int n = (int) expected.numel();
        int first = firstDifference(e, a, n);
        if (first < 0) return new Result(true, 0, 0, List.of(), 0, 0, "", null);
        Allowance tolerance = allowance.get();
        double maxAbs = 0;
        double worstFraction = -1;
        int worst = -1;
        for (int i = first; i < n; i++) {
            double ei = e.applyAsDouble(i);
            double diff = difference(ei, a.applyAsDouble(i));
            if (diff == 0) continue;
            double allowed = tolerance.allowed(i, Double.isFinite(ei) ? ei : 0);
            if (Double.isNaN(allowed)) allowed = Double.POSITIVE_INFINITY; // an unbounded bound (0 * inf) bounds nothing
            double fraction = Double.isInfinite(diff) ? Double.POSITIVE_INFINITY
                    : allowed == 0 ? Double.POSITIVE_INFINITY : diff / allowed;
            maxAbs = Math.max(maxAbs, diff);
            if (fraction > worstFraction) {
                worstFraction = fraction;
                worst = i;
            }
        }
        double ew = e.applyAsDouble(worst);
        double expectedAtWorst = Double.isFinite(ew) ? ew : 0;
        return new Result(worstFraction <= 1, maxAbs, worstFraction, unravel(worst, expected.shape), ew,
                a.applyAsDouble(worst), tolerance.explain(worst, expectedAtWorst), null);
    }

    /**
     * Integer and bool tensors compare exactly, whatever the allowance: PyTorch's integer ops have no rounding, so
     * any difference is a wrong answer (an int64 past 2^53 is compared as the integer, not as a double).
     */
    private static Result integers(DenseTensor expected, DenseTensor actual) {
        long[] e = expected.toLongArray();
        long[] a = actual.toLongArray();
        int worst = -1;
        double maxAbs = 0;
        for (int i = 0; i < e.length; i++) {
            if (e[i] == a[i]) continue;
            // at least 1 where the doubles of two int64s round alike
            double diff = Math.max(1, Math.abs((double) a[i] - (double) e[i]));
            if (diff > maxAbs) {
                maxAbs = diff;
                worst = i;
            }
        }
        if (worst < 0) return new Result(true, 0, 0, List.of(), 0, 0, "", null);
        return new Result(false, maxAbs, Double.POSITIVE_INFINITY, unravel(worst, expected.shape), e[worst],
                a[worst], "integers are compared exactly: 0 allowed", null);
    }

    /** Row-major values, read exactly: a float32 tensor's from a float[] copy, a wide one's from a double[]. */
    private static IntToDoubleFunction values(DenseTensor t) {
        if (t.isWide()) {
            double[] d = t.toDoubleArray();
            return i -> d[i];
        }
        float[] f = t.toArray();
        return i -> f[i];
    }

    private static int firstDifference(IntToDoubleFunction e, IntToDoubleFunction a, int n) {
        for (int i = 0; i < n; i++) {
            if (difference(e.applyAsDouble(i), a.applyAsDouble(i)) != 0) return i;
        }
        return -1;
    }

    private static double difference(double e, double a) {
        if (Double.isNaN(e) || Double.isNaN(a)) {
            return Double.isNaN(e) && Double.isNaN(a) ? 0 : Double.POSITIVE_INFINITY;
        }
        if (e == a) return 0; // equal infinities included
        return Math.abs(a - e);
    }

    private static List<Long> unravel(int flat, int[] shape) {
        Long[] idx = new Long[shape.length];
        for (int i = shape.length - 1; i >= 0; i--) {
            idx[i] = (long) (flat % shape[i]);
            flat /= shape[i];
        }
        return List.of(idx);
    }
}
