package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.choose;
import static org.hostir.studio.ir.op.Shapes.extent;
import static org.hostir.studio.ir.op.Shapes.extentsOf;
import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/** {@code at::linear}: input [.., K], weight [N, K] (or [K]), an optional bias [N] ({@link MatmulShapes}). */
final class LinearOp implements OpDefinition<FusionOp.Linear> {
    public List<String> fileNames() { return List.of("linear"); }

    public OpWork work() { return OpWork.LINEAR; }

    public int minInputs() { return 2; }

    public int maxInputs() { return 3; }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.Linear(output, inputs.get(0), inputs.get(1), inputs.size() > 2 ? inputs.get(2) : null);
    }

    public void checkShape(FusionOp.Linear l, OpChecks c) {
        List<IterDomain> in = runtime(l.input());
        List<IterDomain> w = runtime(l.weight());
        if (in.isEmpty()) {
            c.fail(OpRule.SHAPE_LINEAR, "the input needs at least one axis [.., K]");
            return;
        }
        if (w.isEmpty() || w.size() > 2) {
            c.fail(OpRule.SHAPE_LINEAR, "the weight " + shape(w) + " must be [N, K] or [K]");
            return;
        }
        Extent k = in.getLast().extent();
        if (!c.same(k, w.getLast().extent())) {
            c.fail(OpRule.SHAPE_LINEAR, "contracted axes differ: input " + shape(in) + " has K = " + c.valued(k)
                    + " but weight " + shape(w) + " has K = " + c.valued(w.getLast().extent()));
            return;
        }
        List<Extent> expected = new ArrayList<>(extentsOf(in.subList(0, in.size() - 1)));
        if (w.size() == 2) {
            Extent n = w.getFirst().extent();
            expected.add(n);
            if (l.bias() != null) {
                List<IterDomain> bias = runtime(l.bias());
                if (bias.size() != 1 || !c.same(bias.getFirst().extent(), n)) {
                    c.fail(OpRule.SHAPE_LINEAR, "the bias " + shape(bias) + " must be [N] = [" + extent(n) + "]");
                    return;
                }
            }
        } else if (l.bias() != null && !runtime(l.bias()).isEmpty()) {
            c.fail(OpRule.SHAPE_LINEAR, "with a 1-D weight [K] the bias must be a scalar, got "
                    + shape(runtime(l.bias())));
            return;
        }
        MatmulShapes.output(c, OpRule.SHAPE_LINEAR, l.output(), expected, k);
    }

    public void checkDtype(FusionOp.Linear l, OpChecks c) { DtypeChecks.matmul(c, l); }

    /** nvFuser's {@code newForLinear}: N from the weight (or the bias), K from the input ({@link Shapes#choose}). */
    public void outputExtents(FusionOp.Linear l, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> in = runtime(l.input());
        List<IterDomain> w = runtime(l.weight());
        if (in.isEmpty() || w.isEmpty()) return;
        List<Extent> kept = new ArrayList<>();
        for (IterDomain x : in.subList(0, in.size() - 1)) kept.add(x.extent());
        if (w.size() == 2) {
            List<IterDomain> bias = l.bias() == null ? List.of() : runtime(l.bias());
            kept.add(choose(w.getFirst(), bias.size() == 1 ? bias.getFirst() : null));
        }
        List<Extent> k = new ArrayList<>();
        k.add(choose(in.getLast(), w.getLast()));
        Shapes.fill(e, l.output(), kept, k);
    }

    public <A> List<A> proposedAxes(List<List<A>> inputs, OpAttributes attributes, AxisAlgebra<A> x) {
        List<A> in = inputs.get(0);
        List<A> w = inputs.get(1);
        if (in.isEmpty() || w.isEmpty()) return List.of();
        List<A> out = new ArrayList<>(in.subList(0, in.size() - 1));
        if (w.size() >= 2) out.add(x.plain(w.get(0)));
        out.add(x.contracted(in.get(in.size() - 1)));
        return out;
    }

    public void dump(FusionOp.Linear l, DumpLine d) {
        String align = " ".repeat(d.eq().length() + "linear(".length());
        d.out().append(d.eq()).append("linear(").append(d.tensor(l.input())).append(",\n")
                .append(align).append(d.tensor(l.weight()));
        if (l.bias() != null) d.out().append(",\n").append(align).append(d.tensor(l.bias()));
        d.out().append(")\n");
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("linear")) return null;
        TensorView input = in.tensor();
        in.expect(",");
        TensorView weight = in.tensor();
        TensorView bias = null;
        if (in.peek(",")) {
            in.expect(",");
            bias = in.tensor();
        }
        in.expect(")");
        return new FusionOp.Linear(out, input, weight, bias);
    }

    public <X extends Exception> String cpp(FusionOp.Linear l, ExportNames<X> p) {
        return "linear(" + p.name(l.input()) + ", " + p.name(l.weight())
                + (l.bias() == null ? "" : ", " + p.name(l.bias())) + ")";
    }

    public <X extends Exception> String python(FusionOp.Linear l, ExportNames<X> p) {
        return "fd.ops.linear(" + p.name(l.input()) + ", " + p.name(l.weight())
                + (l.bias() == null ? "" : ", " + p.name(l.bias())) + ")";
    }
}
