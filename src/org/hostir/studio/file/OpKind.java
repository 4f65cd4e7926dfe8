package org.hostir.studio.file;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.UnaryOpType;
import org.hostir.studio.ir.op.OpAttribute;
import org.hostir.studio.ir.op.OpDefinition;
import org.hostir.studio.ir.op.OpFamily;

/**
 * An op a fusion file can use: its name and its family ({@link OpFamily}, whose definition says everything else).
 * The list is derived from the families' definitions, so a new unary, binary or reduction op is one constant in
 * its IR enum and a new family one definition; the constants below are shorthands for code that names an op.
 */
public record OpKind(String fileName, OpFamily family) {
    private static final List<OpKind> VALUES = derive();

    public static final OpKind SET = named("set");
    /** castOp: the output tensor's dtype is the target. */
    public static final OpKind CAST = named("cast");
    public static final OpKind ADD = named("add");
    public static final OpKind MUL = named("mul");
    public static final OpKind DIV = named("div");
    public static final OpKind SUM = named("sum");
    public static final OpKind MAX = named("max");
    public static final OpKind SQUEEZE = named("squeeze");
    public static final OpKind BROADCAST = named("broadcast");
    public static final OpKind MATMUL = named("matmul");
    public static final OpKind LINEAR = named("linear");

    private static List<OpKind> derive() {
        List<OpKind> all = new ArrayList<>();
        for (OpFamily f : OpFamily.values()) {
            for (String name : f.definition().fileNames()) all.add(new OpKind(name, f));
        }
        return List.copyOf(all);
    }

    private static OpKind named(String name) { return fromFileName(name).orElseThrow(); }

    /** Every file op, in the order of the format (families in {@link OpFamily} order). */
    public static OpKind[] values() { return VALUES.toArray(OpKind[]::new); }

    public OpDefinition<?> definition() { return family.definition(); }

    public int minInputs() { return definition().minInputs(); }

    public int maxInputs() { return definition().maxInputs(); }

    /** Whether ops of this kind carry {@code a}. */
    public boolean takes(OpAttribute a) { return definition().attributes().contains(a); }

    public boolean isBinary() { return family == OpFamily.BINARY; }

    public boolean isReduction() { return family == OpFamily.REDUCTION; }

    public boolean isUnary() { return family == OpFamily.UNARY; }

    public Optional<BinaryOpType> binaryOp() {
        return isBinary() ? Arrays.stream(BinaryOpType.values()).filter(t -> t.fileName().equals(fileName)).findFirst()
                : Optional.empty();
    }

    public Optional<ReductionOpType> reductionOp() {
        return isReduction() ? Arrays.stream(ReductionOpType.values()).filter(t -> t.fileName().equals(fileName))
                .findFirst() : Optional.empty();
    }

    public Optional<UnaryOpType> unaryOp() {
        return isUnary() ? UnaryOpType.fromFileName(fileName) : Optional.empty();
    }

    /** The reductions' file names, for messages ("sum, max, min, prod"). */
    public static String reductionNames() {
        return VALUES.stream().filter(OpKind::isReduction).map(OpKind::fileName).collect(Collectors.joining(", "));
    }

    public static Optional<OpKind> fromFileName(String name) {
        return VALUES.stream().filter(k -> k.fileName.equals(name)).findFirst();
    }

    /** {@code set, add, ...} for messages. */
    public static String fileNames() {
        return VALUES.stream().map(OpKind::fileName).collect(Collectors.joining(", "));
    }

    /** The constant's name as the enum this record replaced spelled it ({@code SET}, {@code ADD}). */
    @Override
    public String toString() { return fileName.toUpperCase(java.util.Locale.ROOT); }
}
