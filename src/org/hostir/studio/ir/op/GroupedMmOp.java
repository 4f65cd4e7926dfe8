package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.choose;
import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.List;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * GroupedMmaOp without scales, alpha or bias, nvFuser's {@code grouped_mm(mat1, mat2, offsets)} (the shapes of
 * createGroupedMmaOutput, csrc/ops/arith.cpp:2279-2368 at 81c4b22fd; the values of its fallback,
 * csrc/ir/composite_nodes.cpp:1166-1220): [m, k] x [k, n] -> [g, m, n], [g, m, k] x [k, n] -> [m, n] and
 * [m, k] x [g, k, n] -> [m, n], each with a reduction axis rk last (arith.cpp:2345-2351); offsets are 1-D
 * (arith.cpp:2315) int32 (composite_nodes.cpp:1177); the output's dtype is the op's {@code dtype}, the file's output
 * dtype. Its sharded forms are {@link GroupedMmSharding}'s. Printed as GroupedMmaOp::toString
 * (composite_nodes.cpp:947-972): {@code T3 = GroupedMmaOp(mat1=T0, mat2=T1, offsets=T2)} on the output's line.
 */
final class GroupedMmOp implements OpDefinition<FusionOp.GroupedMm> {
    public List<String> fileNames() { return List.of("grouped_mm"); }

    public OpWork work() { return OpWork.MATMUL; }

