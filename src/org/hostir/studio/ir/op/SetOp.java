package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.extentsOf;
import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/** LoadStoreOp Set, and Set.Permute with a {@code permute} attribute. */
final class SetOp implements OpDefinition<FusionOp.Set> {
    public List<String> fileNames() { return List.of("set"); }

    public OpWork work() { return OpWork.COPY; }

    public int minInputs() { return 1; }

    public Set<OpAttribute> attributes() { return Set.of(OpAttribute.PERMUTE); }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.Set(output, inputs.get(0), a.permute());
    }

    public void checkShape(FusionOp.Set s, OpChecks c) {
        List<IterDomain> in = runtime(s.input());
        if (!s.isPermute()) {
            if (c.noReductions(OpRule.SHAPE_SET)) {
                c.sameShape(OpRule.SHAPE_SET, "output", s.output().axes(), extentsOf(in));
            }
            return;
        }
        List<Integer> perm = s.permutation();
        Set<Integer> distinct = new HashSet<>(perm);
        boolean valid = perm.size() == in.size() && distinct.size() == perm.size()
                && perm.stream().allMatch(p -> p >= 0 && p < in.size());
        if (!valid) {
            c.fail(OpRule.SHAPE_PERMUTE, "permute " + perm + " is not a permutation of the input's " + in.size()
                    + " axes " + shape(in));
            return;
        }
        if (!c.noReductions(OpRule.SHAPE_PERMUTE)) return;
        List<Extent> expected = perm.stream().map(p -> in.get(p).extent()).toList();
        c.sameShape(OpRule.SHAPE_PERMUTE, "output", s.output().axes(), expected);
    }

    public void checkDtype(FusionOp.Set s, OpChecks c) { DtypeChecks.same(c, s); }

    public void outputExtents(FusionOp.Set s, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> in = runtime(s.input());
        for (int o = 0; o < e.length && (!s.isPermute() || o < s.permutation().size()); o++) {
            int k = s.isPermute() ? s.permutation().get(o) : o;
            if (k >= 0 && k < in.size()) e[o] = in.get(k).extent();
        }
    }

    public FusionOp withoutAxis(FusionOp.Set s, FusionOp.Set original, int slicedOutAxis) {
        if (!s.isPermute()) return s;
        int dropped = s.permutation().get(slicedOutAxis);
        List<Integer> perm = new ArrayList<>();
        for (int o = 0; o < s.permutation().size(); o++) {
            if (o == slicedOutAxis) continue;
            int p = s.permutation().get(o);
            perm.add(p > dropped ? p - 1 : p);
        }
        return new FusionOp.Set(s.output(), s.input(), perm);
    }

    public <A> List<A> proposedAxes(List<List<A>> in, OpAttributes a, AxisAlgebra<A> x) {
        return ProposedAxes.permuted(in.get(0), a.permute());
    }

    public void dump(FusionOp.Set s, DumpLine d) {
        d.out().append(d.eq()).append(s.isPermute() ? "Set.Permute( " : "Set( ").append(d.tensor(s.input()))
                .append(", cache_op=Streaming )\n");
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("Set") && !name.equals("Set.Permute")) return null;
        TensorView input = in.tensor();
        in.expect(",");
        in.expect("cache_op=Streaming");
        FusionOp op = new FusionOp.Set(out, input);
        if (name.equals("Set.Permute")) {
            List<Integer> permutation = in.permutation(input, out);
            if (permutation == null) throw in.error("Set.Permute whose permutation the axes do not tell");
            op = new FusionOp.Set(out, input, permutation);
        }
        in.expect(")");
        return op;
    }

    public <X extends Exception> String cpp(FusionOp.Set s, ExportNames<X> p) {
        return s.isPermute() ? "permute(" + p.name(s.input()) + ", {" + Spelling.joined(s.permutation()) + "})"
                : "set(" + p.name(s.input()) + ")";
    }

    public <X extends Exception> String python(FusionOp.Set s, ExportNames<X> p) {
        return s.isPermute() ? "fd.ops.permute(" + p.name(s.input()) + ", [" + Spelling.joined(s.permutation()) + "])"
                : "fd.ops.set(" + p.name(s.input()) + ")";
    }
}
