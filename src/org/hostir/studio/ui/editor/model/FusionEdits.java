package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.MemoryType;

/**
 * Every edit the graph and the properties make, as a function from one immutable document to the next. The
 * editor wraps each call in one undoable operation holding both documents, so undo is exact. Ops are named by
 * their output tensor here (indices move when ops are deleted; an output is computed by one op only).
 */
public final class FusionEdits {
    private FusionEdits() {}

    public static FusionDocument empty(String name) {
        return new FusionDocument(name, null, Map.of(), List.of(), List.of(), List.of(), List.of(), null);
    }

    /** The first free name {@code tv<n>}: what nvFuser's tests call their tensors. */
    public static String freshName(FusionDocument doc) {
        for (int n = 0;; n++) {
            String name = "tv" + n;
            if (doc.tensor(name).isEmpty()) return name;
        }
    }

    /** {@code count} fresh names, {@code tv<n>} free in {@code doc}, in increasing order. */
    public static List<String> freshNames(FusionDocument doc, int count) {
        List<String> out = new ArrayList<>();
        for (int n = 0; out.size() < count; n++) {
            String name = "tv" + n;
            if (doc.tensor(name).isEmpty()) out.add(name);
        }
        return out;
    }

    /** A new fusion input: float, [M, N], on the mesh the other tensors use (meshes are all or nothing). */
    public static FusionDocument addInput(FusionDocument doc, String name) {
        MeshSpec mesh = doc.tensors().isEmpty() ? MeshSpec.ABSENT : doc.tensors().get(0).mesh();
        return addInputTensor(doc, new TensorSpec(name, DataType.FLOAT, null,
                List.of(AxisSpec.of(ExtentSpec.symbol("M")), AxisSpec.of(ExtentSpec.symbol("N"))), mesh));
    }

    /** Adds {@code t} as a new fusion input. */
    public static FusionDocument addInputTensor(FusionDocument doc, TensorSpec t) {
        return with(doc, append(doc.tensors(), t), doc.ops(), append(doc.inputs(), t.name()), doc.outputs());
    }

    /**
     * A new op reading {@code inputs}, computing a new tensor {@code output} (derived dtype and axes), which becomes
     * a fusion output; an input that was a computed fusion output stops being one, since a consumer now reads it
     * (the user can mark it again). Its mesh and parallel types are left unstated: nvFuser's sharding propagation
     * infers them from the inputs (issue 34), and the user writes them only where they mean something else.
     */
    public static FusionDocument addOp(FusionDocument doc, OpKind kind, List<String> inputs, String output) {
        OpSpec op = new OpSpec(kind, inputs, output, List.of(), List.of(), List.of());
        op = ShapeInference.withDefaultAttributes(op, inputAxes(doc, op));
        TensorSpec first = inputs.isEmpty() ? null : doc.tensor(inputs.get(0)).orElse(null);
        List<AxisSpec> axes = ShapeInference.unsharded(ShapeInference.derive(op, inputAxes(doc, op)));
        // an op still missing operands gets its first input's shape for now; connecting re-derives it
        if (axes.isEmpty()) axes = first != null ? ShapeInference.runtime(first.axes()) : List.of(AxisSpec.of(ExtentSpec.size(1)));
        TensorSpec out = new TensorSpec(output, first == null ? DataType.FLOAT : first.dtype(), null, axes,
                MeshSpec.ABSENT);
        List<String> outputs = new ArrayList<>(doc.outputs());
        outputs.removeIf(o -> inputs.contains(o) && producer(doc, o).isPresent());
        outputs.add(output);
        return with(doc, append(doc.tensors(), out), append(doc.ops(), op), doc.inputs(), outputs);
    }

    /** Connects {@code tensor} to the op computing {@code opOutput}: into {@code slot}, or appended when -1. */
    public static FusionDocument connect(FusionDocument doc, String tensor, String opOutput, int slot) {
        OpSpec op = producer(doc, opOutput).orElseThrow();
        List<String> inputs = new ArrayList<>(op.inputs());
        if (slot >= 0 && slot < inputs.size()) inputs.set(slot, tensor);
        else if (inputs.size() < op.op().maxInputs()) inputs.add(tensor);
        else inputs.set(inputs.size() - 1, tensor);
        OpSpec changed = new OpSpec(op.op(), inputs, op.output(), op.axes(), op.flags(), op.permute());
        FusionDocument d = replaceOp(doc, op, ShapeInference.withDefaultAttributes(changed, inputAxes(doc, changed)));
        List<String> outputs = new ArrayList<>(d.outputs());
        if (producer(d, tensor).isPresent()) outputs.remove(tensor);
        if (outputs.isEmpty()) outputs.add(opOutput);
        d = with(d, d.tensors(), d.ops(), d.inputs(), outputs);
        return reorderOps(rederive(d, opOutput));
    }

