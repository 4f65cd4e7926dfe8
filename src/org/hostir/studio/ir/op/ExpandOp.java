package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.isUnit;
import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.List;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/** ExpandOp: the input's broadcast axes (extent 1) take the output's extents; the other axes keep theirs. */
final class ExpandOp implements OpDefinition<FusionOp.Expand> {
    public List<String> fileNames() { return List.of("expand"); }

    public OpWork work() { return OpWork.MOVE; }

    public int minInputs() { return 1; }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.Expand(output, inputs.get(0));
    }

    /**
     * Expand keeps every axis but a broadcast (extent 1) one, which takes any extent: nvFuser's expand checks that a
     * concrete non-broadcast extent equals the size asked for (csrc/ops/alias.cpp:1156-1168 at 81c4b22fd, "Invalid
     * expand size"), as PyTorch's expand does ("must match the existing size at non-singleton dimension"). That is
     * checked before the output's symbols, so that a non-broadcast axis is refused for what it is.
     */
    public void checkShape(FusionOp.Expand e, OpChecks c) {
        List<IterDomain> in = runtime(e.input());
        List<IterDomain> out = e.output().axes();
        if (!c.noReductions(OpRule.SHAPE_EXPAND)) return;
        if (in.size() != out.size()) {
            c.fail(OpRule.SHAPE_EXPAND, "the output " + shape(out) + " has " + out.size() + " axes, the input "
                    + shape(in) + " " + in.size());
            return;
        }
        for (int i = 0; i < in.size(); i++) {
            if (!isUnit(in.get(i)) && !c.same(in.get(i).extent(), out.get(i).extent())) {
                c.fail(OpRule.SHAPE_EXPAND, "input axis " + i + " of extent " + c.valued(in.get(i).extent())
                        + " is not a broadcast axis, so it keeps its extent, not " + c.valued(out.get(i).extent())
                        + " (expand only expands broadcast, extent 1, axes)");
                return;
            }
        }
        c.outputSizedByInputs(OpRule.SHAPE_EXPAND);
    }

    public void checkDtype(FusionOp.Expand e, OpChecks c) { DtypeChecks.same(c, e); }

    /** The expanded axes' extents are the file's; the others keep the input's. */
    public void outputExtents(FusionOp.Expand x, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> in = runtime(x.input());
        for (int i = 0; i < e.length && i < in.size(); i++) if (!isUnit(in.get(i))) e[i] = in.get(i).extent();
    }

    /** ExpandOp::toString is one line: the output, " = expand( ", the input. */
    /** The expanded extents are the user's: the input's axes until they are edited. */
    public <A> List<A> proposedAxes(List<List<A>> in, OpAttributes a, AxisAlgebra<A> x) { return in.get(0); }

    public void dump(FusionOp.Expand e, DumpLine d) {
        d.out().setLength(d.out().length() - 1);
        d.out().append(" = expand( ").append(d.tensor(e.input())).append(" )\n");
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("expand")) return null;
        FusionOp op = new FusionOp.Expand(out, in.tensor());
        in.expect(")");
        return op;
    }

    public <X extends Exception> String cpp(FusionOp.Expand e, ExportNames<X> p) throws X {
        return "expand(" + p.name(e.input()) + ", {" + Spelling.cppVals(p.shape(e.output())) + "})";
    }

    public <X extends Exception> String python(FusionOp.Expand e, ExportNames<X> p) throws X {
        return "fd.ops.expand(" + p.name(e.input()) + ", shape=[" + Spelling.joined(p.shape(e.output())) + "])";
    }
}
