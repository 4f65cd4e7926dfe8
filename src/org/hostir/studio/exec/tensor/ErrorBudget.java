package org.hostir.studio.exec.tensor;

import org.hostir.studio.ir.DataType;

/**
 * How far a computed tensor may be from the exact value, relative to its magnitude bound B (the sum of the
 * absolute values of the terms behind each element, see {@link MagnitudeBounds}); one budget per tensor, the
 * worst of its elements. {@code roundings} counts the arithmetic roundings on the longest chain from the inputs
 * to the tensor, each of unit roundoff {@code arithmetic}: {@link #U_FLOAT} where any op on the chain computes in
 * float32, {@link #U_DOUBLE} where all compute in float64 (double and int64 outputs, {@link DenseTensor#isWide}):
 * K for a dot product, n for a sum of n terms, one per pointwise op, added along a chain (a product term carries
 * the roundings of both factors). {@code narrow} is the relative error, summed worst case, of the stores into
 * bfloat16 or half on that chain (a few per chain, each up to that type's unit roundoff). The allowed difference between a backend's element and the reference's is
 * {@link #allowed}; docs/validation.md gives the rule and the reasoning.
 */
public record ErrorBudget(long roundings, double narrow, double arithmetic) {
    /** Unit roundoff of float32, the type the backends compute every float32-held dtype in. */
    public static final double U_FLOAT = 0x1p-24;
    /** Unit roundoff of float64, the type double (and int64) outputs are computed in. */
    public static final double U_DOUBLE = 0x1p-53;

    /**
     * The probabilistic bound's lambda: a sum of m independent roundings stays within lambda * sqrt(m) * u with
     * probability at least 1 - 2 exp(-lambda^2 / 2) per term (Higham and Mary, 2019); at 10 that is 4e-22.
     */
    public static final double LAMBDA = 10;

    /** No rounding yet (an input): the first op on a chain sets the arithmetic. */
    public static final ErrorBudget EXACT = new ErrorBudget(0, 0, 0);

    public ErrorBudget {
        if (roundings < 0 || !(narrow >= 0) || !(arithmetic >= 0)) {
            throw new IllegalArgumentException("negative error budget");
        }
    }

    /** A budget of float32 roundings. */
    public ErrorBudget(long roundings, double narrow) { this(roundings, narrow, U_FLOAT); }

    /** Unit roundoff of the arithmetic of an op whose output is {@code out}: float64 for a wide dtype. */
    static double arithmetic(DataType out) {
        return DenseTensor.isWide(out) || DenseTensor.isIntegral(out) ? U_DOUBLE : U_FLOAT;
    }

    /** Unit roundoff of a storage type: half the distance from 1 to the next value. */
    public static double unit(DataType dtype) {
        return switch (dtype) {
            case FLOAT -> U_FLOAT;
            case BFLOAT16 -> 0x1p-8;
            case HALF -> 0x1p-11;
            case INT64, INT32, BOOL -> 0;
            case DOUBLE -> U_DOUBLE;
            case FLOAT8_E4M3FN -> 0x1p-4;
            case FLOAT8_E5M2 -> 0x1p-3;
        };
    }

    /**
     * The relative error of storing a result in {@code dtype}: none for float32 and double, whose results are
     * computed in them.
     */
    static double store(DataType dtype) {
        return dtype == DataType.FLOAT || dtype == DataType.DOUBLE ? 0 : unit(dtype);
    }

    /** {@link #factor(long, double)} for float32 roundings. */
    public static double factor(long m) { return factor(m, U_FLOAT); }

    /**
     * The factor f(m) with |error| <= u * f(m) * B for m roundings of unit roundoff u: the deterministic
     * gamma_m / u = m / (1 - m u) while it is the smaller, else the probabilistic lambda * sqrt(m).
     */
    public static double factor(long m, double u) {
        if (m == 0) return 0;
        double worst = m * u < 0.5 ? m / (1 - m * u) : Double.POSITIVE_INFINITY;
        return Math.min(worst, LAMBDA * Math.sqrt(m));
    }

    /**
     * The relative coefficient of B in the allowed difference between two computations that each stay within
     * this budget (the backend's and the reference's): u * f(2 m) + 2 * narrow, u the chain's arithmetic.
     */
    public double coefficient() { return arithmetic * factor(2 * roundings, arithmetic) + 2 * narrow; }

    /**
     * The allowed |actual - expected| for an element with magnitude bound {@code bound} and reference value
     * {@code expected} stored in {@code dtype}: {@link #coefficient()} * bound plus one unit in the last place of
     * the dtype at |expected| (the two sides may round to neighbouring values).
     */
    public double allowed(double bound, double expected, DataType dtype) {
        return coefficient() * bound + 2 * unit(dtype) * Math.abs(expected);
    }

    /** A chain through both operands of an add or sub (their longest), plus the op's rounding. */
    ErrorBudget add(ErrorBudget other, DataType out) {
        return new ErrorBudget(Math.max(roundings, other.roundings) + 1, Math.max(narrow, other.narrow) + store(out),
                widest(other, out));
    }

    /** A product term carries both factors' roundings; relative errors add (and multiply, second order). */
    ErrorBudget multiply(ErrorBudget other, long extra, DataType out) {
        return new ErrorBudget(roundings + other.roundings + extra, narrow + other.narrow + narrow * other.narrow
                + store(out), widest(other, out));
    }

    /** n more roundings (a sum or dot product of n terms) and then {@code narrowStores} stores into {@code out}. */
    ErrorBudget accumulate(long n, long narrowStores, DataType out) {
        return new ErrorBudget(roundings + n, narrow + narrowStores * store(out), widest(this, out));
    }

    /** An operand that the backend converts into the op's dtype before computing (as the CUDA backend does). */
    ErrorBudget convertedTo(DataType from, DataType to) {
        return unit(to) > unit(from) ? new ErrorBudget(roundings, narrow + unit(to), arithmetic) : this;
    }

    /**
     * This budget for a backend whose wide results carry float32 precision (the CUDA backend's host transfers
     * pass each double through a float): float32 arithmetic, and the inputs' conversion to float32 on the way in
     * as two more narrow roundings (the output's on the way out is the 2 u_d |expected| of {@link #allowed}).
     */
    public ErrorBudget computedInFloat32() {
        return new ErrorBudget(roundings, narrow + 2 * U_FLOAT, Math.max(arithmetic, U_FLOAT));
    }

    /** The coarser arithmetic of this chain, {@code other}'s and an op computing into {@code out}. */
    private double widest(ErrorBudget other, DataType out) {
        return Math.max(Math.max(arithmetic, other.arithmetic), arithmetic(out));
    }
}
