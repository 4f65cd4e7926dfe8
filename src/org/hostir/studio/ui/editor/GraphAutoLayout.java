package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.draw2d.geometry.Dimension;
import org.eclipse.draw2d.geometry.Insets;
import org.eclipse.draw2d.graph.DirectedGraph;
import org.eclipse.draw2d.graph.DirectedGraphLayout;
import org.eclipse.draw2d.graph.Edge;
import org.eclipse.draw2d.graph.Node;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.ui.editor.model.LayeredLayout;
import org.hostir.studio.ui.editor.model.Layout;
import org.hostir.studio.ui.editor.model.Layout.Position;

/** Layered left-to-right positions of the graph's nodes: Draw2d's DirectedGraphLayout, or ours on big graphs. */
final class GraphAutoLayout {
    static final int MARGIN = 20;

    private GraphAutoLayout() {}

    /** Positions for the nodes of {@code sizes} (in their order), run top-down and then transposed. */
    static Map<String, Position> positions(Map<String, Dimension> sizes, FusionDocument doc) {
        Map<String, Position> out = new LinkedHashMap<>();
        DirectedGraph graph = new DirectedGraph();
        Map<String, Node> gnodes = new LinkedHashMap<>();
        sizes.forEach((k, d) -> {
            Node n = new Node(k);
            n.width = d.height;   // transposed: the layout's rows become our columns
            n.height = d.width;
            graph.nodes.add(n);
            gnodes.put(k, n);
        });
        for (OpSpec op : doc.ops()) {
            Node o = gnodes.get(Layout.opKey(op.output()));
            for (String in : op.inputs()) if (gnodes.containsKey(in)) graph.edges.add(new Edge(gnodes.get(in), o));
            if (gnodes.containsKey(op.output())) graph.edges.add(new Edge(o, gnodes.get(op.output())));
        }
        List<LayeredLayout.Edge> spans = new ArrayList<>();
        for (OpSpec op : doc.ops()) {
            for (String in : op.inputs()) spans.add(new LayeredLayout.Edge(in, Layout.opKey(op.output())));
            spans.add(new LayeredLayout.Edge(Layout.opKey(op.output()), op.output()));
        }
        if (LayeredLayout.virtualNodes(new ArrayList<>(gnodes.keySet()), spans) > LayeredLayout.VIRTUAL_NODE_BUDGET) {
            Map<String, LayeredLayout.Size> boxes = new LinkedHashMap<>();
            sizes.forEach((k, d) -> boxes.put(k, new LayeredLayout.Size(d.width, d.height)));
            return LayeredLayout.positions(boxes, spans, MARGIN, 60, 32);
        }
        try {
            graph.setDefaultPadding(new Insets(16, 30, 16, 30));
            new DirectedGraphLayout().visit(graph);
            gnodes.forEach((k, n) -> out.put(k, new Position(MARGIN + n.y, MARGIN + n.x)));
        } catch (RuntimeException e) {
            // a graph the layout cannot handle still gets a readable placement: a grid in document order
            int i = 0;
            for (String k : gnodes.keySet()) {
                out.put(k, new Position(MARGIN + (i % 6) * 220, MARGIN + (i / 6) * 110));
                i++;
            }
        }
        return out;
    }
}
