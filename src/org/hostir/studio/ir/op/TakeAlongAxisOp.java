package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.isUnit;
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
 * GatherOp with exact sizes, nvFuser's {@code takeAlongAxis(inp, index, dim)} (csrc/ops/indexing.cpp:306-369 at
 * 81c4b22fd; {@code at::take_along_dim}): the index has the input's rank (indexing.cpp:312-315) and, but along
 * {@code dim}, its extents (an input broadcast axis takes the index's); the output takes the index's axis at
 * {@code dim} and where the input broadcasts, the input's elsewhere (indexing.cpp:345-358), and the input's dtype.
 * Printed as GatherOp::toString (csrc/ir/internal_nodes.cpp:309-321): {@code = takeAlongAxis( T0, T1, dim = 1 )}.
 */
final class TakeAlongAxisOp implements OpDefinition<FusionOp.TakeAlongAxis> {
    public List<String> fileNames() { return List.of("take_along_axis"); }

    public OpWork work() { return OpWork.MOVE; }

    public int minInputs() { return 2; }

    public Set<OpAttribute> attributes() { return Set.of(OpAttribute.AXES); }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.TakeAlongAxis(output, inputs.get(0), inputs.get(1), a.axes());
    }

    public void checkShape(FusionOp.TakeAlongAxis t, OpChecks c) {
        if (!c.noReductions(OpRule.SHAPE_TAKE_ALONG_AXIS)) return;
        List<IterDomain> in = runtime(t.input());
        List<IterDomain> index = runtime(t.indices());
        if (t.axes().size() != 1 || t.dim() >= in.size()) {
            c.fail(OpRule.SHAPE_TAKE_ALONG_AXIS, "axes " + t.axes() + " must name one axis of the input " + shape(in));
            return;
        }
        if (index.size() != in.size()) {
            c.fail(OpRule.SHAPE_TAKE_ALONG_AXIS, "the index " + shape(index) + " must have the input " + shape(in)
                    + "'s " + in.size() + " axes (indexing.cpp:312-315)");
            return;
        }
        if (in.get(t.dim()).isDeviceDim()) {
            c.fail(OpRule.SHAPE_TAKE_ALONG_AXIS, "input axis " + t.dim() + " is sharded; take_along_axis gathers"
                    + " along a whole axis");
            return;
        }
        // a Stream loop would slice the index along dim while the input stays whole: not a form any nvFuser test
        // streams, refused as topk refuses a Stream dim
        for (TensorView tv : List.of(t.indices(), t.output())) {
            if (tv.axes().size() == in.size() && tv.axis(t.dim()).isStream()) {
                c.fail(OpRule.SHAPE_TAKE_ALONG_AXIS, tv.label() + "'s axis " + t.dim() + " is a Stream axis;"
                        + " take_along_axis gathers along a whole axis");
                return;
            }
        }
        List<Extent> expected = expected(t.dim(), in, index);
        for (int i = 0; i < in.size(); i++) {
            if (i != t.dim() && !isUnit(in.get(i)) && !c.same(in.get(i).extent(), index.get(i).extent())) {
                c.fail(OpRule.SHAPE_TAKE_ALONG_AXIS, "index axis " + i + " " + c.valued(index.get(i).extent())
                        + " differs from the input's " + c.valued(in.get(i).extent()));
                return;
            }
        }
        c.sameShape(OpRule.SHAPE_TAKE_ALONG_AXIS, "output", t.output().axes(), expected);
    }

    /** indexing.cpp:351-358: the index's axis at {@code dim} and where the input broadcasts, else the input's. */
    private static List<Extent> expected(int dim, List<IterDomain> in, List<IterDomain> index) {
        List<Extent> out = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            boolean fromIndex = i == dim || in.get(i).isBroadcast() && !index.get(i).isBroadcast();
            out.add(fromIndex ? index.get(i).extent() : in.get(i).extent());
        }
        return out;
    }

    /** The output has the input's dtype (indexing.cpp:362-364); the index is int64 or int32. */
    public void checkDtype(FusionOp.TakeAlongAxis t, OpChecks c) { DtypeChecks.gather(c, t, t.input(), t.indices()); }

    public void outputExtents(FusionOp.TakeAlongAxis t, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> in = runtime(t.input());
        List<IterDomain> index = runtime(t.indices());
        if (in.size() != index.size()) return;
        List<Extent> x = expected(t.dim(), in, index);
        for (int i = 0; i < e.length && i < x.size(); i++) e[i] = x.get(i);
    }

    /** A sliced axis before {@code dim} moves it one place left. */
    public FusionOp withoutAxis(FusionOp.TakeAlongAxis t, FusionOp.TakeAlongAxis original, int slicedOutAxis) {
        int dim = original.dim();
        return new FusionOp.TakeAlongAxis(t.output(), t.input(), t.indices(), slicedOutAxis < dim ? dim - 1 : dim);
    }

    /** The index's axes. */
    public <A> List<A> proposedAxes(List<List<A>> inputs, OpAttributes a, AxisAlgebra<A> x) {
        return inputs.get(1).stream().map(x::plain).toList();
    }

    /** A new take_along_axis gathers along the last axis (as a top-k's indices pick among experts). */
    public <A> OpAttributes defaultAttributes(OpAttributes given, List<List<A>> in, AxisAlgebra<A> x) {
        if (!given.axes().isEmpty() || in.isEmpty()) return given;
        return new OpAttributes(List.of(Math.max(0, in.get(0).size() - 1)), given.flags(), given.permute());
    }

    public void dump(FusionOp.TakeAlongAxis t, DumpLine d) {
        d.out().append(d.eq()).append("takeAlongAxis( ").append(d.tensor(t.input())).append(", ")
                .append(d.tensor(t.indices())).append(", dim = ").append(t.dim()).append(" )\n");
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("takeAlongAxis")) return null;
        TensorView input = in.tensor();
        in.expect(",");
        TensorView indices = in.tensor();
        in.expect(",");
        in.expect("dim");
        in.expect("=");
        String dim = in.word();
        if (!dim.matches("\\d{1,2}")) throw in.error("takeAlongAxis's dim '" + dim + "' is not an axis position");
        in.expect(")");
        return new FusionOp.TakeAlongAxis(out, input, indices, Integer.parseInt(dim));
    }

    public <X extends Exception> String cpp(FusionOp.TakeAlongAxis t, ExportNames<X> p) throws X {
        return "takeAlongAxis(" + p.name(t.input()) + ", " + p.name(t.indices()) + ", " + t.dim() + ")";
    }

    public <X extends Exception> String python(FusionOp.TakeAlongAxis t, ExportNames<X> p) throws X {
        return "fd.ops.take_along_axis(" + p.name(t.input()) + ", " + p.name(t.indices()) + ", dim=" + t.dim() + ")";
    }
}
