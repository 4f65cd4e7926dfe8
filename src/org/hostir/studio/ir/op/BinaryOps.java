package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.runtime;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/** BinaryOp: one file op per {@link BinaryOpType}; operands combine as {@link Pointwise} says. */
final class BinaryOps implements OpDefinition<FusionOp.Binary> {
    public List<String> fileNames() { return Arrays.stream(BinaryOpType.values()).map(BinaryOpType::fileName).toList(); }

    public OpWork work() { return OpWork.ELEMENTWISE; }

    public int minInputs() { return 2; }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        BinaryOpType type = Arrays.stream(BinaryOpType.values()).filter(t -> t.fileName().equals(fileName))
                .findFirst().orElseThrow();
        return new FusionOp.Binary(type, output, inputs.get(0), inputs.get(1));
    }

    public void checkShape(FusionOp.Binary b, OpChecks c) {
        if (!c.noReductions(OpRule.SHAPE_BINARY)) return;
        List<Extent> expected = Pointwise.combined(c, OpRule.SHAPE_BINARY, runtime(b.lhs()), runtime(b.rhs()));
        if (expected != null) c.sameShape(OpRule.SHAPE_BINARY, "output", b.output().axes(), expected);
    }

    public void checkDtype(FusionOp.Binary b, OpChecks c) {
        if (DtypeChecks.noFp8(c, b)) DtypeChecks.same(c, b);
    }

    /**
     * PyTorch's {@code t - u} on bools raises (BinaryOps.cpp sub_check: "Subtraction, the `-` operator, with two
     * bool tensors is not supported"); its div of bools is a float true division.
     */
    public Optional<String> boolRefusal(FusionOp.Binary b) {
        if (b.op() == BinaryOpType.SUB) {
            return Optional.of("subtraction of bool tensors is not supported (PyTorch refuses it: use where, or cast"
                    + " to an integer first)");
        }
        if (b.op() == BinaryOpType.DIV) {
            return Optional.of("div of bool tensors is a float division in PyTorch: cast the operands to float first");
        }
        return Optional.empty();
    }

    public void outputExtents(FusionOp.Binary b, Extent[] e, BiPredicate<Extent, Extent> same) {
        Pointwise.outputExtents(e, runtime(b.lhs()), runtime(b.rhs()));
    }

    public <A> List<A> proposedAxes(List<List<A>> in, OpAttributes a, AxisAlgebra<A> x) {
        return ProposedAxes.pointwise(in.get(0), in.get(1), x);
    }

    public void dump(FusionOp.Binary b, DumpLine d) {
        d.out().append(d.eq()).append(d.tensor(b.lhs())).append('\n')
                .append(d.indent()).append("   ").append(b.op().symbol()).append(' ').append(d.tensor(b.rhs()))
                .append(";\n");
    }

    /** A binary op prints infix ({@code T1\n   + T2;}): the dump reader reads it by its operator symbol. */
    public FusionOp readDump(String name, TensorView out, DumpReader in) { return null; }

    public <X extends Exception> String cpp(FusionOp.Binary b, ExportNames<X> p) {
        return b.op().fileName() + "(" + p.name(b.lhs()) + ", " + p.name(b.rhs()) + ")";
    }

    public <X extends Exception> String python(FusionOp.Binary b, ExportNames<X> p) {
        return "fd.ops." + b.op().fileName() + "(" + p.name(b.lhs()) + ", " + p.name(b.rhs()) + ")";
    }
}
