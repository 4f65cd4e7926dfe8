package org.hostir.studio.exec.cuda;

import org.hostir.studio.ir.UnaryOpType;

/**
 * The CUDA C expression of each unary op over the float {@code x} that a MAP kernel loads ({@link Kernels}); the
 * store converts to the output's dtype, so a cast is the identity here. The formulas are PyTorch's: gelu is the
 * exact (erf) form, relu keeps NaN.
 */
final class PointwiseExpressions {
    private PointwiseExpressions() {}

    /**
     * The expression in double where the kernel computes in double ({@link KernelCode#wide}): the float form with
     * each float function (expf, erff, ...) and literal (1.0f) in its double spelling.
     */
    static String unary(UnaryOpType op, boolean wide) {
        String e = unary(op);
        return wide ? e.replaceAll("\\b([a-z]+)f\\(", "$1(").replaceAll("(\\d)f\\b", "$1") : e;
    }

    static String unary(UnaryOpType op) {
        return switch (op) {
            case NEG -> "-x";
            case ABS -> "fabsf(x)";
            case EXP -> "expf(x)";
            case LOG -> "logf(x)";
            case SQRT -> "sqrtf(x)";
            case RSQRT -> "rsqrtf(x)";
            case TANH -> "tanhf(x)";
            case ERF -> "erff(x)";
            case SIGMOID -> "1.0f / (1.0f + expf(-x))";
            case RELU -> "(x > 0.0f || x != x) ? x : 0.0f";
            case GELU -> "0.5f * x * (1.0f + erff(x * 0.70710678118654752f))";
            case SILU -> "x / (1.0f + expf(-x))";
            case RECIPROCAL -> "1.0f / x";
            case CAST -> "x";
        };
    }
}
