package org.hostir.studio.exec.tensor;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.ReshapeAxes;
import org.hostir.studio.ir.TensorView;

/**
 * The correctness oracle (DESIGN 2.3): evaluates the unsharded fusion on the CPU, op by op in the fusion's
 * order, with {@link OpKernels}, as nvFuser's tests compare with ATen. Meshes, parallel types and memory types
 * are scheduling, not semantics, and are ignored: every tensor has its full extents (a DID axis too).
 */
public final class ReferenceInterpreter {
    private ReferenceInterpreter() {}

    /**
     * The fusion's outputs by TensorView id, in output order. {@code inputs} holds every fusion input by id at
     * its full runtime shape; they are read, never written. An output that is also an input is that input.
     */
    public static Map<Integer, DenseTensor> run(Fusion fusion, Map<Integer, DenseTensor> inputs) {
        Map<Integer, DenseTensor> values = evaluateAll(fusion, inputs);
        Map<Integer, DenseTensor> outputs = new LinkedHashMap<>();
        for (TensorView out : fusion.outputs()) outputs.put(out.id(), values.get(out.id()));
        return outputs;
    }

    /** As {@link #run(Fusion, Map)}, after checking each input's shape against its extents under the bindings. */
    public static Map<Integer, DenseTensor> run(Fusion fusion, Map<Integer, DenseTensor> inputs,
                                                Map<String, Long> bindings) {
        for (TensorView in : fusion.inputs()) {
            long[] expected = RuntimeShapes.global(in, bindings);
            DenseTensor t = input(inputs, in);
            if (!Arrays.equals(expected, t.shape())) {
                throw new IllegalArgumentException("input " + describe(in) + " has shape "
                        + Arrays.toString(t.shape()) + ", expected " + Arrays.toString(expected));
            }
        }
        return run(fusion, inputs);
    }

    /** Every tensor's value by id: the inputs, then each op's output. */
    public static Map<Integer, DenseTensor> evaluateAll(Fusion fusion, Map<Integer, DenseTensor> inputs) {
        Map<Integer, DenseTensor> values = new LinkedHashMap<>();
        for (TensorView in : fusion.inputs()) values.put(in.id(), input(inputs, in));
        for (FusionOp op : fusion.ops()) {
            List<DenseTensor> args = op.inputs().stream().map(t -> {
                DenseTensor v = values.get(t.id());
                if (v == null) throw new IllegalArgumentException(describe(t) + " is read before it is computed");
                return v;
            }).toList();
            // expand and reshape take their sizes from the output, sized here from the inputs' sizes
            boolean sized = sizedByOutput(op);
            values.put(op.output().id(), sized ? OpKernels.compute(op, args,
                    DenseTensor.zeros(sizedShape(op, fusion, inputs, args.getFirst().shape()), op.output().dtype()))
                    : OpKernels.compute(op, args));
        }
        for (TensorView out : fusion.outputs()) {
            if (!values.containsKey(out.id())) throw new IllegalArgumentException("output " + describe(out)
                    + " is never computed");
        }
        return values;
    }

    private static DenseTensor input(Map<Integer, DenseTensor> inputs, TensorView tv) {
        DenseTensor t = inputs.get(tv.id());
        if (t == null) throw new IllegalArgumentException("no value for input " + describe(tv));
        return t;
    }

    private static String describe(TensorView tv) {
        return tv.label().equals(tv.name()) ? tv.name() : tv.name() + " (" + Texts.quote(tv.label()) + ")";
    }

    /**
     * expand's or reshape's output shape in the unsharded world: constants, and symbols sized by the inputs that carry them
     * (the reference has no bindings; every symbol of a runnable fusion sizes some input). -1 where unknown.
     */
    /** Expand, reshape and topk take sizes (topk its k) from their output, not from their operands. */
    static boolean sizedByOutput(FusionOp op) {
        return op instanceof FusionOp.Expand || op instanceof FusionOp.Reshape || op instanceof FusionOp.TopK;
    }

    static long[] sizedShape(FusionOp op, Fusion fusion, Map<Integer, DenseTensor> inputs, long[] input) {
        Map<String, Long> sizes = new HashMap<>();
        for (TensorView in : fusion.inputs()) {
            long[] shape = inputs.get(in.id()).shape();
            int p = 0;
            for (IterDomain a : unsharded(in)) {
                if (a.extent() instanceof Extent.Symbolic sym && p < shape.length) sizes.put(sym.name(), shape[p]);
                p++;
            }
        }
        List<IterDomain> outAxes = unsharded(op.output());
        long[] shape = outAxes.stream().mapToLong(a -> a.extent() instanceof Extent.Constant c ? c.value()
                : a.extent() instanceof Extent.Symbolic sym ? sizes.getOrDefault(sym.name(), -1L) : -1L).toArray();
        // axes that come through whole have the operand's size (a DID axis's D is known only from it)
        List<IterDomain> inAxes = unsharded(op.inputs().getFirst());
        int[] kept = op instanceof FusionOp.Reshape ? ReshapeAxes.kept(inAxes, outAxes) : null;
        for (int i = 0; i < inAxes.size() && i < input.length; i++) {
            int o = kept != null ? kept[i] : (input[i] != 1 && !(op instanceof FusionOp.TopK t && t.dim() == i) ? i
                    : AxisMap.NONE);
            if (o != AxisMap.NONE && o < shape.length) shape[o] = input[i];
        }
        return shape;
    }

    /**
     * The axes of {@code tv}'s unsharded value, which the reference holds: its logical axes (a tensor with loop
     * steps shows its loop axes, e.g. [D, F/D] for an outer split of F), reduction axes left out.
     */
    private static List<IterDomain> unsharded(TensorView tv) {
        return tv.loopDomain().logical().stream().filter(a -> !a.isReduction()).toList();
    }
}
