package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * TopKOp, nvFuser's {@code topk(inp, k, dim, largest, sorted)} (csrc/ops/arith.cpp:2497-2584 at 81c4b22fd;
 * {@code at::topk}, composite_nodes.cpp:831-853): each output is the input's shape with axis {@code dim} resized to k
 * (arith.cpp:2541-2560), the values in the input's dtype and the indices int64 (arith.cpp:2562). The file writes
 * one op per output ({@code topk}, {@code topk_indices}); k is the output's extent at {@code dim}. nvFuser prints
 * the op once with both outputs, {@code ( T1, T2 ) = topk( T0, 2, dim = 1, largest = True, sorted = False )}
 * (composite_nodes.cpp:815-825); each Studio op prints that call with its own output, the indices one named
 * {@code topk_indices}.
 */
final class TopKOp implements OpDefinition<FusionOp.TopK> {
    public List<String> fileNames() { return List.of("topk", "topk_indices"); }

    public OpWork work() { return OpWork.MOVE; }

    public int minInputs() { return 1; }

    public Set<OpAttribute> attributes() { return Set.of(OpAttribute.AXES, OpAttribute.FLAGS); }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.TopK(output, inputs.get(0), a.axes(), a.flags(), fileName.equals("topk_indices"));
    }

    public void checkShape(FusionOp.TopK t, OpChecks c) {
        // k is the output's extent at dim: a constant, or a symbol the inputs size (the reference sizes it so)
        if (!c.noReductions(OpRule.SHAPE_TOPK) || !c.outputSizedByInputs(OpRule.SHAPE_TOPK)) return;
        List<IterDomain> in = runtime(t.input());
        List<IterDomain> out = runtime(t.output());
        if (t.axes().size() != 1 || t.dim() >= in.size()) {
            c.fail(OpRule.SHAPE_TOPK, "axes " + t.axes() + " must name one axis of the input " + shape(in));
        } else if (t.flags().size() != 2) {
            c.fail(OpRule.SHAPE_TOPK, "flags " + t.flags() + " must be [largest, sorted]");
        } else if (parallel(in.get(t.dim())) || (t.dim() < out.size() && parallel(out.get(t.dim())))) {
            c.fail(OpRule.SHAPE_TOPK, "axis " + t.dim() + " is sharded or a Stream axis; topk chooses among a whole"
                    + " axis (shard or stream another axis, or gather this one first)");
        } else if (c.sameShape(OpRule.SHAPE_TOPK, "output", t.output().axes(), expected(t, in))) {
            Extent k = t.output().axes().get(t.dim()).extent();
            OptionalLong kv = c.value(k);
            OptionalLong n = c.value(in.get(t.dim()).extent());
            if (kv.isPresent() && n.isPresent() && kv.getAsLong() > n.getAsLong()) {
                c.fail(OpRule.SHAPE_TOPK, "k = " + c.valued(k) + " exceeds input axis " + t.dim() + "'s extent "
                        + c.valued(in.get(t.dim()).extent()) + " (at::topk: selected index k out of range)");
            }
        }
    }

    private static boolean parallel(IterDomain a) { return a.isDeviceDim() || a.isStream(); }

    /** The input's extents, k (the output's own extent) at {@code dim}. */
    private static List<Extent> expected(FusionOp.TopK t, List<IterDomain> in) {
        List<Extent> e = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            e.add(i == t.dim() && i < t.output().rank() ? t.output().axes().get(i).extent() : in.get(i).extent());
        }
        return e;
    }

    /** at::topk has no bool kernel ("topk_cpu" not implemented for 'Bool'). */
    public Optional<String> boolRefusal(FusionOp.TopK t) {
        return Optional.of("topk of a bool tensor is not supported (PyTorch's at::topk has no bool kernel: cast it"
                + " to an integer first)");
    }

    /** Values in the input's dtype, indices int64 (arith.cpp:2562). */
    public void checkDtype(FusionOp.TopK t, OpChecks c) {
        DataType want = t.indices() ? DataType.INT64 : t.input().dtype();
        if (t.output().dtype() != want) {
            c.fail(OpRule.DTYPE_MISMATCH, t.output().label() + " is " + t.output().dtype().fileName() + ", "
                    + t.opName() + " of " + t.input().dtype().fileName() + " gives " + want.fileName());
        } else if (t.input().dtype().isFloat8()) {
            c.fail(OpRule.DTYPE_FP8, t.input().label() + " is " + t.input().dtype().fileName() + ": topk does not"
                    + " take fp8 (cast it first)");
        }
    }

    /** The input's extents but at {@code dim}, whose k the output declares. */
    public void outputExtents(FusionOp.TopK t, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> in = runtime(t.input());
        for (int i = 0; i < e.length && i < in.size(); i++) e[i] = i == t.dim() ? null : in.get(i).extent();
    }

    /** A sliced axis before {@code dim} moves it one place left. */
    public FusionOp withoutAxis(FusionOp.TopK t, FusionOp.TopK original, int slicedOutAxis) {
        int dim = original.dim();
        return new FusionOp.TopK(t.output(), t.input(), List.of(slicedOutAxis < dim ? dim - 1 : dim), t.flags(),
                t.indices());
    }

    /** The input's axes (the editor leaves k, the axis at {@code dim}, to the user). */
    public <A> List<A> proposedAxes(List<List<A>> inputs, OpAttributes a, AxisAlgebra<A> x) {
        return inputs.get(0).stream().map(x::plain).toList();
    }

    /** A new topk runs along the last axis, largest first, sorted (at::topk's defaults but dim). */
    public <A> OpAttributes defaultAttributes(OpAttributes given, List<List<A>> in, AxisAlgebra<A> x) {
        List<Integer> axes = given.axes().isEmpty() && !in.isEmpty() ? List.of(Math.max(0, in.get(0).size() - 1))
                : given.axes();
        return new OpAttributes(axes, given.flags().isEmpty() ? List.of(true, true) : given.flags(), given.permute());
    }

    public void dump(FusionOp.TopK t, DumpLine d) {
        d.out().append(d.eq()).append(t.opName()).append("( ").append(d.tensor(t.input())).append(", ")
                .append(k(t)).append(", dim = ").append(t.dim()).append(", largest = ")
                .append(t.largest() ? "True" : "False").append(", sorted = ").append(t.sorted() ? "True" : "False")
                .append(" )\n");
    }

    /** k as nvFuser prints the Val: a constant, or the symbol's {@code i<id>}. */
    private static String k(FusionOp.TopK t) {
        if (t.dim() < 0 || t.dim() >= t.output().rank()) return "?";
        return switch (t.output().axes().get(t.dim()).extent()) {
            case Extent.Constant c -> Long.toString(c.value());
            case Extent.Symbolic s -> "i" + s.id();
        };
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!fileNames().contains(name)) return null;
        TensorView input = in.tensor();
        in.expect(",");
        in.word();
        in.expect(",");
        in.expect("dim");
        in.expect("=");
        String dim = in.word();
        if (!dim.matches("\\d{1,2}")) throw in.error(name + "'s dim '" + dim + "' is not an axis position");
        boolean largest = flag(in, "largest");
        boolean sorted = flag(in, "sorted");
        in.expect(")");
        return new FusionOp.TopK(out, input, List.of(Integer.parseInt(dim)), List.of(largest, sorted),
                name.equals("topk_indices"));
    }

    private static boolean flag(DumpReader in, String key) {
        in.expect(",");
        in.expect(key);
        in.expect("=");
        String v = in.word();
        if (!v.equals("True") && !v.equals("False")) throw in.error("topk's " + key + " '" + v + "' is not True or False");
        return v.equals("True");
    }

    /** arith.h:790's TopKResult, its {@code values} or {@code indices}. */
    public <X extends Exception> String cpp(FusionOp.TopK t, ExportNames<X> p) throws X {
        return "topk(" + p.name(t.input()) + ", IrBuilder::create<Val>(" + p.shape(t.output()).get(t.dim())
                + "L, DataType::Int), " + t.dim()
                + ", " + t.largest() + ", " + t.sorted() + ")." + (t.indices() ? "indices" : "values");
    }

    /** The frontend's {@code fd.ops.topk} returns (values, indices). */
    public <X extends Exception> String python(FusionOp.TopK t, ExportNames<X> p) throws X {
        return "fd.ops.topk(" + p.name(t.input()) + ", " + p.shape(t.output()).get(t.dim()) + ", dim=" + t.dim() + ", largest="
                + (t.largest() ? "True" : "False") + ", sorted=" + (t.sorted() ? "True" : "False") + ")["
                + (t.indices() ? 1 : 0) + "]";
    }
}
