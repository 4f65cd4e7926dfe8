package org.hostir.studio.exec.tensor;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.UnaryOpType;
import org.hostir.studio.ir.op.OpFamily;
import org.hostir.studio.ir.op.OpWork;

/**
 * Beside each reference value, a magnitude bound B: for a sum or dot product of n terms the sum of their absolute
 * values, propagated through the fusion (add and sub: B_a + B_b; mul: B_a * B_b; div: (B_a + |q| B_b) / |b|; set,
 * permute and broadcast move B as they move values; sum: the sum of the B; max: the max; matmul and linear:
 * sum over k of B_a * B_b, plus B_bias). Most rules are the op itself applied to the bounds (the same kernels,
 * into float32, so bfloat16 outputs do not round their bound), with sub computed as add; the inputs' bound is
 * their absolute value. Each tensor also gets its {@link ErrorBudget}.
 */
final class MagnitudeBounds {
    private MagnitudeBounds() {}

    /** A tensor's bound and budget. */
    record Bound(DenseTensor magnitude, ErrorBudget budget) {}

    /**
     * The bounds of the fusion's outputs by id. {@code values} holds every tensor's reference value (inputs
     * included), as {@link ReferenceInterpreter#evaluateAll} returns them; only div reads them. A bound is dropped
     * after its last use, so at most the live bounds are held at once.
     */
    static Map<Integer, Bound> outputs(Fusion fusion, Map<Integer, DenseTensor> values) {
        Set<Integer> outputs = new HashSet<>();
        fusion.outputs().forEach(t -> outputs.add(t.id()));
        Map<Integer, Integer> lastUse = new HashMap<>();
        List<FusionOp> ops = fusion.ops();
        for (int i = 0; i < ops.size(); i++) {
            for (TensorView t : ops.get(i).inputs()) lastUse.put(t.id(), i);
        }
        Map<Integer, Bound> live = new HashMap<>();
        for (TensorView in : fusion.inputs()) live.put(in.id(), new Bound(abs(values.get(in.id())), ErrorBudget.EXACT));
        for (int i = 0; i < ops.size(); i++) {
            FusionOp op = ops.get(i);
            List<Bound> args = op.inputs().stream().map(t -> live.get(t.id())).toList();
            live.put(op.output().id(), bound(op, args, values));
            for (TensorView t : op.inputs()) {
                if (lastUse.get(t.id()) == i && !outputs.contains(t.id())) live.remove(t.id());
            }
        }
        Map<Integer, Bound> result = new LinkedHashMap<>();
        for (TensorView out : fusion.outputs()) result.put(out.id(), live.get(out.id()));
        return result;
    }

    /** The bound of {@code op}'s output from its operands'; {@code values} holds the op's operands and output. */
    static Bound bound(FusionOp op, List<Bound> args, Map<Integer, DenseTensor> values) {
        List<DenseTensor> magnitudes = args.stream().map(Bound::magnitude).toList();
        DataType out = op.output().dtype();
        ErrorBudget a = converted(op, 0, args);
        return switch (op) {
            case FusionOp.Reshape r -> new Bound(magnitudes.get(0).contiguous().reshape(values.get(r.output().id()).shape()), a);
            case FusionOp.Expand e -> new Bound(magnitudes.get(0).expand(values.get(e.output().id()).shape()).contiguous(), a);
            // the selected operand's bound: where(c, B_x, B_y) with the reference's condition
            case FusionOp.Where w -> new Bound(OpKernels.compute(new FusionOp.Where(floatView(w.output()), w.condition(),
                    w.x(), w.y()), List.of(values.get(w.condition().id()), magnitudes.get(1), magnitudes.get(2))),
                    converted(op, 1, args).add(converted(op, 2, args), out));
            case FusionOp.Unary u -> new Bound(unary(u, magnitudes.get(0), values),
                    // library transcendentals are within a few ulps: four roundings, then the store
                    u.op() == UnaryOpType.CAST ? a.accumulate(0, 1, out) : a.accumulate(4, 1, out));
            case FusionOp.Binary b -> binary(b, magnitudes, a, converted(op, 1, args), values);
            // min's error, like max's, is within the largest bound of the reduced elements
            case FusionOp.Reduction r -> new Bound(compute(r.op() == ReductionOpType.MIN
                    ? new FusionOp.Reduction(ReductionOpType.MAX, r.output(), r.input(), r.axes()) : r, magnitudes),
                    reductionBudget(r, a, magnitudes.get(0)));
            case FusionOp.Matmul m -> new Bound(compute(m, magnitudes), a.multiply(converted(op, 1, args),
                    contracted(magnitudes.get(0)), out));
            // the product is not stored yet (the bias add or the store follows): computed in float or double
            case FusionOp.Linear l -> linear(l, magnitudes, a.multiply(converted(op, 1, args),
                    contracted(magnitudes.get(0)), DenseTensor.isWide(out) ? DataType.DOUBLE : DataType.FLOAT), args);
            // each group's dot products: K terms at most (a group of [m, k] x [k, n] has fewer)
            case FusionOp.GroupedMm g -> new Bound(compute(g, magnitudes), a.multiply(converted(op, 1, args),
                    contracted(magnitudes.get(0)), out));
            case FusionOp.TopK t -> topK(t, magnitudes.get(0), a, values);
            // set, broadcast, squeeze and any family whose kernel only moves elements (its definition says so)
            case FusionOp moved -> movedBound(moved, magnitudes, args);
        };
    }