    /** Replaces an op (same output) by {@code op} and re-derives its output. */
    public static FusionDocument setOp(FusionDocument doc, OpSpec op) {
        OpSpec old = producer(doc, op.output()).orElseThrow();
        OpSpec fixed = ShapeInference.withDefaultAttributes(op, inputAxes(doc, op));
        return reorderOps(rederive(replaceOp(doc, old, fixed), op.output()));
    }

    /**
     * Re-derives the axes of {@code output} from its op, keeping the user's parallel types where they fit; the
     * inputs' parallel types are not copied (propagation infers them).
     */
    public static FusionDocument rederive(FusionDocument doc, String output) {
        Optional<OpSpec> op = producer(doc, output);
        Optional<TensorSpec> t = doc.tensor(output);
        if (op.isEmpty() || t.isEmpty()) return doc;
        List<List<AxisSpec>> in = inputAxes(doc, op.get());
        if (in.size() < op.get().op().minInputs()) return doc;
        List<AxisSpec> derived = ShapeInference.merge(ShapeInference.unsharded(ShapeInference.derive(op.get(), in)),
                t.get().axes());
        if (derived.equals(t.get().axes())) return doc;
        FusionDocument d = replaceTensor(doc, t.get(), withAxes(t.get(), derived));
        for (OpSpec consumer : d.ops()) {   // the change flows downstream
            if (consumer.inputs().contains(output)) d = rederive(d, consumer.output());
        }
        return d;
    }

    /** Deletes a tensor, the op computing it, and the ops reading it (their outputs stay, unconnected). */
    public static FusionDocument deleteTensor(FusionDocument doc, String name) {
        List<TensorSpec> tensors = doc.tensors().stream().filter(t -> !t.name().equals(name)).toList();
        List<OpSpec> ops = new ArrayList<>();
        for (OpSpec op : doc.ops()) {
            if (op.output().equals(name)) continue;
            if (op.inputs().contains(name)) {
                List<String> ins = new ArrayList<>(op.inputs());
                ins.remove(name);
                op = new OpSpec(op.op(), ins, op.output(), op.axes(), op.flags(), op.permute());
            }
            ops.add(op);
        }
        return with(doc, tensors, ops, without(doc.inputs(), name), without(doc.outputs(), name));
    }

    /** Deletes an op and the tensor it computes (an op's output has no life of its own). */
    public static FusionDocument deleteOp(FusionDocument doc, String output) {
        return deleteTensor(doc, output);
    }

    public static FusionDocument renameTensor(FusionDocument doc, String from, String to) {
        List<TensorSpec> tensors = doc.tensors().stream()
                .map(t -> t.name().equals(from) ? new TensorSpec(to, t.dtype(), t.memory(), t.axes(), t.mesh(),
                        t.loop(), t.allocationIsLoop()) : t)
                .toList();
        List<OpSpec> ops = doc.ops().stream().map(op -> new OpSpec(op.op(),
                op.inputs().stream().map(n -> n.equals(from) ? to : n).toList(),
                op.output().equals(from) ? to : op.output(), op.axes(), op.flags(), op.permute())).toList();
        FusionDocument d = with(doc, tensors, ops, rename(doc.inputs(), from, to), rename(doc.outputs(), from, to));
        return d.withLayout(Layout.rename(d.layout(), from, to));
    }

    /** Replaces a tensor's spec (same name) and re-derives the ops downstream. */
    public static FusionDocument setTensor(FusionDocument doc, TensorSpec spec) {
        TensorSpec old = doc.tensor(spec.name()).orElseThrow();
        FusionDocument d = replaceTensor(doc, old, spec);
        for (OpSpec op : d.ops()) if (op.inputs().contains(spec.name())) d = rederive(d, op.output());
        return d;
    }

    public static FusionDocument setOutput(FusionDocument doc, String tensor, boolean output) {
        List<String> outputs = without(doc.outputs(), tensor);
        if (output) outputs = append(outputs, tensor);
        return with(doc, doc.tensors(), doc.ops(), doc.inputs(), outputs);
    }

    public static FusionDocument setHeader(FusionDocument doc, String name, String description,
                                           Map<String, Long> symbols) {
        return new FusionDocument(name, description == null || description.isEmpty() ? null : description,
                symbols, doc.tensors(), doc.ops(), doc.inputs(), doc.outputs(), doc.layout());
    }

