package org.hostir.studio.file;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.UnaryOpType;

/**
 * The ops a fusion file can use, with the number of inputs each takes. Each constant names its IR op type once;
 * the file reader, the schema test, the editor's palette and its shape inference dispatch on {@link #family()}, so
 * a new unary, binary or reduction op is one constant here (and one in its IR enum).
 */
public enum OpKind {
    SET("set", Family.SET),
    NEG(UnaryOpType.NEG),
    ABS(UnaryOpType.ABS),
    EXP(UnaryOpType.EXP),
    LOG(UnaryOpType.LOG),
    SQRT(UnaryOpType.SQRT),
    RSQRT(UnaryOpType.RSQRT),
    TANH(UnaryOpType.TANH),
    ERF(UnaryOpType.ERF),
    SIGMOID(UnaryOpType.SIGMOID),
    RELU(UnaryOpType.RELU),
    GELU(UnaryOpType.GELU),
    SILU(UnaryOpType.SILU),
    /** castOp: the output tensor's dtype is the target. */
    CAST(UnaryOpType.CAST),
    ADD(BinaryOpType.ADD),
    SUB(BinaryOpType.SUB),
    MUL(BinaryOpType.MUL),
    DIV(BinaryOpType.DIV),
    SUM(ReductionOpType.SUM),
    MAX(ReductionOpType.MAX),
    MIN(ReductionOpType.MIN),
    PROD(ReductionOpType.PROD),
    /** condition, x, y. */
    WHERE("where", Family.WHERE),
    /** {@code flags}: one per input axis, true where the axis is removed. */
    SQUEEZE("squeeze", Family.SQUEEZE),
    /** the output's axes give the expanded extents. */
    EXPAND("expand", Family.EXPAND),
    /** the output's axes give the new shape. */
    RESHAPE("reshape", Family.RESHAPE),
    BROADCAST("broadcast", Family.BROADCAST),
    MATMUL("matmul", Family.MATMUL),
    /** input, weight and an optional bias. */
    LINEAR("linear", Family.LINEAR);

    /** What kind of IR op a file op becomes. */
    public enum Family { SET, UNARY, BINARY, WHERE, REDUCTION, BROADCAST, SQUEEZE, EXPAND, RESHAPE, MATMUL, LINEAR }

    private final String fileName;
    private final Family family;
    private final Object irType;

    OpKind(String fileName, Family family) {
        this.fileName = fileName;
        this.family = family;
        this.irType = null;
    }

    OpKind(UnaryOpType t) {
        this.fileName = t.fileName();
        this.family = Family.UNARY;
        this.irType = t;
    }

    OpKind(BinaryOpType t) {
        this.fileName = t.fileName();
        this.family = Family.BINARY;
        this.irType = t;
    }

    OpKind(ReductionOpType t) {
        this.fileName = t.fileName();
        this.family = Family.REDUCTION;
        this.irType = t;
    }

    public String fileName() { return fileName; }

    public Family family() { return family; }

    public int minInputs() {
        return switch (family) {
            case SET, UNARY, REDUCTION, BROADCAST, SQUEEZE, EXPAND, RESHAPE -> 1;
            case BINARY, MATMUL, LINEAR -> 2;
            case WHERE -> 3;
        };
    }

    public int maxInputs() { return family == Family.LINEAR ? 3 : minInputs(); }

    public boolean isBinary() { return family == Family.BINARY; }

    public boolean isReduction() { return family == Family.REDUCTION; }

    public boolean isUnary() { return family == Family.UNARY; }

    public Optional<BinaryOpType> binaryOp() {
        return irType instanceof BinaryOpType b ? Optional.of(b) : Optional.empty();
    }

    public Optional<ReductionOpType> reductionOp() {
        return irType instanceof ReductionOpType r ? Optional.of(r) : Optional.empty();
    }

    public Optional<UnaryOpType> unaryOp() {
        return irType instanceof UnaryOpType u ? Optional.of(u) : Optional.empty();
    }

    /** The reductions' file names, for messages ("sum, max, min, prod"). */
    public static String reductionNames() {
        return Arrays.stream(values()).filter(OpKind::isReduction).map(OpKind::fileName)
                .collect(Collectors.joining(", "));
    }

    public static Optional<OpKind> fromFileName(String name) {
        return Arrays.stream(values()).filter(k -> k.fileName.equals(name)).findFirst();
    }

    /** {@code set, add, ...} for messages. */
    public static String fileNames() {
        return Arrays.stream(values()).map(OpKind::fileName).collect(Collectors.joining(", "));
    }
}
