package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ui.editor.model.LayeredLayout;
import org.hostir.studio.ui.editor.model.LayeredLayout.Edge;
import org.hostir.studio.ui.editor.model.LayeredLayout.Size;
import org.hostir.studio.ui.editor.model.Layout.Position;
import org.junit.jupiter.api.Test;

public class LayeredLayoutTest {
    // tv0 -> add -> tv2 <- tv1, tv2 -> mul -> tv3 <- tv0 (a long edge from tv0 to mul)
    private static final List<Edge> EDGES = List.of(new Edge("tv0", "op:tv2"), new Edge("tv1", "op:tv2"),
            new Edge("op:tv2", "tv2"), new Edge("tv2", "op:tv3"), new Edge("tv0", "op:tv3"),
            new Edge("op:tv3", "tv3"));

    private static Map<String, Size> sizes() {
        Map<String, Size> s = new LinkedHashMap<>();
        for (String n : List.of("tv0", "tv1", "tv2", "tv3")) s.put(n, new Size(100, 50));
        for (String n : List.of("op:tv2", "op:tv3")) s.put(n, new Size(30, 30));
        return s;
    }

    @Test
    void layersAreLongestPathsAndSpansCountVirtualNodes() {
        List<String> nodes = List.copyOf(sizes().keySet());
        Map<String, Integer> layer = LayeredLayout.layers(nodes, EDGES);
        assertEquals(Map.of("tv0", 0, "tv1", 0, "op:tv2", 1, "tv2", 2, "op:tv3", 3, "tv3", 4), layer);
        assertEquals(2, LayeredLayout.virtualNodes(nodes, EDGES), "tv0 -> op:tv3 spans layers 1 and 2");
    }

    @Test
    void everyEdgeGoesLeftToRightAndNodesOfAColumnDoNotOverlap() {
        Map<String, Position> p = LayeredLayout.positions(sizes(), EDGES, 10, 40, 20);
        assertEquals(6, p.size());
        for (Edge e : EDGES) assertTrue(p.get(e.from()).x() < p.get(e.to()).x(), e.toString());
        assertEquals(p.get("tv0").x(), p.get("tv1").x(), "both inputs in the first column");
        assertTrue(Math.abs(p.get("tv0").y() - p.get("tv1").y()) >= 50 + 20, "stacked with the row gap");
        assertEquals(10, p.get("tv0").x(), "margin");
        assertEquals(10 + 100 + 40, p.get("op:tv2").x(), "column width plus the gap");
    }

    @Test
    void aCycleStillGetsAPositionForEveryNode() {
        Map<String, Size> s = Map.of("a", new Size(10, 10), "b", new Size(10, 10));
        Map<String, Position> p = LayeredLayout.positions(new LinkedHashMap<>(s),
                List.of(new Edge("a", "b"), new Edge("b", "a")), 0, 5, 5);
        assertEquals(s.keySet(), p.keySet());
    }

    /** Issue 18, defect 7: a 400-layer chain wraps into bands that fill a screen-shaped area, without overlaps. */
    @Test
    void aLongChainWrapsIntoBands() {
        Map<String, Size> sizes = new LinkedHashMap<>();
        List<Edge> edges = new java.util.ArrayList<>();
        sizes.put("in", new Size(150, 60));
        for (int i = 0; i < 400; i++) {
            sizes.put("n" + i, new Size(150, 60));
            edges.add(new Edge(i == 0 ? "in" : "n" + (i - 1), "n" + i));
            edges.add(new Edge("in", "n" + i));
        }
        Map<String, Position> p = LayeredLayout.positions(sizes, edges, 20, 60, 32);
        int right = p.values().stream().mapToInt(Position::x).max().orElseThrow() + 150;
        int bottom = p.values().stream().mapToInt(Position::y).max().orElseThrow() + 60;
        assertTrue(right < 10_000, "wrapped: " + right + " px wide (unwrapped about 84,000)");
        double aspect = (double) right / bottom;
        assertTrue(aspect > 0.4 && aspect < 4, "screen-shaped: " + right + " x " + bottom);
        var boxes = p.entrySet().stream().map(e -> new int[] { e.getValue().x(), e.getValue().y() }).toList();
        for (int a = 0; a < boxes.size(); a++) {
            for (int b = a + 1; b < boxes.size(); b++) {
                boolean apart = Math.abs(boxes.get(a)[0] - boxes.get(b)[0]) >= 150
                        || Math.abs(boxes.get(a)[1] - boxes.get(b)[1]) >= 60;
                assertTrue(apart, "nodes " + a + " and " + b + " overlap");
            }
        }
    }
}