    /**
     * topk moves elements: the values take the bounds of the elements the reference chose (gathered at its
     * indices, not the topk of the bounds); the indices are exact integers, their bound their own values (which a
     * later gather reads as its index).
     */
    private static Bound topK(FusionOp.TopK t, DenseTensor magnitude, ErrorBudget a, Map<Integer, DenseTensor> values) {
        if (t.indices()) return new Bound(abs(values.get(t.output().id())), ErrorBudget.EXACT);
        TensorView o = t.output();
        TensorView index = new TensorView(o.id(), o.label(), DataType.INT64, o.memoryType(), o.axes(), o.mesh());
        DenseTensor chosen = OpKernels.compute(new FusionOp.TopK(index, t.input(), t.axes(), t.flags(), true),
                List.of(values.get(t.input().id())), DenseTensor.zeros(values.get(o.id()).shape(), DataType.INT64));
        return new Bound(OpKernels.compute(new FusionOp.TakeAlongAxis(floatView(o), t.input(), index, t.axes()),
                List.of(magnitude, chosen)), a);
    }

    /** Elements moved, nothing computed: each keeps its operand's bound (the coarser where several feed it). */
    private static Bound movedBound(FusionOp op, List<DenseTensor> magnitudes, List<Bound> args) {
        OpWork work = OpFamily.definition(op).work();
        if (work != OpWork.MOVE && work != OpWork.COPY) {
            throw new IllegalStateException("no error bound for " + op.opName() + ", which computes (" + work + ")");
        }
        ErrorBudget budget = converted(op, 0, args);
        for (int i = 1; i < args.size(); i++) budget = budget.add(converted(op, i, args), op.output().dtype());
        return new Bound(compute(op, magnitudes), budget);
    }

    private static ErrorBudget reductionBudget(FusionOp.Reduction r, ErrorBudget a, DenseTensor magnitude) {
        return switch (r.op()) {
            case SUM -> sumBudget(r, a, magnitude);
            // the max or min of perturbed values is within the largest perturbation
            case MAX, MIN -> a;
            // a product of n terms: n roundings, relative errors adding up (the bound is the product of bounds)
            case PROD -> a.accumulate(reducedCount(r, magnitude), 1, r.output().dtype());
        };
    }

    private static long reducedCount(FusionOp.Reduction r, DenseTensor input) {
        long n = 1;
        for (int a : r.axes()) n *= input.size(OpKernels.runtimePosition(r.input(), a));
        return n;
    }

    /**
     * |f(x)| + |f'(x)| B_x per element, x and f(x) the reference's values: to first order an error e in x moves
     * f(x) by f'(x) e, and f's own rounding is relative to |f(x)|. An unbounded slope (log or sqrt at 0) gives an
     * infinite bound, as a division by zero does.
     */
    private static DenseTensor unary(FusionOp.Unary u, DenseTensor magnitude, Map<Integer, DenseTensor> values) {
        float[] b = magnitude.contiguous().toArray();
        float[] x = values.get(u.input().id()).contiguous().toArray();
        float[] fx = values.get(u.output().id()).contiguous().toArray();
        DenseTensor out = DenseTensor.zeros(magnitude.shape(), DataType.FLOAT);
        for (int i = 0; i < b.length; i++) {
            double v = Math.abs((double) fx[i]) + UnaryKernels.slope(u.op(), x[i], fx[i]) * b[i];
            out.data[i] = Double.isNaN(v) ? Float.POSITIVE_INFINITY : (float) v;
        }
        return out;
    }

