package org.hostir.studio.exec.tensor;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.UnaryOpType;

/**
 * Unary pointwise ops and casts on host tensors, in float32 like the other pointwise kernels (the transcendental
 * functions through double, then rounded once), in float64 into a wide output (double), or in int64 into an integer
 * one (neg, abs and relu keep an integer's dtype, and wrap: -(-2^31) is -2^31 in int32, as in C++). The formulas
 * are PyTorch's: gelu is the exact erf form, relu and the other ops keep NaN. A cast is a copy into the output's
 * dtype, rounded once on store ({@link Rounding}), as nvFuser's cast functions convert.
 */
public final class UnaryKernels {
    private UnaryKernels() {}

    static DenseTensor compute(FusionOp.Unary u, DenseTensor input) {
        DenseTensor out = DenseTensor.zeros(input.shape(), u.output().dtype());
        if (u.op() == UnaryOpType.CAST) {
            out.copyFrom(input); // one rounding from the source's storage into the output's dtype
            return out;
        }
        DenseTensor x = input.contiguous().storedLike(out);
        int off = x.offset;
        if (out.isIntegral()) {
            long[] in = x.ints;
            for (int i = 0; i < out.ints.length; i++) out.writeLong(i, apply(u.op(), in[off + i]));
            return out;
        }
        if (out.isWide()) {
            double[] in = x.wide;
            double[] o = out.wide;
            for (int i = 0; i < o.length; i++) o[i] = apply(u.op(), in[off + i]);
            return out;
        }
        float[] in = x.data;
        float[] o = out.data;
        for (int i = 0; i < o.length; i++) o[i] = apply(u.op(), in[off + i]);
        return out;
    }

    /**
     * The op on one float32 value: the double formula rounded once to float32, which is what the float32 kernels
     * always computed (the transcendentals went through double; negation, abs, relu and the cast are exact).
     */
    public static float apply(UnaryOpType op, float x) { return (float) apply(op, (double) x); }

    /**
     * The op on one integer, for the ops that keep an integer's dtype (the dtype rules of ir.op.UnaryOps: the
     * float ops give float);
     * another op goes through double and truncates.
     */
    static long apply(UnaryOpType op, long x) {
        return switch (op) {
            case NEG -> -x;
            case ABS -> Math.abs(x);
            case RELU -> Math.max(x, 0);
            case CAST -> x;
            case EXP, LOG, SQRT, RSQRT, TANH, ERF, SIGMOID, GELU, SILU, RECIPROCAL -> (long) apply(op, (double) x);
        };
    }

    /** The op on one float64 value (a cast into a wide dtype from a float32 tensor widens exactly). */
    public static double apply(UnaryOpType op, double x) {
        return switch (op) {
            case NEG -> -x;
            case ABS -> Math.abs(x);
            case EXP -> Math.exp(x);
            case LOG -> Math.log(x);
            case SQRT -> Math.sqrt(x);
            case RSQRT -> 1 / Math.sqrt(x);
            case TANH -> Math.tanh(x);
            case ERF -> Erf.erf(x);
            case SIGMOID -> 1 / (1 + Math.exp(-x));
            case RELU -> x > 0 || Double.isNaN(x) ? x : 0;
            case GELU -> 0.5 * x * (1 + Erf.erf(x / Math.sqrt(2)));
            case SILU -> x / (1 + Math.exp(-x));
            case RECIPROCAL -> 1 / x;
            case CAST -> x;
        };
    }

    /**
     * A bound on |f'| near {@code x} (with {@code fx = f(x)}): how far an error in the input moves the output, to
     * first order. Constant for the ops with a bounded slope (gelu's largest slope is about 1.13, silu's 1.10).
     */
    static double slope(UnaryOpType op, float x, float fx) {
        return switch (op) {
            case NEG, ABS, RELU, CAST, TANH -> 1;
            case SIGMOID -> 0.25;
            case GELU -> 1.13;
            case ERF -> 1.13; // 2 / sqrt(pi), at 0
            case SILU -> 1.1;
            case EXP -> Math.abs(fx);
            case LOG -> 1 / Math.abs((double) x);
            case SQRT -> 0.5 / Math.abs((double) fx);
            case RSQRT -> 0.5 * Math.pow(Math.abs((double) fx), 3);
            case RECIPROCAL -> (double) fx * fx;
        };
    }
}
