package org.hostir.studio.ir;

import java.util.Optional;

/**
 * Pointwise unary operations of nvFuser's UnaryOp, with the name nvFuser prints ({@code unary_op_type2string})
 * and whether it takes the {@code f} suffix on a float output ({@code needFloatSuffix}: {@code expf(T0)}).
 *
 * <p>{@link #CAST} is UnaryOpType::Cast: the output's dtype is the target, and it prints as nvFuser's cast
 * function for the pair ({@link CastFunctions}). {@link #GELU} is not a UnaryOp in nvFuser: {@code gelu()} is a
 * composite of mul, erf and add; here it is one op, printed {@code gelu(T0)} (see docs/fusion-file-format.md).
 */
public enum UnaryOpType {
    NEG("neg", "neg", false, false),
    ABS("abs", "abs", false, false),
    EXP("exp", "exp", true, true),
    LOG("log", "log", true, true),
    SQRT("sqrt", "sqrt", true, true),
    RSQRT("rsqrt", "rsqrt", true, true),
    TANH("tanh", "tanh", true, true),
    /** nvFuser's UnaryOpType::Erf, which its gelu composite uses: printed {@code erff(T1)} on a float output. */
    ERF("erf", "erf", true, true),
    SIGMOID("sigmoid", "sigmoid", false, true),
    RELU("relu", "relu", false, false),
    GELU("gelu", "gelu", false, true),
    SILU("silu", "silu", false, true),
    /**
     * UnaryOpType::Reciprocal, a float op (NVFUSER_DEFINE_UNARY_FLOAT_OP, csrc/ops/arith.cpp:698 at 81c4b22fd)
     * without the float suffix (needFloatSuffix, csrc/type.cpp:388): what nvFuser's softmax multiplies by
     * (csrc/ops/normalization.cpp:186).
     */
    RECIPROCAL("reciprocal", "reciprocal", false, true),
    CAST("cast", "cast", false, false);

    private final String fileName;
    private final String dumpName;
    private final boolean floatSuffix;
    private final boolean floatOnly;

    UnaryOpType(String fileName, String dumpName, boolean floatSuffix, boolean floatOnly) {
        this.fileName = fileName;
        this.dumpName = dumpName;
        this.floatSuffix = floatSuffix;
        this.floatOnly = floatOnly;
    }

    /** The op's name in fusion files and in nvFuser's Python frontend ({@code fd.ops.exp}). */
    public String fileName() { return fileName; }

    /** The name nvFuser prints before the float suffix. */
    public String dumpName() { return dumpName; }

    /** nvFuser's needFloatSuffix. */
    public boolean floatSuffix() { return floatSuffix; }

    /**
     * Whether nvFuser defines it with NVFUSER_DEFINE_UNARY_FLOAT_OP (or as a float composite): an integral or
     * bool input is promoted to float, so the output is float.
     */
    public boolean floatOnly() { return floatOnly; }

    /** Neg prints inline as {@code -T0} ({@code unary_op_type_inline_op2string}). */
    public Optional<String> inlineSymbol() {
        return this == NEG ? Optional.of("-") : Optional.empty();
    }

    /** The output dtype nvFuser gives this op for {@code input} (not for CAST, whose output names its target). */
    public DataType resultType(DataType input) {
        return floatOnly && !input.isFloatingPoint() ? DataType.FLOAT : input;
    }

    public static Optional<UnaryOpType> fromFileName(String name) {
        for (UnaryOpType t : values()) {
            if (t.fileName.equals(name)) return Optional.of(t);
        }
        return Optional.empty();
    }
}
