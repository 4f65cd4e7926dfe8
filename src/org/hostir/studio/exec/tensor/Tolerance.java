package org.hostir.studio.exec.tensor;

import org.hostir.studio.ir.DataType;

/**
 * A fixed tolerance: {@code |actual - expected| <= atol + rtol * |expected|} (numpy's allclose), for comparisons
 * without a reference bound (replicas against each other, hand-made tensors); validation against the reference
 * uses the error-bounded {@link BoundTolerance} instead, which knows K and cancellation. Per dtype: double 1e-12 / 1e-12, float 1e-4 / 1e-4, half 2e-3 / 2e-3, bfloat16 2e-2 / 2e-2. These are a few
 * units in the last place of each type's 53-, 24-, 11- and 8-bit significand: wide enough for a sharded run that sums
 * partial products in another order (the kernels accumulate in double, so float results differ by a rounding or
 * two), narrow enough to catch a wrong slice or a missing term of any size. They are not scaled with K, which the
 * comparison does not know; validation inputs are uniform in [-1, 1), which keeps sums of K terms near sqrt(K).
 */
public record Tolerance(double atol, double rtol) implements Allowance {
    public Tolerance {
        if (!(atol >= 0) || !(rtol >= 0)) throw new IllegalArgumentException("tolerances must be >= 0");
    }

    public static final Tolerance FLOAT = new Tolerance(1e-4, 1e-4);
    public static final Tolerance HALF = new Tolerance(2e-3, 2e-3);
    public static final Tolerance BFLOAT16 = new Tolerance(2e-2, 2e-2);
    public static final Tolerance EXACT = new Tolerance(0, 0);
    /** double: a few thousand units of its 53-bit significand, as float's is of its 24-bit one. */
    public static final Tolerance DOUBLE = new Tolerance(1e-12, 1e-12);
    /** fp8: e4m3 has a 4-bit significand (unit roundoff 2^-4), e5m2 a 3-bit one (2^-3): a few units of each. */
    public static final Tolerance FLOAT8_E4M3 = new Tolerance(0.25, 0.25);
    public static final Tolerance FLOAT8_E5M2 = new Tolerance(0.5, 0.5);

    public static Tolerance of(DataType dtype) {
        return switch (dtype) {
            case FLOAT -> FLOAT;
            case HALF -> HALF;
            case BFLOAT16 -> BFLOAT16;
            case INT64, INT32, BOOL -> EXACT;
            case DOUBLE -> DOUBLE;
            case FLOAT8_E4M3FN -> FLOAT8_E4M3;
            case FLOAT8_E5M2 -> FLOAT8_E5M2;
        };
    }

    /** The looser of the two dtypes' tolerances: a comparison is as precise as its coarser side. */
    public static Tolerance of(DataType a, DataType b) {
        Tolerance x = of(a);
        Tolerance y = of(b);
        return new Tolerance(Math.max(x.atol, y.atol), Math.max(x.rtol, y.rtol));
    }

    /** The allowed difference around {@code expected}. */
    public double allowed(double expected) { return atol + rtol * Math.abs(expected); }

    @Override
    public double allowed(int flat, double expected) { return allowed(expected); }

    @Override
    public String explain(int flat, double expected) { return "atol " + atol + ", rtol " + rtol; }
}
