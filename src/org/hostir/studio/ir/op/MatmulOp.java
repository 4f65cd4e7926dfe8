package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.choose;
import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/** {@code at::matmul}: 2-D and batched ({@link MatmulShapes}). */
final class MatmulOp implements OpDefinition<FusionOp.Matmul> {
    public List<String> fileNames() { return List.of("matmul"); }

    public OpWork work() { return OpWork.MATMUL; }

    public int minInputs() { return 2; }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.Matmul(output, inputs.get(0), inputs.get(1));
    }

    public void checkShape(FusionOp.Matmul m, OpChecks c) {
        List<IterDomain> a = runtime(m.a());
        List<IterDomain> b = runtime(m.b());
        if (a.isEmpty() || b.isEmpty()) {
            c.fail(OpRule.SHAPE_MATMUL, "operands need at least one axis, got " + shape(a) + " and " + shape(b));
            return;
        }
        IterDomain kA = a.getLast();
        IterDomain kB = b.size() == 1 ? b.getFirst() : b.get(b.size() - 2);
        if (!c.same(kA.extent(), kB.extent())) {
            c.fail(OpRule.SHAPE_MATMUL, "contracted axes differ: " + m.a().label() + " " + shape(a) + " has K = "
                    + c.valued(kA.extent()) + " but " + m.b().label() + " " + shape(b) + " has K = "
                    + c.valued(kB.extent()));
            return;
        }
        List<Extent> expected = MatmulShapes.batch(c, batch(a), batch(b));
        if (expected == null) return;
        if (a.size() > 1) expected.add(a.get(a.size() - 2).extent());
        if (b.size() > 1) expected.add(b.getLast().extent());
        MatmulShapes.output(c, OpRule.SHAPE_MATMUL, m.output(), expected, kA.extent());
    }

    private static List<IterDomain> batch(List<IterDomain> operand) {
        return operand.size() > 2 ? operand.subList(0, operand.size() - 2) : List.of();
    }

    public void checkDtype(FusionOp.Matmul m, OpChecks c) { DtypeChecks.matmul(c, m); }

    /** nvFuser's {@code newForMatmul}: N is B's, the reduction axis takes A's K ({@link Shapes#choose}). */
    public void outputExtents(FusionOp.Matmul m, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> a = runtime(m.a());
        List<IterDomain> b = runtime(m.b());
        if (a.isEmpty() || b.isEmpty()) return;
        List<Extent> kept = new ArrayList<>();
        for (IterDomain x : MatmulShapes.batchAxes(batch(a), batch(b), same)) kept.add(x == null ? null : x.extent());
        if (a.size() > 1) kept.add(a.get(a.size() - 2).extent());
        if (b.size() > 1) kept.add(b.getLast().extent());
        IterDomain kB = b.size() == 1 ? b.getFirst() : b.get(b.size() - 2);
        List<Extent> k = new ArrayList<>();
        k.add(choose(a.getLast(), kB));
        Shapes.fill(e, m.output(), kept, k);
    }

    public <A> List<A> proposedAxes(List<List<A>> in, OpAttributes attributes, AxisAlgebra<A> x) {
        List<A> a = in.get(0);
        List<A> b = in.get(1);
        if (a.isEmpty() || b.isEmpty()) return List.of();
        A k = a.get(a.size() - 1);
        List<A> aBatch = a.size() >= 2 ? a.subList(0, a.size() - 2) : List.of();
        List<A> bBatch = b.size() >= 2 ? b.subList(0, b.size() - 2) : List.of();
        List<A> out = new ArrayList<>(ProposedAxes.batch(aBatch, bBatch, x));
        if (a.size() >= 2) out.add(a.get(a.size() - 2));
        if (b.size() >= 2) out.add(b.get(b.size() - 1));
        out.add(x.contracted(k));
        return out;
    }

    public void dump(FusionOp.Matmul m, DumpLine d) {
        String align = " ".repeat(d.eq().length() + "matmul(".length());
        d.out().append(d.eq()).append("matmul(").append(d.tensor(m.a())).append(",\n")
                .append(align).append(d.tensor(m.b())).append(")\n");
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("matmul")) return null;
        TensorView a = in.tensor();
        in.expect(",");
        FusionOp op = new FusionOp.Matmul(out, a, in.tensor());
        in.expect(")");
        return op;
    }

    public <X extends Exception> String cpp(FusionOp.Matmul m, ExportNames<X> p) {
        return "matmul(" + p.name(m.a()) + ", " + p.name(m.b()) + ")";
    }

    public <X extends Exception> String python(FusionOp.Matmul m, ExportNames<X> p) {
        return "fd.ops.matmul(" + p.name(m.a()) + ", " + p.name(m.b()) + ")";
    }
}
