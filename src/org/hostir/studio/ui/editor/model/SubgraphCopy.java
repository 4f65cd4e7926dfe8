package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ui.editor.model.Layout.Position;

/**
 * Copy, paste and duplicate of a part of the graph (GEF Logic's copy and paste): the selected tensors and ops (an op
 * brings its output tensor) come back under fresh names {@code tv<n>}, so tensor and op names stay unique; an operand
 * that was copied too is read from its copy, any other operand from the original tensor where the target has it. A
 * copied tensor whose op was not copied becomes a fusion input of its runtime shape.
 */
public final class SubgraphCopy {
    private SubgraphCopy() {}

    /** What Copy took: the source document, the tensors (op outputs included) and ops, and where they were. */
    public record Clip(FusionDocument source, List<String> tensors, List<String> opOutputs, Map<String, Position> at) {
        public boolean isEmpty() { return tensors.isEmpty(); }
    }

    /** The result of a paste: the new document and the new nodes' keys (to select them). */
    public record Pasted(FusionDocument document, List<String> keys) {}

    /** Takes the nodes of {@code keys} ({@code op:<output>} for ops) from {@code doc}, with their positions. */
    public static Clip take(FusionDocument doc, Collection<String> keys, Map<String, Position> positions) {
        Set<String> names = new HashSet<>();
        List<String> ops = new ArrayList<>();
        for (OpSpec op : doc.ops()) {
            if (keys.contains(Layout.opKey(op.output()))) {
                ops.add(op.output());
                names.add(op.output());
            }
        }
        for (TensorSpec t : doc.tensors()) if (keys.contains(Layout.tensorKey(t.name()))) names.add(t.name());
        List<String> tensors = doc.tensors().stream().map(TensorSpec::name).filter(names::contains).toList();
        Map<String, Position> at = new LinkedHashMap<>();
        for (String t : tensors) if (positions.containsKey(t)) at.put(t, positions.get(t));
        for (String o : ops) if (positions.containsKey(Layout.opKey(o))) at.put(Layout.opKey(o), positions.get(Layout.opKey(o)));
        return new Clip(doc, tensors, ops, at);
    }

    /**
     * Adds a copy of {@code clip} to {@code doc}, its nodes {@code dx, dy} away from the originals; {@code positions}
     * are where the target's nodes are now (kept in the layout, so nothing else moves).
     */
    public static Pasted paste(FusionDocument doc, Clip clip, Map<String, Position> positions, int dx, int dy) {
        Map<String, String> renamed = freshNames(doc, clip.tensors());
        FusionDocument src = clip.source();
        List<TensorSpec> tensors = new ArrayList<>(doc.tensors());
        List<OpSpec> ops = new ArrayList<>(doc.ops());
        List<String> inputs = new ArrayList<>(doc.inputs()), outputs = new ArrayList<>(doc.outputs());
        for (String name : clip.tensors()) {
            TensorSpec t = src.tensor(name).orElseThrow();
            boolean computed = clip.opOutputs().contains(name);
            List<AxisSpec> axes = computed ? t.axes() : ShapeInference.runtime(t.axes());
            tensors.add(FusionEdits.withAxes(renamedTensor(t, renamed.get(name)), axes));
            if (!computed) inputs.add(renamed.get(name));
            if (computed && src.outputs().contains(name)) outputs.add(renamed.get(name));
        }
        for (String output : clip.opOutputs()) {
            OpSpec op = FusionEdits.producer(src, output).orElseThrow();
            List<String> reads = new ArrayList<>();
            for (String in : op.inputs()) {
                if (renamed.containsKey(in)) reads.add(renamed.get(in));
                else if (doc.tensor(in).isPresent()) reads.add(in);
            }
            ops.add(new OpSpec(op.op(), reads, renamed.get(output), op.axes(), op.flags(), op.permute()));
        }
        FusionDocument d = FusionEdits.with(doc, tensors, ops, inputs, outputs);
        Map<String, Position> layout = new LinkedHashMap<>(positions);
        List<String> keys = new ArrayList<>();
        for (String name : clip.tensors()) keys.add(Layout.tensorKey(renamed.get(name)));
        for (String output : clip.opOutputs()) keys.add(Layout.opKey(renamed.get(output)));
        clip.at().forEach((k, p) -> {
            String key = k.startsWith(Layout.OP_PREFIX) ? Layout.opKey(renamed.get(k.substring(Layout.OP_PREFIX.length())))
                    : Layout.tensorKey(renamed.get(k));
            layout.put(key, new Position(Math.max(0, p.x() + dx), Math.max(0, p.y() + dy)));
        });
        d = d.withLayout(Layout.withPositions(d.layout(), layout));
        return new Pasted(FusionEdits.reorderOps(d), keys);
    }

    /** A fresh {@code tv<n>} for each name, free in {@code doc}. */
    private static Map<String, String> freshNames(FusionDocument doc, List<String> names) {
        List<String> fresh = FusionEdits.freshNames(doc, names.size());
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) out.put(names.get(i), fresh.get(i));
        return out;
    }

    private static TensorSpec renamedTensor(TensorSpec t, String name) {
        return new TensorSpec(name, t.dtype(), t.memory(), t.axes(), t.mesh(), t.loop(), t.allocationIsLoop());
    }
}
