package org.hostir.studio.exec.tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * The reference at chosen elements of an output only, computed on demand through the fusion: for a {@link Box}
 * of the output (a set of indices per runtime axis), each op asks its operands for the indices it needs (a
 * matmul the selected rows of A with all of K and the selected columns of B; a sum all of its reduced axes;
 * pointwise ops the same indices), down to the inputs, and then computes forward on those sub-tensors with the
 * same kernels as the full reference, the magnitude bounds ({@link MagnitudeBounds}) alongside. A tensor asked
 * for twice with the same indices is computed once.
 */
public final class SampledReference {
    /** The reference value, magnitude bound and budget at a box of an output. */
    public record Sample(Box box, DenseTensor value, DenseTensor magnitude, ErrorBudget budget,
                         boolean float64Backend) {
        public BoundTolerance tolerance(TensorView out) {
            return BoundTolerance.of(magnitude, budget, out.dtype(), float64Backend);
        }
    }

    private record Node(DenseTensor value, MagnitudeBounds.Bound bound) {}

    private record Key(int id, Box box) {}

    private final Fusion fusion;
    private final Map<Integer, DenseTensor> inputs;
    private final Map<Integer, FusionOp> producers = new HashMap<>();
    private final Map<Integer, long[]> shapes = new HashMap<>();
    private final Map<Key, Node> memo = new HashMap<>();
    private final boolean float64Backend;

    /** {@code inputs}: every fusion input by id at its full runtime shape, as the run generated them. */
    public SampledReference(Fusion fusion, Map<Integer, DenseTensor> inputs) { this(fusion, inputs, true); }

    /** As above, checking a backend that computes double in float64 or not ({@link Reference#evaluate}). */
    public SampledReference(Fusion fusion, Map<Integer, DenseTensor> inputs, boolean float64Backend) {
        this.float64Backend = float64Backend;
        this.fusion = fusion;
        this.inputs = inputs;
        for (TensorView in : fusion.inputs()) shapes.put(in.id(), inputs.get(in.id()).shape());
        for (FusionOp op : fusion.ops()) {
            producers.put(op.output().id(), op);
            List<DenseTensor> standIns = op.inputs().stream().map(t -> standIn(shapes.get(t.id()))).toList();
            shapes.put(op.output().id(), ReferenceInterpreter.sizedByOutput(op)
                    ? ReferenceInterpreter.sizedShape(op, fusion, inputs, shapes.get(op.inputs().getFirst().id()))
                    : OpKernels.outputShape(op, standIns));
        }
    }

    /** The full runtime shape of tensor {@code tv} (the unsharded world's). */
    public long[] shape(TensorView tv) { return shapes.get(tv.id()).clone(); }

    /** The reference at {@code box} of output {@code out}. */
    public Sample sample(TensorView out, Box box) {
        if (!fusion.outputs().contains(out)) throw new IllegalArgumentException(out.name() + " is not an output");
        Node n = node(out.id(), box);
        return new Sample(box, n.value(), n.bound().magnitude(), n.bound().budget(), float64Backend);
    }

    private Node node(int id, Box box) {
        Key key = new Key(id, box);
        Node cached = memo.get(key);
        if (cached != null) return cached;
        Node n;
        FusionOp op = producers.get(id);
        if (op == null) {
            DenseTensor v = box.gather(inputs.get(id));
            n = new Node(v, new MagnitudeBounds.Bound(MagnitudeBounds.abs(v), ErrorBudget.EXACT));
        } else if (demands(op, box) == null) {
            n = wholeThenBox(op, id, box);
        } else {
            List<Box> demands = demands(op, box);
            List<Node> args = new ArrayList<>();
            for (int i = 0; i < demands.size(); i++) args.add(node(op.inputs().get(i).id(), demands.get(i)));
            List<DenseTensor> in = args.stream().map(Node::value).toList();
            // expand's sizes are not in its operand: the box of the output gives them
            if (op instanceof FusionOp.Reshape) {
                n = reshaped(op, args.getFirst(), id, box);
                memo.put(key, n);
                return n;
            }
            DenseTensor value = op instanceof FusionOp.Expand
                    ? OpKernels.compute(op, in, DenseTensor.zeros(box.shape(shapes.get(id)), op.output().dtype()))
                    : OpKernels.compute(op, in);
            Map<Integer, DenseTensor> values = new HashMap<>();
            for (int i = 0; i < args.size(); i++) values.put(op.inputs().get(i).id(), args.get(i).value());
            values.put(id, value);
            n = new Node(value, MagnitudeBounds.bound(op, args.stream().map(Node::bound).toList(), values));
        }
        memo.put(key, n);
        return n;
    }

    /**
     * An op whose family has no box rule here: the whole output from the whole operands (value and bound, as the
     * reference computes it), then the box of it.
     */
    private Node wholeThenBox(FusionOp op, int id, Box box) {
        List<Node> args = new ArrayList<>();
        Map<Integer, DenseTensor> values = new HashMap<>();
        for (TensorView t : op.inputs()) {
            Node whole = node(t.id(), Box.all(shapes.get(t.id()).length));
            args.add(whole);
            values.put(t.id(), whole.value());
        }
        DenseTensor value = OpKernels.compute(op, args.stream().map(Node::value).toList(),
                DenseTensor.zeros(shapes.get(id), op.output().dtype()));
        values.put(id, value);
        MagnitudeBounds.Bound bound = MagnitudeBounds.bound(op, args.stream().map(Node::bound).toList(), values);
        return new Node(box.gather(value), new MagnitudeBounds.Bound(box.gather(bound.magnitude()), bound.budget()));
    }