    private static Bound binary(FusionOp.Binary b, List<DenseTensor> m, ErrorBudget x, ErrorBudget y,
                                Map<Integer, DenseTensor> values) {
        DataType out = b.output().dtype();
        return switch (b.op()) {
            case ADD, SUB -> new Bound(compute(new FusionOp.Binary(BinaryOpType.ADD, b.output(), b.lhs(), b.rhs()),
                    m), x.add(y, out));
            case MUL -> new Bound(compute(b, m), x.multiply(y, 1, out));
            case DIV -> new Bound(quotient(b, m, values), x.add(y, out));
        };
    }

    /**
     * (B_a + |q| B_b) / |b|, q = a / b the reference's quotient: to first order a perturbation e_a of a and e_b
     * of b move q by e_a / b - q e_b / b. A divisor of 0 gives an infinite bound (anything passes but NaN).
     */
    private static DenseTensor quotient(FusionOp.Binary b, List<DenseTensor> m, Map<Integer, DenseTensor> values) {
        long[] shape = PointwiseKernels.binaryShape(b, m.get(0), m.get(1));
        float[] ba = m.get(0).expand(shape).contiguous().toArray();
        float[] bb = m.get(1).expand(shape).contiguous().toArray();
        float[] divisor = values.get(b.rhs().id()).expand(shape).contiguous().toArray();
        float[] q = values.get(b.output().id()).toArray();
        DenseTensor out = DenseTensor.zeros(shape, DataType.FLOAT);
        for (int i = 0; i < q.length; i++) {
            double v = (ba[i] + Math.abs((double) q[i]) * bb[i]) / Math.abs((double) divisor[i]);
            out.data[i] = Double.isNaN(v) ? Float.POSITIVE_INFINITY : (float) v;
        }
        return out;
    }

    private static Bound linear(FusionOp.Linear l, List<DenseTensor> m, ErrorBudget product, List<Bound> args) {
        DataType out = l.output().dtype();
        ErrorBudget budget = l.bias() == null ? product.accumulate(0, 1, out)
                : product.add(args.get(2).budget().convertedTo(l.bias().dtype(), out), out);
        return new Bound(compute(l, m), budget);
    }

    /**
     * A sum over n terms: n float32 roundings. Where reduced axes are parallel (DID or Stream), the partial sums
     * are separate results that a collective or later stream iteration adds in the tensor's dtype: each of the
     * p partial results and p - 1 additions is a store, so p stores into the output dtype instead of one.
     */
    private static ErrorBudget sumBudget(FusionOp.Reduction r, ErrorBudget x, DenseTensor input) {
        TensorView in = r.input();
        long n = 1;
        long parallel = 1;
        for (int a : r.axes()) {
            long size = input.size(OpKernels.runtimePosition(in, a));
            n *= size;
            if (in.axis(a).parallelType() != ParallelType.SERIAL) parallel *= size;
        }
        return x.accumulate(n, parallel, r.output().dtype());
    }

    /** The budget of operand {@code i}, converted into the op's dtype where the operand's is wider. */
    private static ErrorBudget converted(FusionOp op, int i, List<Bound> args) {
        if (i >= args.size()) return ErrorBudget.EXACT;
        return args.get(i).budget().convertedTo(op.inputs().get(i).dtype(), op.output().dtype());
    }

    /** K: the contracted (last) axis of matmul's a and linear's input. */
    private static long contracted(DenseTensor a) { return a.rank() == 0 ? 1 : a.size(a.rank() - 1); }

    /** The op on the bounds, computed into float32 whatever the op's dtype. */
    private static DenseTensor compute(FusionOp op, List<DenseTensor> magnitudes) {
        TensorView o = op.output();
        TensorView f = new TensorView(o.id(), o.label(), DataType.FLOAT, o.memoryType(), o.axes(), o.mesh());
        FusionOp inFloat = op.withTensors(f, op.inputs());
        return OpKernels.compute(inFloat, magnitudes);
    }

    private static TensorView floatView(TensorView o) {
        return new TensorView(o.id(), o.label(), DataType.FLOAT, o.memoryType(), o.axes(), o.mesh());
    }

    static DenseTensor abs(DenseTensor t) {
        float[] v = t.toArray();
        DenseTensor out = DenseTensor.zeros(t.shape(), DataType.FLOAT);
        for (int i = 0; i < v.length; i++) out.data[i] = Math.abs(v[i]);
        return out;
    }
}
