package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.reductions;
import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;

/** ReductionOp: one file op per {@link ReductionOpType}, over {@code axes}; the output keeps them as reduction axes. */
final class ReductionOps implements OpDefinition<FusionOp.Reduction> {
    public List<String> fileNames() {
        return Arrays.stream(ReductionOpType.values()).map(ReductionOpType::fileName).toList();
    }

    public OpWork work() { return OpWork.ELEMENTWISE; }

    public int minInputs() { return 1; }

    public Set<OpAttribute> attributes() { return Set.of(OpAttribute.AXES); }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        ReductionOpType type = Arrays.stream(ReductionOpType.values()).filter(t -> t.fileName().equals(fileName))
                .findFirst().orElseThrow();
        return new FusionOp.Reduction(type, output, inputs.get(0), a.axes());
    }

    public void checkShape(FusionOp.Reduction r, OpChecks c) {
        TensorView in = r.input();
        List<Integer> axes = r.axes();
        if (axes.isEmpty()) {
            c.fail(OpRule.SHAPE_REDUCTION, "no axes to reduce");
            return;
        }
        Set<Integer> distinct = new HashSet<>();
        for (int a : axes) {
            if (a < 0 || a >= in.rank()) {
                c.fail(OpRule.SHAPE_REDUCTION, "axis " + a + " is out of range for input " + shape(in.axes()));
                return;
            }
            if (!distinct.add(a)) {
                c.fail(OpRule.SHAPE_REDUCTION, "axis " + a + " is listed twice");
                return;
            }
            if (in.axis(a).isReduction()) {
                c.fail(OpRule.SHAPE_REDUCTION, "axis " + a + " of input " + shape(in.axes())
                        + " is already a reduction axis");
                return;
            }
        }
        List<Extent> kept = new ArrayList<>();
        List<Extent> reduced = new ArrayList<>();
        split(r, kept, reduced);
        // the reduction axes may sit anywhere among the kept ones (nvFuser's dumps show them moved)
        if (c.sameShape(OpRule.SHAPE_REDUCTION, "output's non-reduction axes", runtime(r.output()), kept)) {
            c.sameShape(OpRule.SHAPE_REDUCTION, "output's reduction axes", reductions(r.output()), reduced);
        }
    }

    /** The input's extents the output keeps, and those it reduces. */
    private static void split(FusionOp.Reduction r, List<Extent> kept, List<Extent> reduced) {
        TensorView in = r.input();
        Set<Integer> reducedAt = new HashSet<>(r.axes());
        for (int i = 0; i < in.rank(); i++) {
            if (reducedAt.contains(i)) {
                reduced.add(in.axis(i).extent());
            } else if (!in.axis(i).isReduction()) {
                kept.add(in.axis(i).extent());
            }
        }
    }

    public void checkDtype(FusionOp.Reduction r, OpChecks c) {
        if (DtypeChecks.noFp8(c, r)) DtypeChecks.same(c, r);
    }

    /**
     * {@code torch.sum}/{@code torch.prod} of bool give int64 (ReduceOps.cpp, promote_integers), as nvFuser's
     * {@code sum} does (csrc/ops/arith.cpp:1476-1481 casts bool and integers to Int): a bool output of them would
     * be a logical or, which neither computes.
     */
    public Optional<String> boolRefusal(FusionOp.Reduction r) {
        if (r.output().dtype() == DataType.BOOL && (r.op() == ReductionOpType.SUM || r.op() == ReductionOpType.PROD)) {
            return Optional.of(r.op().fileName() + " of bool gives int64 in PyTorch and nvFuser, not bool: cast the"
                    + " input to int64 and make " + r.output().label() + " int64");
        }
        return Optional.empty();
    }

    /** The kept axes fill the output's non-reduction axes in order, the reduced ones its reduction axes. */
    public void outputExtents(FusionOp.Reduction r, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<Extent> kept = new ArrayList<>();
        List<Extent> reduced = new ArrayList<>();
        split(r, kept, reduced);
        Shapes.fill(e, r.output(), kept, reduced);
    }

    /** The reduced axes are those the sliced output still marks as reduction axes. */
    public FusionOp withoutAxis(FusionOp.Reduction r, FusionOp.Reduction original, int slicedOutAxis) {
        List<Integer> axes = new ArrayList<>();
        for (int p = 0; p < r.output().rank() && p < r.input().rank(); p++) {
            if (r.output().axis(p).isReduction() && !r.input().axis(p).isReduction()) axes.add(p);
        }
        return new FusionOp.Reduction(r.op(), r.output(), r.input(), axes);
    }

    /** The reduced axes stay in place as reduction axes. */
    public <A> List<A> proposedAxes(List<List<A>> in, OpAttributes a, AxisAlgebra<A> x) {
        List<A> out = new ArrayList<>();
        for (int i = 0; i < in.get(0).size(); i++) {
            out.add(a.axes().contains(i) ? x.reduced(in.get(0).get(i)) : in.get(0).get(i));
        }
        return out;
    }

    /** A new reduction reduces the last axis. */
    public <A> OpAttributes defaultAttributes(OpAttributes given, List<List<A>> in, AxisAlgebra<A> x) {
        int rank = in.isEmpty() ? 0 : in.get(0).size();
        return given.axes().isEmpty() && rank > 0 ? new OpAttributes(List.of(rank - 1), given.flags(), given.permute())
                : given;
    }

    public void dump(FusionOp.Reduction r, DumpLine d) {
        d.out().append(d.eq()).append("reduction( ").append(d.tensor(r.input()))
                .append(", op = ").append(r.op().dumpName())
                .append(", initial value = ").append(r.op().initialValue())
                .append(", allreduce = false )\n");
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("reduction")) return null;
        TensorView input = in.tensor();
        in.expect(",");
        in.expect("op");
        in.expect("=");
        String op = in.word();
        ReductionOpType type = Arrays.stream(ReductionOpType.values()).filter(t -> t.dumpName().equals(op))
                .findFirst().orElseThrow(() -> in.error("unknown reduction op '" + op + "'"));
        in.expect(",");
        in.expect("initial value");
        in.expect("=");
        in.expect(type.initialValue());
        in.expect(",");
        in.expect("allreduce");
        in.expect("=");
        in.expect("false");
        in.expect(")");
        List<Integer> axes = new ArrayList<>();
        for (int i = 0; i < out.rank(); i++) {
            if (out.axis(i).isReduction()) axes.add(i);
        }
        return new FusionOp.Reduction(type, out, input, axes);
    }

    public <X extends Exception> String cpp(FusionOp.Reduction r, ExportNames<X> p) {
        return r.op().fileName() + "(" + p.name(r.input()) + ", {" + Spelling.joined(r.axes()) + "})";
    }

    public <X extends Exception> String python(FusionOp.Reduction r, ExportNames<X> p) {
        return r.op() == ReductionOpType.SUM
                ? "fd.ops.sum(" + p.name(r.input()) + ", [" + Spelling.joined(r.axes()) + "])"
                : "fd.ops." + r.op().fileName() + "(" + p.name(r.input()) + ", dims=[" + Spelling.joined(r.axes())
                        + "], keepdim=False, dtype=DataType.Null)";
    }
}