    // each keeps the tensor's loop steps (hostir-fusion/2): an edit of another property never drops them; steps
    // that no longer fit new axes are reported by validation on the tensor, as any other error
    public static TensorSpec withAxes(TensorSpec t, List<AxisSpec> axes) {
        return new TensorSpec(t.name(), t.dtype(), t.memory(), axes, t.mesh(), t.loop(), t.allocationIsLoop());
    }

    public static TensorSpec withDtype(TensorSpec t, DataType dtype) {
        return new TensorSpec(t.name(), dtype, t.memory(), t.axes(), t.mesh(), t.loop(), t.allocationIsLoop());
    }

    public static TensorSpec withMesh(TensorSpec t, MeshSpec mesh) {
        return new TensorSpec(t.name(), t.dtype(), t.memory(), t.axes(), mesh, t.loop(), t.allocationIsLoop());
    }

    public static TensorSpec withMemory(TensorSpec t, MemoryType memory) {
        return new TensorSpec(t.name(), t.dtype(), memory == MemoryType.GLOBAL ? null : memory, t.axes(), t.mesh(),
                t.loop(), t.allocationIsLoop());
    }

    /**
     * The tensor with new loop steps (the Properties view's "Loop steps"): adding the first makes the document
     * hostir-fusion/2, removing the last makes a version 1 document again ({@link FusionDocument#format()}).
     */
    public static TensorSpec withLoop(TensorSpec t, List<LoopStep> loop, boolean allocationIsLoop) {
        return new TensorSpec(t.name(), t.dtype(), t.memory(), t.axes(), t.mesh(), loop, allocationIsLoop);
    }

    public static Optional<OpSpec> producer(FusionDocument doc, String tensor) {
        return doc.ops().stream().filter(o -> o.output().equals(tensor)).findFirst();
    }

    public static int opIndex(FusionDocument doc, String output) {
        for (int i = 0; i < doc.ops().size(); i++) if (doc.ops().get(i).output().equals(output)) return i;
        return -1;
    }

    public static List<List<AxisSpec>> inputAxes(FusionDocument doc, OpSpec op) {
        List<List<AxisSpec>> out = new ArrayList<>();
        for (String in : op.inputs()) doc.tensor(in).ifPresent(t -> out.add(t.axes()));
        return out;
    }

    /** Ops in dataflow order (rule graph.order), stable otherwise; a cycle keeps the given order. */
    static FusionDocument reorderOps(FusionDocument doc) {
        Map<String, OpSpec> byOutput = new LinkedHashMap<>();
        for (OpSpec op : doc.ops()) byOutput.put(op.output(), op);
        List<OpSpec> ordered = new ArrayList<>();
        List<OpSpec> left = new ArrayList<>(doc.ops());
        while (!left.isEmpty()) {
            OpSpec ready = null;
            for (OpSpec op : left) {
                if (op.inputs().stream().noneMatch(i -> byOutput.containsKey(i) && left.contains(byOutput.get(i)))) {
                    ready = op;
                    break;
                }
            }
            if (ready == null) return doc;
            ordered.add(ready);
            left.remove(ready);
        }
        return ordered.equals(doc.ops()) ? doc : with(doc, doc.tensors(), ordered, doc.inputs(), doc.outputs());
    }

    private static FusionDocument replaceOp(FusionDocument doc, OpSpec old, OpSpec op) {
        List<OpSpec> ops = new ArrayList<>(doc.ops());
        ops.set(ops.indexOf(old), op);
        return with(doc, doc.tensors(), ops, doc.inputs(), doc.outputs());
    }

    private static FusionDocument replaceTensor(FusionDocument doc, TensorSpec old, TensorSpec t) {
        List<TensorSpec> tensors = new ArrayList<>(doc.tensors());
        tensors.set(tensors.indexOf(old), t);
        return with(doc, tensors, doc.ops(), doc.inputs(), doc.outputs());
    }

    static FusionDocument with(FusionDocument d, List<TensorSpec> tensors, List<OpSpec> ops, List<String> inputs,
                               List<String> outputs) {
        return new FusionDocument(d.name(), d.description(), d.symbols(), tensors, ops, inputs, outputs, d.layout());
    }

    private static <T> List<T> append(List<T> list, T item) {
        List<T> out = new ArrayList<>(list);
        out.add(item);
        return out;
    }

    private static List<String> without(List<String> list, String item) {
        return list.stream().filter(s -> !s.equals(item)).toList();
    }

    private static List<String> rename(List<String> list, String from, String to) {
        return list.stream().map(s -> s.equals(from) ? to : s).toList();
    }
}
