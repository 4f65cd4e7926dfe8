package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finding a node of the graph by name, as the graph's find bar does: a tensor by its name, an op by its output's
 * name or its kind ({@code matmul}). Case does not matter; whole-name matches come first, then the nodes whose name
 * contains the text, each in file order (tensors, then ops).
 */
public final class GraphSearch {
    private GraphSearch() {}

    /** The keys of the nodes {@code text} finds, best first; none for blank text. */
    public static List<String> find(GraphElements graph, String text) {
        String q = text.strip().toLowerCase(Locale.ROOT);
        List<String> exact = new ArrayList<>(), partial = new ArrayList<>();
        if (q.isEmpty()) return exact;
        for (GraphElements.Node n : graph.nodes().values()) {
            List<String> names = switch (n) {
                case GraphElements.TensorNode t -> List.of(t.tensor().name());
                case GraphElements.OpNode o -> List.of(o.output(), o.kind(), Layout.opKey(o.output()));
            };
            boolean whole = false, part = false;
            for (String name : names) {
                String s = name.toLowerCase(Locale.ROOT);
                whole |= s.equals(q);
                part |= s.contains(q);
            }
            if (whole) exact.add(n.key());
            else if (part) partial.add(n.key());
        }
        exact.addAll(partial);
        return exact;
    }
}
