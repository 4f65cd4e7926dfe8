package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * IndexSelectOp, nvFuser's {@code indexSelect(lookup_tv, dim, index_tv)} (csrc/ops/indexing.cpp:51-110 at
 * 81c4b22fd; {@code at::index_select}): the output is the input with axis {@code dim} replaced by the index's
 * extent, its dtype the input's (indexing.cpp:69); the index is a 1-D integer tensor (the scalar-index short cut,
 * indexing.cpp:84-88, is a select the Studio does not take). nvFuser broadcasts the 1-D index to the input's rank
 * first (indexing.cpp:90-96); the Studio keeps it 1-D and prints the op with the index as written. Printed as
 * IndexSelectOp::toString (csrc/ir/internal_nodes.cpp:212-220): {@code = indexSelect( T0, dim = 0, T1 )}.
 */
final class IndexSelectOp implements OpDefinition<FusionOp.IndexSelect> {
    public List<String> fileNames() { return List.of("index_select"); }

    public OpWork work() { return OpWork.MOVE; }

    public int minInputs() { return 2; }

    public Set<OpAttribute> attributes() { return Set.of(OpAttribute.AXES); }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.IndexSelect(output, inputs.get(0), inputs.get(1), a.axes());
    }

    public void checkShape(FusionOp.IndexSelect s, OpChecks c) {
        if (!c.noReductions(OpRule.SHAPE_INDEX_SELECT)) return;
        List<IterDomain> in = runtime(s.input());
        List<IterDomain> index = runtime(s.indices());
        if (s.axes().size() != 1 || s.dim() >= in.size()) {
            c.fail(OpRule.SHAPE_INDEX_SELECT, "axes " + s.axes() + " must name one axis of the input " + shape(in));
        } else if (index.size() != 1) {
            c.fail(OpRule.SHAPE_INDEX_SELECT, "the index " + s.indices().label() + " " + shape(index) + " must be"
                    + " 1-D (indexing.cpp:92-94)");
        } else if (in.get(s.dim()).isDeviceDim()) {
            c.fail(OpRule.SHAPE_INDEX_SELECT, "input axis " + s.dim() + " is sharded; index_select takes rows of a"
                    + " whole axis");
        } else {
            c.sameShape(OpRule.SHAPE_INDEX_SELECT, "output", s.output().axes(), expected(in, s.dim(), index));
        }
    }

    private static List<Extent> expected(List<IterDomain> in, int dim, List<IterDomain> index) {
        List<Extent> out = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) out.add(i == dim ? index.get(0).extent() : in.get(i).extent());
        return out;
    }

    /** The output has the input's dtype (indexing.cpp:69); the index is int64 or int32 (at::index_select). */
    public void checkDtype(FusionOp.IndexSelect s, OpChecks c) { DtypeChecks.gather(c, s, s.input(), s.indices()); }

    public void outputExtents(FusionOp.IndexSelect s, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> in = runtime(s.input());
        List<IterDomain> index = runtime(s.indices());
        for (int i = 0; i < e.length && i < in.size(); i++) {
            e[i] = i == s.dim() ? (index.size() == 1 ? index.get(0).extent() : null) : in.get(i).extent();
        }
    }

    /** A sliced axis before {@code dim} moves it one place left. */
    public FusionOp withoutAxis(FusionOp.IndexSelect s, FusionOp.IndexSelect original, int slicedOutAxis) {
        int dim = original.dim();
        return new FusionOp.IndexSelect(s.output(), s.input(), s.indices(), slicedOutAxis < dim ? dim - 1 : dim);
    }

    /** The input's axes with axis {@code dim} the index's. */
    public <A> List<A> proposedAxes(List<List<A>> inputs, OpAttributes a, AxisAlgebra<A> x) {
        List<A> out = new ArrayList<>(inputs.get(0));
        int dim = a.axes().isEmpty() ? 0 : a.axes().get(0);
        if (dim < out.size() && !inputs.get(1).isEmpty()) out.set(dim, x.plain(inputs.get(1).get(0)));
        return out;
    }

    /** A new index_select takes axis 0 (the rows, as an MoE layer gathers tokens). */
    public <A> OpAttributes defaultAttributes(OpAttributes given, List<List<A>> in, AxisAlgebra<A> x) {
        if (!given.axes().isEmpty()) return given;
        return new OpAttributes(List.of(0), given.flags(), given.permute());
    }

    public void dump(FusionOp.IndexSelect s, DumpLine d) {
        d.out().append(d.eq()).append("indexSelect( ").append(d.tensor(s.input())).append(", dim = ")
                .append(s.dim()).append(", ").append(d.tensor(s.indices())).append(" )\n");
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("indexSelect")) return null;
        TensorView input = in.tensor();
        in.expect(",");
        in.expect("dim");
        in.expect("=");
        String dim = in.word();
        if (!dim.matches("\\d{1,2}")) throw in.error("indexSelect's dim '" + dim + "' is not an axis position");
        in.expect(",");
        TensorView indices = in.tensor();
        in.expect(")");
        return new FusionOp.IndexSelect(out, input, indices, Integer.parseInt(dim));
    }

    public <X extends Exception> String cpp(FusionOp.IndexSelect s, ExportNames<X> p) throws X {
        return "indexSelect(" + p.name(s.input()) + ", " + s.dim() + ", " + p.name(s.indices()) + ")";
    }

    public <X extends Exception> String python(FusionOp.IndexSelect s, ExportNames<X> p) throws X {
        return "fd.ops.index_select(" + p.name(s.input()) + ", " + p.name(s.indices()) + ", dim=" + s.dim() + ")";
    }
}
