package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.isUnit;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/** SqueezeOp: {@code flags[i]} says whether input axis i (a broadcast axis, or extent 1) is removed. */
final class SqueezeOp implements OpDefinition<FusionOp.Squeeze> {
    public List<String> fileNames() { return List.of("squeeze"); }

    public OpWork work() { return OpWork.MOVE; }

    public int minInputs() { return 1; }

    public Set<OpAttribute> attributes() { return Set.of(OpAttribute.FLAGS); }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.Squeeze(output, inputs.get(0), a.flags());
    }

    public void checkShape(FusionOp.Squeeze q, OpChecks c) {
        List<IterDomain> in = q.input().axes();
        if (!c.noReductions(OpRule.SHAPE_SQUEEZE)) return;
        if (q.flags().size() != in.size()) {
            c.fail(OpRule.SHAPE_SQUEEZE, "flags " + q.flags() + " has " + q.flags().size() + " entries but the input "
                    + shape(in) + " has " + in.size() + " axes (one flag per input axis)");
            return;
        }
        List<Extent> kept = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            IterDomain a = in.get(i);
            if (a.isReduction()) continue;
            if (!q.flags().get(i)) {
                kept.add(a.extent());
            } else if (!isUnit(a) || a.isDeviceDim()) {
                c.fail(OpRule.SHAPE_SQUEEZE, "input axis " + i + " of " + shape(in) + " is flagged but is not a"
                        + " broadcast axis of extent 1");
                return;
            }
        }
        c.sameShape(OpRule.SHAPE_SQUEEZE, "output", q.output().axes(), kept);
    }

    public void checkDtype(FusionOp.Squeeze q, OpChecks c) { DtypeChecks.same(c, q); }

    public void outputExtents(FusionOp.Squeeze q, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> in = q.input().axes();
        int o = 0;
        for (int i = 0; i < in.size() && i < q.flags().size() && o < e.length; i++) {
            if (!q.flags().get(i) && !in.get(i).isReduction()) e[o++] = in.get(i).extent();
        }
    }

    /** The flag of the input axis that became the sliced output axis goes. */
    public FusionOp withoutAxis(FusionOp.Squeeze q, FusionOp.Squeeze original, int slicedOutAxis) {
        List<Boolean> flags = new ArrayList<>(q.flags());
        int in = AxisMap.producerAxis(original, 0, slicedOutAxis);
        if (in != AxisMap.NONE && in < flags.size()) flags.remove(in);
        return new FusionOp.Squeeze(q.output(), q.input(), flags);
    }

    /** The input's axes without the flagged ones. */
    public <A> List<A> proposedAxes(List<List<A>> inputs, OpAttributes a, AxisAlgebra<A> x) {
        List<A> in = inputs.get(0);
        List<A> out = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            if (i >= a.flags().size() || !a.flags().get(i)) out.add(in.get(i));
        }
        return out;
    }

    /** A new squeeze removes the input's broadcast and extent-1 axes. */
    public <A> OpAttributes defaultAttributes(OpAttributes given, List<List<A>> in, AxisAlgebra<A> x) {
        if (!given.flags().isEmpty() || in.isEmpty()) return given;
        return new OpAttributes(given.axes(), in.get(0).stream().map(x::isUnit).toList(), given.permute());
    }

    public void dump(FusionOp.Squeeze q, DumpLine d) {
        d.out().append(d.eq()).append("squeeze( ").append(d.tensor(q.input())).append(Spelling.dumpFlags(q.flags()));
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("squeeze")) return null;
        FusionOp op = new FusionOp.Squeeze(out, in.tensor(), in.flags());
        in.expect(")");
        return op;
    }

    public <X extends Exception> String cpp(FusionOp.Squeeze q, ExportNames<X> p) {
        return "squeeze(" + p.name(q.input()) + ", std::vector<int64_t>{" + Spelling.joined(Spelling.flagged(q.flags()))
                + "})";
    }

    public <X extends Exception> String python(FusionOp.Squeeze q, ExportNames<X> p) {
        return "fd.ops.squeeze(" + p.name(q.input()) + ", dims=[" + Spelling.joined(Spelling.flagged(q.flags())) + "])";
    }
}
