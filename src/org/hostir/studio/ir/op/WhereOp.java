package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.choose;
import static org.hostir.studio.ir.op.Shapes.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;

/** TernaryOp where(condition, x, y): x and y combine as a binary op's operands, then the condition with them. */
final class WhereOp implements OpDefinition<FusionOp.Where> {
    public List<String> fileNames() { return List.of("where"); }

    public OpWork work() { return OpWork.ELEMENTWISE; }

    public int minInputs() { return 3; }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.Where(output, inputs.get(0), inputs.get(1), inputs.get(2));
    }

    public void checkShape(FusionOp.Where w, OpChecks c) {
        if (!c.noReductions(OpRule.SHAPE_WHERE)) return;
        List<Extent> xy = Pointwise.combined(c, OpRule.SHAPE_WHERE, runtime(w.x()), runtime(w.y()));
        if (xy == null) return;
        List<IterDomain> cond = runtime(w.condition());
        List<IterDomain> xyAxes = new ArrayList<>();
        for (Extent e : xy) xyAxes.add(new IterDomain(0, e, IterType.ITERATION, ParallelType.SERIAL));
        List<Extent> expected = Pointwise.combined(c, OpRule.SHAPE_WHERE, cond, xyAxes);
        if (expected != null) c.sameShape(OpRule.SHAPE_WHERE, "output", w.output().axes(), expected);
    }

    /** A bool condition, x, y and the output of one dtype (nvFuser promotes otherwise). */
    public void checkDtype(FusionOp.Where w, OpChecks c) {
        if (!DtypeChecks.noFp8(c, w)) return;
        if (w.condition().dtype() != DataType.BOOL) {
            c.fail(OpRule.DTYPE_MISMATCH, "the condition " + w.condition().label() + " is "
                    + w.condition().dtype().fileName() + ", not bool");
        } else if (w.x().dtype() != w.output().dtype() || w.y().dtype() != w.output().dtype()) {
            c.fail(OpRule.DTYPE_MISMATCH, "dtypes differ: " + DtypeChecks.listed(w));
        }
    }

    public void outputExtents(FusionOp.Where w, Extent[] e, BiPredicate<Extent, Extent> same) {
        Pointwise.outputExtents(e, runtime(w.x()), runtime(w.y()));
        List<IterDomain> c = runtime(w.condition());
        for (int i = 0; i < e.length && i < c.size(); i++) if (e[i] == null) e[i] = choose(c.get(i));
    }

    /** TernaryOp::toString: each operand after the first on its own line, led by ", ". */
    /** x and y combined (the condition follows them). */
    public <A> List<A> proposedAxes(List<List<A>> in, OpAttributes a, AxisAlgebra<A> x) {
        return ProposedAxes.pointwise(in.get(1), in.get(2), x);
    }

    public void dump(FusionOp.Where w, DumpLine d) {
        d.out().append(d.eq()).append("where(").append(d.tensor(w.condition())).append('\n')
                .append(d.indent()).append("  , ").append(d.tensor(w.x())).append('\n')
                .append(d.indent()).append("  , ").append(d.tensor(w.y())).append(");\n");
    }

    /** {@code where(c\n, x\n, y);}. */
    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("where")) return null;
        TensorView condition = in.tensor();
        in.expect(",");
        TensorView x = in.tensor();
        in.expect(",");
        TensorView y = in.tensor();
        in.expect(")");
        in.expect(";");
        return new FusionOp.Where(out, condition, x, y);
    }

    public <X extends Exception> String cpp(FusionOp.Where w, ExportNames<X> p) {
        return "where(" + p.name(w.condition()) + ", " + p.name(w.x()) + ", " + p.name(w.y()) + ")";
    }

    public <X extends Exception> String python(FusionOp.Where w, ExportNames<X> p) {
        return "fd.ops.where(" + p.name(w.condition()) + ", " + p.name(w.x()) + ", " + p.name(w.y()) + ")";
    }
}