    /**
     * What each operand of {@code op} must supply for the output's {@code box}; null for a family without a box
     * rule, whose operands are then taken whole.
     */
    private List<Box> demands(FusionOp op, Box out) {
        List<long[]> in = op.inputs().stream().map(t -> shapes.get(t.id())).toList();
        return switch (op) {
            case FusionOp.Set s -> List.of(s.isPermute() ? out.unpermute(s.permutation()) : out);
            case FusionOp.Broadcast b -> List.of(out.without(PointwiseKernels.newAxes(b)));
            case FusionOp.Unary _ -> List.of(out);
            case FusionOp.Where w -> List.of(out.rightAligned(in.get(0)), out.rightAligned(in.get(1)),
                    out.rightAligned(in.get(2)));
            case FusionOp.Squeeze q -> List.of(out.expanded(ShapeKernels.squeezed(q, in.get(0).length)));
            case FusionOp.Expand _ -> List.of(out.rightAligned(in.get(0)));
            // elements move across axes: the whole input (the node gathers the box from the whole output)
            case FusionOp.Reshape _ -> List.of(Box.all(in.get(0).length));
            case FusionOp.Binary b -> List.of(out.rightAligned(in.get(0)), out.rightAligned(in.get(1)));
            case FusionOp.Reduction r -> List.of(out.expanded(reduced(r, in.get(0).length)));
            case FusionOp.Matmul m -> matmul(m, out, in);
            case FusionOp.Linear l -> linear(l, out, in);
            // a family added since: correct, only slower, until it gets a box rule here
            case FusionOp _ -> null;
        };
    }

    /** The whole reshaped output (value and bound), then the box of it. */
    private Node reshaped(FusionOp op, Node whole, int id, Box box) {
        long[] shape = shapes.get(id);
        DenseTensor value = OpKernels.compute(op, List.of(whole.value()), DenseTensor.zeros(shape, op.output().dtype()));
        DenseTensor magnitude = whole.bound().magnitude().contiguous().reshape(shape);
        return new Node(box.gather(value), new MagnitudeBounds.Bound(box.gather(magnitude), whole.bound().budget()));
    }

    private static boolean[] reduced(FusionOp.Reduction r, int rank) {
        boolean[] reduced = new boolean[rank];
        for (int a : r.axes()) reduced[OpKernels.runtimePosition(r.input(), a)] = true;
        return reduced;
    }

    /** a [.., M, K] and b [.., K, N] (or 1-D): batch axes as the plan pairs them, K whole. */
    private List<Box> matmul(FusionOp.Matmul m, Box out, List<long[]> in) {
        MatmulKernels.Plan p = MatmulKernels.matmulPlan(m, standIn(in.get(0)), standIn(in.get(1)));
        int nb = p.outBatch().length;
        int[][] a = new int[in.get(0).length][];
        int[][] b = new int[in.get(1).length][];
        batch(a, p.mapA(), in.get(0), out);
        batch(b, p.mapB(), in.get(1), out);
        if (!p.aVector()) a[a.length - 2] = out.indices(nb);
        if (!p.bVector()) b[b.length - 1] = out.indices(nb + (p.aVector() ? 0 : 1));
        return List.of(new Box(a), new Box(b));
    }

    private static void batch(int[][] sel, int[] map, long[] shape, Box out) {
        for (int i = 0; i < map.length; i++) {
            if (shape[i] != 1 && map[i] != AxisMap.NONE) sel[i] = out.indices(map[i]);
        }
    }

    /** in [.., K] by the output's leading axes, weight [N, K] and bias [N] by its last. */
    private List<Box> linear(FusionOp.Linear l, Box out, List<long[]> in) {
        boolean matrix = in.get(1).length == 2;
        int lead = in.get(0).length - 1;
        int[][] x = new int[in.get(0).length][];
        for (int i = 0; i < lead; i++) x[i] = out.indices(i);
        int[][] w = new int[in.get(1).length][];
        if (matrix) w[0] = out.indices(lead);
        List<Box> boxes = new ArrayList<>(List.of(new Box(x), new Box(w)));
        if (l.bias() != null) {
            long[] bias = in.get(2);
            boolean perColumn = matrix && bias.length == 1 && bias[0] != 1;
            boxes.add(new Box(perColumn ? new int[][] {out.indices(lead)} : new int[bias.length][]));
        }
        return boxes;
    }

    /** A tensor of this shape that holds no memory: the shape computations read only shapes. */
    private static DenseTensor standIn(long[] shape) {
        long[] ones = new long[shape.length];
        Arrays.fill(ones, 1);
        return DenseTensor.zeros(ones, DataType.FLOAT).expand(shape);
    }
}