    public int minInputs() { return 3; }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.GroupedMm(output, inputs.get(0), inputs.get(1), inputs.get(2));
    }

    public void checkShape(FusionOp.GroupedMm m, OpChecks c) {
        List<IterDomain> a = runtime(m.a());
        List<IterDomain> b = runtime(m.b());
        List<IterDomain> offsets = runtime(m.offsets());
        if (offsets.size() != 1) {
            c.fail(OpRule.SHAPE_GROUPED_MM, "offsets " + m.offsets().label() + " " + shape(offsets) + " must be 1-D"
                    + " (arith.cpp:2315)");
        } else if (a.size() + b.size() < 4 || a.size() + b.size() > 5 || a.size() < 2 || b.size() < 2) {
            c.fail(OpRule.SHAPE_GROUPED_MM, "operands " + shape(a) + " and " + shape(b) + " must be 2-D and 2-D, 3-D"
                    + " and 2-D, or 2-D and 3-D (two 3-D operands are a batched matmul, arith.cpp:2338)");
        } else if (contracted(c, m, a, b) && groups(c, m, a, b, offsets.get(0))) {
            if (MatmulShapes.output(c, OpRule.SHAPE_GROUPED_MM, m.output(), expected(a, b, offsets.get(0)),
                    a.getLast().extent())) {
                GroupedMmSharding.check(m, c);
            }
        }
    }

    private static boolean contracted(OpChecks c, FusionOp.GroupedMm m, List<IterDomain> a, List<IterDomain> b) {
        IterDomain kA = a.getLast();
        IterDomain kB = b.get(b.size() - 2);
        if (kA.isBroadcast() || kB.isBroadcast() || !c.same(kA.extent(), kB.extent())) {
            c.fail(OpRule.SHAPE_GROUPED_MM, "contracted axes differ: " + m.a().label() + " " + shape(a) + " has K = "
                    + c.valued(kA.extent()) + " but " + m.b().label() + " " + shape(b) + " has K = "
                    + c.valued(kB.extent()));
            return false;
        }
        return true;
    }

    /** A 3-D operand's group axis has the offsets' extent (the fallback pairs them, composite_nodes.cpp:1197-1207). */
    private static boolean groups(OpChecks c, FusionOp.GroupedMm m, List<IterDomain> a, List<IterDomain> b,
                                  IterDomain g) {
        IterDomain grouped = a.size() == 3 ? a.getFirst() : b.size() == 3 ? b.getFirst() : null;
        if (grouped != null && !c.same(grouped.extent(), g.extent())) {
            c.fail(OpRule.SHAPE_GROUPED_MM, "the group axis " + c.valued(grouped.extent()) + " differs from the "
                    + c.valued(g.extent()) + " offsets of " + m.offsets().label());
            return false;
        }
        return true;
    }

    /** createGroupedMmaOutput's three cases (arith.cpp:2322-2341). */
    private static List<Extent> expected(List<IterDomain> a, List<IterDomain> b, IterDomain g) {
        Extent rows = a.get(a.size() - 2).extent();
        Extent cols = b.getLast().extent();
        return a.size() == 2 && b.size() == 2 ? List.of(g.extent(), rows, cols) : List.of(rows, cols);
    }

    /** mat1 and mat2 of one floating dtype, int32 offsets, a floating output (the op's dtype). */
    public void checkDtype(FusionOp.GroupedMm m, OpChecks c) {
        DataType out = m.output().dtype();
        if (m.offsets().dtype() != DataType.INT32) {
            c.fail(OpRule.DTYPE_MISMATCH, "offsets " + m.offsets().label() + " is " + m.offsets().dtype().fileName()
                    + ", not int32 (GroupedMmaOp's offsets, composite_nodes.cpp:1177)");
        } else if (m.a().dtype() != m.b().dtype()) {
            c.fail(OpRule.DTYPE_MISMATCH, "dtypes differ: " + m.a().label() + " is " + m.a().dtype().fileName()
                    + ", " + m.b().label() + " is " + m.b().dtype().fileName());
        } else if (!gemm(m.a().dtype()) || !gemm(out)) {
            c.fail(OpRule.DTYPE_MATMUL, "grouped_mm of " + m.a().dtype().fileName() + " into " + out.fileName()
                    + ": it multiplies float, bfloat16, half or double");
        }
    }

    private static boolean gemm(DataType t) {
        return t == DataType.FLOAT || t == DataType.BFLOAT16 || t == DataType.HALF || t == DataType.DOUBLE;
    }

    public void outputExtents(FusionOp.GroupedMm m, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> a = runtime(m.a());
        List<IterDomain> b = runtime(m.b());
        List<IterDomain> offsets = runtime(m.offsets());
        if (a.size() < 2 || b.size() < 2 || offsets.size() != 1) return;
        Shapes.fill(e, m.output(), expected(a, b, offsets.get(0)), List.of(choose(a.getLast(), b.get(b.size() - 2))));
    }

    public <A> List<A> proposedAxes(List<List<A>> in, OpAttributes attributes, AxisAlgebra<A> x) {
        List<A> a = in.get(0);
        List<A> b = in.get(1);
        if (a.size() < 2 || b.size() < 2 || in.get(2).isEmpty()) return List.of();
        A rows = x.plain(a.get(a.size() - 2));
        A cols = x.plain(b.getLast());
        A k = x.contracted(a.getLast());
        return a.size() == 2 && b.size() == 2 ? List.of(x.plain(in.get(2).getFirst()), rows, cols, k)
                : List.of(rows, cols, k);
    }

    /** On the output's line, as GroupedMmaOp::toString writes it; {@link #printsOutput}. */
    public void dump(FusionOp.GroupedMm m, DumpLine d) {
        d.out().append(d.indent()).append(d.tensor(m.output())).append(" = GroupedMmaOp(mat1=")
                .append(d.tensor(m.a())).append(", mat2=").append(d.tensor(m.b())).append(", offsets=")
                .append(d.tensor(m.offsets())).append(")\n");
    }

    public boolean printsOutput() { return true; }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("GroupedMmaOp")) return null;
        TensorView a = keyed(in, "mat1");
        in.expect(",");
        TensorView b = keyed(in, "mat2");
        in.expect(",");
        TensorView offsets = keyed(in, "offsets");
        in.expect(")");
        return new FusionOp.GroupedMm(out, a, b, offsets);
    }

    private static TensorView keyed(DumpReader in, String key) {
        in.expect(key);
        in.expect("=");
        return in.tensor();
    }

    public <X extends Exception> String cpp(FusionOp.GroupedMm m, ExportNames<X> p) {
        return "grouped_mm(" + p.name(m.a()) + ", " + p.name(m.b()) + ", " + p.name(m.offsets()) + ").tv";
    }

    public <X extends Exception> String python(FusionOp.GroupedMm m, ExportNames<X> p) {
        return "fd.ops.grouped_mm(" + p.name(m.a()) + ", " + p.name(m.b()) + ", " + p.name(m.offsets()) + ")";
    }
}
