package org.hostir.studio.exec.tensor;

import java.util.Arrays;
import java.util.List;

/**
 * Compares a computed tensor with the expected one (the reference interpreter's) element by element, within a
 * {@link Tolerance}. Shapes must match exactly; a NaN matches only a NaN, and equal infinities match.
 */
public final class Comparison {
    private Comparison() {}

    /**
     * The outcome. {@code maxAbsError} is the largest |actual - expected| (infinite where a NaN meets a number or
     * an infinity a finite value, and for a shape mismatch). {@code worstIndex} is the element that most exceeds
     * its allowed difference (relative to that allowance), so a failing comparison points at a failing element
     * even when a larger but allowed difference sits on a large value; empty for empty tensors and shape
     * mismatches. {@code problem} is null unless the shapes differ.
     */
    public record Result(boolean passed, double maxAbsError, List<Long> worstIndex, float expected, float actual,
                         Tolerance tolerance, String problem) {
        public Result {
            worstIndex = List.copyOf(worstIndex);
        }

        /** One line, as {@code run --validate} prints after {@code validation: }. */
        public String summary() {
            if (problem != null) return "FAIL " + problem;
            String err = "max_abs_err=" + String.format("%.3e", maxAbsError);
            if (passed) return "PASS " + err;
            return "FAIL " + err + " at " + worstIndex + ": expected " + expected + ", got " + actual + " (atol "
                    + tolerance.atol() + ", rtol " + tolerance.rtol() + ")";
        }
    }

    /** With the tolerance of the coarser of the two dtypes. */
    public static Result compare(DenseTensor expected, DenseTensor actual) {
        return compare(expected, actual, Tolerance.of(expected.dtype(), actual.dtype()));
    }

    public static Result compare(DenseTensor expected, DenseTensor actual, Tolerance tolerance) {
        if (!Arrays.equals(expected.shape, actual.shape)) {
            return new Result(false, Double.POSITIVE_INFINITY, List.of(), Float.NaN, Float.NaN, tolerance,
                    "shape " + Arrays.toString(actual.shape) + " differs from the expected "
                            + Arrays.toString(expected.shape));
        }
        float[] e = expected.toArray();
        float[] a = actual.toArray();
        double maxAbs = 0;
        double worstRatio = -1;
        int worst = -1;
        boolean passed = true;
        for (int i = 0; i < e.length; i++) {
            double diff = difference(e[i], a[i]);
            double allowed = tolerance.allowed(Double.isFinite(e[i]) ? e[i] : 0);
            double ratio = diff == 0 ? 0 : allowed == 0 ? Double.POSITIVE_INFINITY : diff / allowed;
            if (diff > allowed) passed = false;
            maxAbs = Math.max(maxAbs, diff);
            if (ratio > worstRatio) {
                worstRatio = ratio;
                worst = i;
            }
        }
        if (worst < 0) return new Result(true, 0, List.of(), 0, 0, tolerance, null);
        return new Result(passed, maxAbs, unravel(worst, expected.shape), e[worst], a[worst], tolerance, null);
    }

    private static double difference(float e, float a) {
        if (Float.isNaN(e) || Float.isNaN(a)) return Float.isNaN(e) && Float.isNaN(a) ? 0 : Double.POSITIVE_INFINITY;
        if (e == a) return 0; // equal infinities included
        return Math.abs((double) a - e);
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
