package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.ui.editor.ElkLayout;
import org.hostir.studio.ui.editor.ElkLayout.Arrow;
import org.hostir.studio.ui.editor.ElkLayout.Box;
import org.hostir.studio.ui.editor.model.GraphElements;
import org.hostir.studio.ui.editor.model.GraphSearch;
import org.hostir.studio.ui.editor.model.Layout.Position;
import org.hostir.studio.ui.editor.model.Placement;
import org.junit.jupiter.api.Test;

/** The layout engine's answer (ELK Layered) and how it meets the places people chose ({@link Placement}). */
public class ElkLayoutTest {
    // tv0 -> add -> tv2 <- tv1, tv2 -> mul -> tv3 <- tv0: tv0 given first would cross tv1's arrow in file order
    private static final List<Arrow> ARROWS = List.of(new Arrow("tv0", "op:tv3"), new Arrow("tv1", "op:tv2"),
            new Arrow("tv0", "op:tv2"), new Arrow("op:tv2", "tv2"), new Arrow("tv2", "op:tv3"), new Arrow("op:tv3", "tv3"));

    private static List<Box> boxes(String group) {
        List<Box> out = new ArrayList<>();
        for (String n : List.of("tv0", "tv1", "tv2", "tv3")) out.add(new Box(n, 100, 50, n.equals("tv2") ? group : null));
        for (String n : List.of("op:tv2", "op:tv3")) out.add(new Box(n, 30, 30, n.equals("op:tv2") ? group : null));
        return out;
    }

    @Test
    void arrowsGoLeftToRightAlongOrthogonalRoutesWithoutCrossings() {
        ElkLayout.Result r = ElkLayout.layout(boxes(null), ARROWS, Map.of());
        assertEquals(6, r.positions().size());
        for (Arrow a : ARROWS) {
            assertTrue(r.positions().get(a.from()).x() < r.positions().get(a.to()).x(), a.toString());
            List<Position> route = r.routes().get(a);
            for (int i = 0; i + 1 < route.size(); i++) {
                Position p = route.get(i), q = route.get(i + 1);
                assertTrue(p.x() == q.x() || p.y() == q.y(), "orthogonal: " + route);
            }
        }
        List<int[]> drawn = new ArrayList<>();
        r.routes().values().forEach(route -> drawn.add(route.stream().flatMapToInt(p -> java.util.stream.IntStream.of(p.x(), p.y())).toArray()));
        assertEquals(0, crossings(drawn), "crossings minimised to none");
        Map<String, Placement.Size> sizes = new LinkedHashMap<>();
        for (Box b : boxes(null)) sizes.put(b.key(), new Placement.Size(b.width(), b.height()));
        for (var a : r.positions().entrySet()) {
            for (var b : r.positions().entrySet()) {
                if (a.getKey().compareTo(b.getKey()) < 0) {
                    assertFalse(overlapSized(a.getValue(), sizes.get(a.getKey()), b.getValue(), sizes.get(b.getKey())),
                            a + " overlaps " + b);
                }
            }
        }
    }

    @Test
    void aGroupIsACompoundNodeAroundItsMembers() {
        ElkLayout.Result r = ElkLayout.layout(boxes("group:g"), ARROWS, Map.of("group:g", new Box("group:g", 0, 20, null)));
        Position g = r.positions().get("group:g");
        for (String member : List.of("op:tv2", "tv2")) {
            Position p = r.positions().get(member);
            assertTrue(p.x() > g.x() && p.y() > g.y() + 20, member + " inside the group, below its header: " + p + " " + g);
        }
        assertTrue(r.positions().get("tv3").x() > r.positions().get("tv2").x(), "outside nodes are laid out around it");
    }

