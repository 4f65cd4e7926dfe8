package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.extentsOf;
import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/** BroadcastOp: {@code flags[i]} says whether output axis i is a new broadcast axis. */
final class BroadcastOp implements OpDefinition<FusionOp.Broadcast> {
    public List<String> fileNames() { return List.of("broadcast"); }

    public OpWork work() { return OpWork.MOVE; }

    public int minInputs() { return 1; }

    public Set<OpAttribute> attributes() { return Set.of(OpAttribute.FLAGS); }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.Broadcast(output, inputs.get(0), a.flags());
    }

    public void checkShape(FusionOp.Broadcast b, OpChecks c) {
        List<IterDomain> in = runtime(b.input());
        List<IterDomain> out = b.output().axes();
        List<Boolean> flags = b.flags();
        if (!c.noReductions(OpRule.SHAPE_BROADCAST)) return;
        if (flags.size() != out.size()) {
            c.fail(OpRule.SHAPE_BROADCAST, "flags " + flags + " has " + flags.size() + " entries but the output "
                    + shape(out) + " has " + out.size() + " axes (one flag per output axis)");
            return;
        }
        long kept = flags.stream().filter(f -> !f).count();
        if (kept != in.size()) {
            c.fail(OpRule.SHAPE_BROADCAST, "flags " + flags + " keep " + kept + " axes but the input " + shape(in)
                    + " has " + in.size());
            return;
        }
        List<IterDomain> keptOut = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            if (!flags.get(i)) {
                keptOut.add(out.get(i));
            } else if (!out.get(i).isBroadcast()) {
                c.fail(OpRule.SHAPE_BROADCAST, "output axis " + i + " is flagged as new but is not a broadcast axis"
                        + " (write it as {\"extent\": 1, \"iter\": \"broadcast\"})");
                return;
            }
        }
        c.sameShape(OpRule.SHAPE_BROADCAST, "output's kept axes", keptOut, extentsOf(in));
    }

    public void checkDtype(FusionOp.Broadcast b, OpChecks c) { DtypeChecks.same(c, b); }

    public void outputExtents(FusionOp.Broadcast b, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> in = runtime(b.input());
        int i = 0;
        for (int o = 0; o < e.length && o < b.flags().size() && i < in.size(); o++) {
            if (!b.flags().get(o)) e[o] = in.get(i++).extent();
        }
    }

    public FusionOp withoutAxis(FusionOp.Broadcast b, FusionOp.Broadcast original, int slicedOutAxis) {
        List<Boolean> flags = new ArrayList<>(b.flags());
        flags.remove(slicedOutAxis);
        return new FusionOp.Broadcast(b.output(), b.input(), flags);
    }

    public <A> List<A> proposedAxes(List<List<A>> inputs, OpAttributes a, AxisAlgebra<A> x) {
        List<A> in = inputs.get(0);
        List<A> out = new ArrayList<>();
        int next = 0;
        for (boolean f : a.flags()) {
            if (f) out.add(x.broadcast());
            else if (next < in.size()) out.add(in.get(next++));
        }
        while (next < in.size()) out.add(in.get(next++));
        return out;
    }

    /** A new broadcast adds one broadcast axis in front. */
    public <A> OpAttributes defaultAttributes(OpAttributes given, List<List<A>> in, AxisAlgebra<A> x) {
        if (!given.flags().isEmpty()) return given;
        List<Boolean> flags = new ArrayList<>();
        flags.add(true);
        for (int i = 0, rank = in.isEmpty() ? 0 : in.get(0).size(); i < rank; i++) flags.add(false);
        return new OpAttributes(given.axes(), flags, given.permute());
    }

    public void dump(FusionOp.Broadcast b, DumpLine d) {
        d.out().append(d.eq()).append("broadcast( ").append(d.tensor(b.input())).append(Spelling.dumpFlags(b.flags()));
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("broadcast")) return null;
        FusionOp op = new FusionOp.Broadcast(out, in.tensor(), in.flags());
        in.expect(")");
        return op;
    }

    public <X extends Exception> String cpp(FusionOp.Broadcast b, ExportNames<X> p) {
        return "broadcast(" + p.name(b.input()) + ", {" + Spelling.joined(b.flags()) + "})";
    }

    public <X extends Exception> String python(FusionOp.Broadcast b, ExportNames<X> p) {
        return "fd.ops.broadcast(" + p.name(b.input()) + ", ["
                + b.flags().stream().map(f -> f ? "True" : "False").collect(Collectors.joining(", ")) + "])";
    }
}
