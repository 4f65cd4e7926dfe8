package org.hostir.studio.ir.print;

import java.util.function.Function;
import java.util.stream.Collectors;

import org.hostir.studio.ir.CastFunctions;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.UnaryOpType;

/**
 * Prints fusion ops as nvFuser does: the output on one line, {@code   = op( ... )} on the next, with matmul and
 * linear operands aligned under the first one.
 */
final class FusionOpPrinter {
    private FusionOpPrinter() {}

    static void print(FusionOp op, String indent, StringBuilder out, NvFuserGeneration g) {
        Function<TensorView, String> tensor = tv -> IrText.tensor(tv, g);
        out.append(indent).append(tensor.apply(op.output())).append('\n');
        String eq = indent + "   = ";
        switch (op) {
            case FusionOp.Set s -> out.append(eq).append(s.isPermute() ? "Set.Permute( " : "Set( ")
                    .append(tensor.apply(s.input())).append(", cache_op=Streaming )\n");
            case FusionOp.Unary u -> out.append(eq).append(unary(u, tensor.apply(u.input()))).append(";\n");
            // TernaryOp::toString: each operand after the first on its own line, led by ", "
            case FusionOp.Where w -> out.append(eq).append("where(").append(tensor.apply(w.condition())).append('\n')
                    .append(indent).append("  , ").append(tensor.apply(w.x())).append('\n')
                    .append(indent).append("  , ").append(tensor.apply(w.y())).append(");\n");
            case FusionOp.Squeeze q -> out.append(eq).append("squeeze( ").append(tensor.apply(q.input()))
                    .append(", flags = {")
                    .append(q.flags().stream().map(String::valueOf).collect(Collectors.joining(", ")))
                    .append("} )\n");
            // ExpandOp::toString is one line: the output, " = expand( ", the input
            // ReshapeOp::toString is one line, as ExpandOp's (nvFuser also marks reshaped axes "rf", not kept here)
            case FusionOp.Reshape r -> {
                out.setLength(out.length() - 1);
                out.append(" = reshape( ").append(tensor.apply(r.input())).append(" )\n");
            }
            case FusionOp.Expand e -> {
                out.setLength(out.length() - 1);
                out.append(" = expand( ").append(tensor.apply(e.input())).append(" )\n");
            }
            case FusionOp.Binary b -> out.append(eq).append(tensor.apply(b.lhs())).append('\n')
                    .append(indent).append("   ").append(b.op().symbol()).append(' ').append(tensor.apply(b.rhs()))
                    .append(";\n");
            case FusionOp.Reduction r -> out.append(eq).append("reduction( ").append(tensor.apply(r.input()))
                    .append(", op = ").append(r.op().dumpName())
                    .append(", initial value = ").append(r.op().initialValue())
                    .append(", allreduce = false )\n");
            case FusionOp.Broadcast b -> out.append(eq).append("broadcast( ").append(tensor.apply(b.input()))
                    .append(", flags = {")
                    .append(b.flags().stream().map(String::valueOf).collect(Collectors.joining(", ")))
                    .append("} )\n");
            case FusionOp.Matmul m -> {
                String align = " ".repeat(eq.length() + "matmul(".length());
                out.append(eq).append("matmul(").append(tensor.apply(m.a())).append(",\n")
                        .append(align).append(tensor.apply(m.b())).append(")\n");
            }
            case FusionOp.Linear l -> {
                String align = " ".repeat(eq.length() + "linear(".length());
                out.append(eq).append("linear(").append(tensor.apply(l.input())).append(",\n")
                        .append(align).append(tensor.apply(l.weight()));
                if (l.bias() != null) out.append(",\n").append(align).append(tensor.apply(l.bias()));
                out.append(")\n");
            }
        }
    }

    /**
     * UnaryOp::printHelper: the inline symbol ({@code -T0}), the cast function of the dtype pair, or the op's
     * name with {@code f} on a float output where needFloatSuffix says so ({@code expf(T0)}).
     */
    static String unary(FusionOp.Unary u, String input) {
        if (u.op().inlineSymbol().isPresent()) return u.op().inlineSymbol().get() + input;
        String name = u.op() == UnaryOpType.CAST
                ? CastFunctions.name(u.input().dtype(), u.output().dtype()).orElse("cast")
                : u.op().dumpName() + (u.output().dtype() == DataType.FLOAT && u.op().floatSuffix() ? "f" : "");
        return name + "(" + input + ")";
    }
}
