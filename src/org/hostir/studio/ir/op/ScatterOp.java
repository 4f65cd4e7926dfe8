package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * ScatterOp, nvFuser's {@code scatter(self, dim, index, src)} without accumulation (csrc/ops/indexing.cpp:197-303 at
 * 81c4b22fd; evaluated as {@code at::scatter}, csrc/ir/internal_nodes.cpp:396-460): self, index and src have one
 * rank (indexing.cpp:228-235), the output self's shape and dtype (indexing.cpp:254-265); PyTorch wants an int64
 * index no larger than src anywhere and than self off {@code dim}, and src in self's dtype. nvFuser leaves a scatter
 * output unsharded (csrc/multidevice/propagation.cpp:107-114: "It is not clear to me what device / stream
 * parallelization would mean on scatter output"), so the Studio refuses a sharded axis on any of its tensors.
 * Printed as ScatterOp::toString (internal_nodes.cpp:374-386): {@code = scatter(in = T0, dim = 0, src = T2, idx = T1 )}.
 */
final class ScatterOp implements OpDefinition<FusionOp.Scatter> {
    public List<String> fileNames() { return List.of("scatter"); }

    public OpWork work() { return OpWork.MOVE; }

    public int minInputs() { return 3; }

    public Set<OpAttribute> attributes() { return Set.of(OpAttribute.AXES); }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.Scatter(output, inputs.get(0), inputs.get(1), inputs.get(2), a.axes());
    }

    public void checkShape(FusionOp.Scatter s, OpChecks c) {
        if (!c.noReductions(OpRule.SHAPE_SCATTER)) return;
        List<IterDomain> self = runtime(s.self());
        List<IterDomain> index = runtime(s.indices());
        List<IterDomain> src = runtime(s.src());
        if (s.axes().size() != 1 || s.dim() >= self.size()) {
            c.fail(OpRule.SHAPE_SCATTER, "axes " + s.axes() + " must name one axis of self " + shape(self));
        } else if (index.size() != self.size() || src.size() != self.size()) {
            c.fail(OpRule.SHAPE_SCATTER, "self " + shape(self) + ", index " + shape(index) + " and src " + shape(src)
                    + " must have one rank (indexing.cpp:228-235)");
        } else if (sharded(s) != null) {
            c.fail(OpRule.SHAPE_SCATTER, sharded(s).label() + " has a DID or Stream axis; nvFuser leaves"
                    + " scatter unsharded (csrc/multidevice/propagation.cpp:107): gather the tensors first");
        } else if (fits(c, s, index, src, self)) {
            c.sameShape(OpRule.SHAPE_SCATTER, "output", s.output().axes(), Shapes.extentsOf(self));
        }
    }

    private static TensorView sharded(FusionOp.Scatter s) {
        for (TensorView t : List.of(s.self(), s.indices(), s.src(), s.output())) {
            if (t.axes().stream().anyMatch(a -> a.isDeviceDim() || a.isStream())) return t;
        }
        return null;
    }

    /** at::scatter: index.size(d) <= src.size(d) for every d and <= self.size(d) for d != dim. */
    private static boolean fits(OpChecks c, FusionOp.Scatter s, List<IterDomain> index, List<IterDomain> src,
                                List<IterDomain> self) {
        for (int d = 0; d < index.size(); d++) {
            String over = larger(c, index.get(d).extent(), src.get(d).extent()) ? "src"
                    : d != s.dim() && larger(c, index.get(d).extent(), self.get(d).extent()) ? "self" : null;
            if (over != null) {
                c.fail(OpRule.SHAPE_SCATTER, "index axis " + d + " " + c.valued(index.get(d).extent()) + " is larger"
                        + " than " + over + "'s (at::scatter)");
                return false;
            }
        }
        return true;
    }

    /** Known to be larger: both extents have values (symbols of unknown value are left to the run). */
    private static boolean larger(OpChecks c, Extent a, Extent b) {
        OptionalLong x = c.value(a);
        OptionalLong y = c.value(b);
        if (x.isPresent() && y.isPresent()) return x.getAsLong() > y.getAsLong();
        return false;
    }

    /** Self's dtype out, src in self's dtype, an int64 index (at::scatter's checks). */
    public void checkDtype(FusionOp.Scatter s, OpChecks c) {
        if (s.indices().dtype() != DataType.INT64) {
            c.fail(OpRule.DTYPE_MISMATCH, "the index " + s.indices().label() + " is " + s.indices().dtype().fileName()
                    + ", not int64 (at::scatter takes an int64 index)");
        } else if (s.src().dtype() != s.self().dtype()) {
            c.fail(OpRule.DTYPE_MISMATCH, "src " + s.src().label() + " is " + s.src().dtype().fileName() + " but self "
                    + s.self().label() + " is " + s.self().dtype().fileName() + " (at::scatter wants one dtype)");
        } else if (s.output().dtype() != s.self().dtype()) {
            c.fail(OpRule.DTYPE_MISMATCH, s.output().label() + " is " + s.output().dtype().fileName()
                    + ", scatter into " + s.self().dtype().fileName() + " gives " + s.self().dtype().fileName());
        }
    }

    public void outputExtents(FusionOp.Scatter s, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> self = runtime(s.self());
        for (int i = 0; i < e.length && i < self.size(); i++) e[i] = self.get(i).extent();
    }

    /** Self's axes. */
    public <A> List<A> proposedAxes(List<List<A>> inputs, OpAttributes a, AxisAlgebra<A> x) {
        return new ArrayList<>(inputs.get(0).stream().map(x::plain).toList());
    }

    /** A new scatter writes rows (axis 0, as an MoE combine puts tokens back). */
    public <A> OpAttributes defaultAttributes(OpAttributes given, List<List<A>> in, AxisAlgebra<A> x) {
        if (!given.axes().isEmpty()) return given;
        return new OpAttributes(List.of(0), given.flags(), given.permute());
    }

    public void dump(FusionOp.Scatter s, DumpLine d) {
        d.out().append(d.eq()).append("scatter(in = ").append(d.tensor(s.self())).append(", dim = ").append(s.dim())
                .append(", src = ").append(d.tensor(s.src())).append(", idx = ").append(d.tensor(s.indices()))
                .append(" )\n");
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("scatter")) return null;
        TensorView self = keyed(in, "in");
        in.expect(",");
        in.expect("dim");
        in.expect("=");
        String dim = in.word();
        if (!dim.matches("\\d{1,2}")) throw in.error("scatter's dim '" + dim + "' is not an axis position");
        in.expect(",");
        TensorView src = keyed(in, "src");
        in.expect(",");
        TensorView index = keyed(in, "idx");
        in.expect(")");
        return new FusionOp.Scatter(out, self, index, src, List.of(Integer.parseInt(dim)));
    }

    private static TensorView keyed(DumpReader in, String key) {
        in.expect(key);
        in.expect("=");
        return in.tensor();
    }

    public <X extends Exception> String cpp(FusionOp.Scatter s, ExportNames<X> p) throws X {
        return "scatter(" + p.name(s.self()) + ", " + s.dim() + ", " + p.name(s.indices()) + ", " + p.name(s.src())
                + ")";
    }

    public <X extends Exception> String python(FusionOp.Scatter s, ExportNames<X> p) throws X {
        return "fd.ops.scatter(" + p.name(s.self()) + ", " + p.name(s.indices()) + ", " + p.name(s.src()) + ", dim="
                + s.dim() + ")";
    }
}