    @Test
    void fixedNodesStayAndNewOnesArePlacedNearTheirNeighboursWithoutOverlap() {
        Map<String, Placement.Size> sizes = new LinkedHashMap<>();
        for (Box b : boxes(null)) sizes.put(b.key(), new Placement.Size(b.width(), b.height()));
        Set<GraphElements.Edge> edges = new LinkedHashSet<>();
        ARROWS.forEach(a -> edges.add(new GraphElements.Edge(a.from(), a.to(), "")));
        ElkLayout.Result laid = ElkLayout.layout(boxes(null), ARROWS, Map.of());
        // a person moved everything but mul and its output far down; those two are new
        Map<String, Position> fixed = new LinkedHashMap<>();
        for (String k : List.of("tv0", "tv1", "tv2", "op:tv2")) {
            fixed.put(k, new Position(laid.positions().get(k).x() + 5, laid.positions().get(k).y() + 400));
        }
        fixed.put("tv3", new Position(laid.positions().get("op:tv3").x(), laid.positions().get("op:tv3").y() + 400));
        sizes.put("tv3", new Placement.Size(100, 50));
        Map<String, Position> out = Placement.incremental(sizes, edges, fixed, laid.positions());
        fixed.forEach((k, p) -> assertEquals(p, out.get(k), k + " kept its place"));
        Position mul = out.get("op:tv3");
        assertTrue(mul.x() > out.get("tv2").x() && Math.abs(mul.y() - out.get("tv2").y()) < 200,
                "the new op sits right of its operand's new place: " + mul);
        for (var other : out.entrySet()) {
            if (!other.getKey().equals("op:tv3")) {
                assertFalse(overlapSized(mul, sizes.get("op:tv3"), other.getValue(), sizes.get(other.getKey())),
                        "op:tv3 overlaps " + other.getKey());
            }
        }
    }

    @Test
    void sharedTensorsAreThoseReadByFourOrMoreOps() {
        GraphElements g = GraphElements.of(EditorBenchmarkTest.generated(8));
        assertEquals(Set.of("tv0", "tv1"), Placement.shared(g.edges()), "tv0 read by 4 of the 8 ops, tv1 by 5");
        assertEquals(Set.of(), Placement.shared(GraphElements.of(EditorBenchmarkTest.generated(4)).edges()),
                "tv0 read by 2 of the 4 ops, tv1 by 3");
    }

    @Test
    void searchFindsTensorsAndOpsByNameWholeNamesFirst() {
        GraphElements g = GraphElements.of(EditorBenchmarkTest.generated(20));
        assertEquals(List.of("tv15", "op:tv15"), GraphSearch.find(g, "TV15"));
        assertEquals(List.of("tv2", "op:tv2", "tv20", "tv21", "op:tv20", "op:tv21"), GraphSearch.find(g, "tv2"));
        assertEquals(10, GraphSearch.find(g, "mul").size());
        assertEquals(List.of(), GraphSearch.find(g, "  "));
    }


    private static boolean overlapSized(Position a, Placement.Size sa, Position b, Placement.Size sb) {
        return a.x() < b.x() + sb.width() && b.x() < a.x() + sa.width() && a.y() < b.y() + sb.height()
                && b.y() < a.y() + sa.height();
    }

    /** Proper crossings between segments of different arrows (touching ends do not count). */
    public static int crossings(List<int[]> arrows) {
        int n = 0;
        for (int a = 0; a < arrows.size(); a++) {
            for (int b = a + 1; b < arrows.size(); b++) {
                int[] p = arrows.get(a), q = arrows.get(b);
                for (int i = 0; i + 3 < p.length; i += 2) {
                    for (int j = 0; j + 3 < q.length; j += 2) {
                        if (cross(p[i], p[i + 1], p[i + 2], p[i + 3], q[j], q[j + 1], q[j + 2], q[j + 3])) n++;
                    }
                }
            }
        }
        return n;
    }

    private static boolean cross(int x1, int y1, int x2, int y2, int x3, int y3, int x4, int y4) {
        return side(x1, y1, x2, y2, x3, y3) * side(x1, y1, x2, y2, x4, y4) < 0
                && side(x3, y3, x4, y4, x1, y1) * side(x3, y3, x4, y4, x2, y2) < 0;
    }

    private static long side(int ax, int ay, int bx, int by, int cx, int cy) {
        return Long.signum((long) (bx - ax) * (cy - ay) - (long) (by - ay) * (cx - ax));
    }
}
