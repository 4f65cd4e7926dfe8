package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.engine.ShardingReport.TensorSharding;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.DeviceMesh;

/**
 * What the graph shows of a document, element by element (the model side of GEF's Shapes example): a node per
 * tensor and per op, an edge per operand and per output. Every element is a value, so the editor's parts compare
 * an element before and after an edit and redraw a figure only when its own element changed.
 */
public record GraphElements(Map<String, Node> nodes, Set<Edge> edges) {
    public GraphElements {
        nodes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        edges = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(edges));
    }

    /** A node of the graph, named by its layout key ({@link Layout}). */
    public sealed interface Node permits TensorNode, OpNode {
        String key();
    }

    /**
     * A tensor: its spec, its role ("input", "output" or "") and its mesh's colour index (-1: no mesh; an inferred
     * mesh takes the colour of the written one with the same devices), and its sharding after propagation (null when
     * the document does not load), whose inferred parts the node draws apart from the written ones.
     */
    public record TensorNode(TensorSpec tensor, String role, int mesh, TensorSharding sharding) implements Node {
        @Override
        public String key() { return Layout.tensorKey(tensor.name()); }
    }

    /** An op, named by its output, with its kind's file name and its index in the file. */
    public record OpNode(String kind, String output, int index) implements Node {
        @Override
        public String key() { return Layout.opKey(output); }
    }

    /** An arrow between two node keys; {@code slot} names the operand of a many-input op ("A", "B"), else "". */
    public record Edge(String from, String to, String slot) {}

    /** The elements of {@code doc} without shardings (a document that does not load). */
    public static GraphElements of(FusionDocument doc) { return of(doc, Shardings.NONE); }

    /**
     * The elements of {@code doc} with its shardings after propagation, tensors then ops in file order; an edge to a
     * tensor not in the file is left out.
     */
    public static GraphElements of(FusionDocument doc, Shardings shardings) {
        Map<String, Node> nodes = new LinkedHashMap<>();
        List<String> meshes = new ArrayList<>();
        Map<DeviceMesh, String> spelled = new LinkedHashMap<>();
        for (TensorSpec t : doc.tensors()) {
            String mesh = AxisText.format(t.mesh());
            if (!(t.mesh() instanceof MeshSpec.Absent) && !meshes.contains(mesh)) meshes.add(mesh);
            TensorSharding s = shardings.get(t.name());
            if (!(t.mesh() instanceof MeshSpec.Absent) && s != null && s.mesh() != null) spelled.putIfAbsent(s.mesh(), mesh);
        }
        for (TensorSpec t : doc.tensors()) {
            String role = doc.inputs().contains(t.name()) ? "input" : doc.outputs().contains(t.name()) ? "output" : "";
            TensorSharding s = shardings.get(t.name());
            String m = !(t.mesh() instanceof MeshSpec.Absent) ? AxisText.format(t.mesh())
                    : s != null && s.mesh() != null ? spelled.get(s.mesh()) : null;
            TensorNode n = new TensorNode(t, role, m == null ? -1 : meshes.indexOf(m), s);
            nodes.put(n.key(), n);
        }
        Set<Edge> edges = new LinkedHashSet<>();
        for (int i = 0; i < doc.ops().size(); i++) {
            OpSpec op = doc.ops().get(i);
            OpNode n = new OpNode(op.op().fileName(), op.output(), i);
            nodes.put(n.key(), n);
            for (int s = 0; s < op.inputs().size(); s++) {
                // operand order matters (matmul A x B): each input edge of a many-input op is labelled
                String slot = op.inputs().size() > 1 ? Character.toString((char) ('A' + s)) : "";
                if (nodes.containsKey(op.inputs().get(s))) edges.add(new Edge(op.inputs().get(s), n.key(), slot));
            }
            if (nodes.containsKey(op.output())) edges.add(new Edge(n.key(), op.output(), ""));
        }
        return new GraphElements(nodes, edges);
    }
}
