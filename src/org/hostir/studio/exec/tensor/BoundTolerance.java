package org.hostir.studio.exec.tensor;

import java.util.Locale;

import org.hostir.studio.ir.DataType;

/**
 * The error-bounded tolerance of one reference output (or a rank's shard of it): per element
 * {@link ErrorBudget#allowed}, from the element's magnitude bound and the tensor's budget, in the output's
 * storage type. docs/validation.md explains the rule.
 */
public final class BoundTolerance implements Allowance {
    private final float[] magnitudes;
    private final ErrorBudget budget;
    private final DataType dtype;

    private BoundTolerance(float[] magnitudes, ErrorBudget budget, DataType dtype) {
        this.magnitudes = magnitudes;
        this.budget = budget;
        this.dtype = dtype;
    }

    /** {@code magnitude} in the shape of the compared tensors (read row-major). */
    public static BoundTolerance of(DenseTensor magnitude, ErrorBudget budget, DataType dtype) {
        return new BoundTolerance(magnitude.toArray(), budget, dtype);
    }

    /**
     * As above for a backend whose double and int64 results carry float64 precision ({@code float64Backend}, the
     * CPU backend: double's own unit roundoff) or float32's (the CUDA backend's transfers, for now).
     */
    public static BoundTolerance of(DenseTensor magnitude, ErrorBudget budget, DataType dtype, boolean float64Backend) {
        boolean wide = DenseTensor.isWide(dtype) || DenseTensor.isIntegral(dtype);
        if (float64Backend || !wide) return of(magnitude, budget, dtype);
        return of(magnitude, budget.computedInFloat32(), dtype == DataType.DOUBLE ? DataType.FLOAT : dtype);
    }

    public ErrorBudget budget() { return budget; }

    /** The magnitude bound of row-major element {@code flat}. */
    public double magnitude(int flat) { return magnitudes[flat]; }

    @Override
    public double allowed(int flat, double expected) {
        return budget.allowed(magnitudes[flat], expected, dtype);
    }

    @Override
    public String explain(int flat, double expected) {
        return String.format(Locale.ROOT, "allowed %.3g: bound %.4g, %d roundings%s", allowed(flat, expected),
                magnitudes[flat], budget.roundings(), budget.narrow() == 0 ? ""
                        : String.format(Locale.ROOT, ", narrow stores %.3g", budget.narrow()));
    }
}
