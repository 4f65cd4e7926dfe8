package org.hostir.studio.io;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.ReductionOpType;

/** The ops a fusion file can use, with the number of inputs each takes. */
public enum OpKind {
    SET("set", 1, 1),
    ADD("add", 2, 2),
    SUB("sub", 2, 2),
    MUL("mul", 2, 2),
    DIV("div", 2, 2),
    SUM("sum", 1, 1),
    MAX("max", 1, 1),
    BROADCAST("broadcast", 1, 1),
    MATMUL("matmul", 2, 2),
    /** input, weight and an optional bias. */
    LINEAR("linear", 2, 3);

    private final String fileName;
    private final int minInputs;
    private final int maxInputs;

    OpKind(String fileName, int minInputs, int maxInputs) {
        this.fileName = fileName;
        this.minInputs = minInputs;
        this.maxInputs = maxInputs;
    }

    public String fileName() { return fileName; }

    public int minInputs() { return minInputs; }

    public int maxInputs() { return maxInputs; }

    public boolean isBinary() { return binaryOp().isPresent(); }

    public boolean isReduction() { return reductionOp().isPresent(); }

    public Optional<BinaryOpType> binaryOp() {
        return switch (this) {
            case ADD -> Optional.of(BinaryOpType.ADD);
            case SUB -> Optional.of(BinaryOpType.SUB);
            case MUL -> Optional.of(BinaryOpType.MUL);
            case DIV -> Optional.of(BinaryOpType.DIV);
            case SET, SUM, MAX, BROADCAST, MATMUL, LINEAR -> Optional.empty();
        };
    }

    public Optional<ReductionOpType> reductionOp() {
        return switch (this) {
            case SUM -> Optional.of(ReductionOpType.SUM);
            case MAX -> Optional.of(ReductionOpType.MAX);
            case SET, ADD, SUB, MUL, DIV, BROADCAST, MATMUL, LINEAR -> Optional.empty();
        };
    }

    public static Optional<OpKind> fromFileName(String name) {
        return Arrays.stream(values()).filter(k -> k.fileName.equals(name)).findFirst();
    }

    /** {@code set, add, ...} for messages. */
    public static String fileNames() {
        return Arrays.stream(values()).map(OpKind::fileName).collect(Collectors.joining(", "));
    }
}
