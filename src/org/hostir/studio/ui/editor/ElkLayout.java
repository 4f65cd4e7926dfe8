package org.hostir.studio.ui.editor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.elk.alg.layered.options.FixedAlignment;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.alg.layered.options.WrappingStrategy;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.math.ElkPadding;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.options.HierarchyHandling;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;
import org.hostir.studio.ui.editor.model.Layout.Position;

/**
 * The graph's layered layout by the Eclipse Layout Kernel (ELK Layered): left to right, crossings minimised layer
 * by layer, edges routed orthogonally with their bend points, a long chain wrapped into rows of a screen-shaped
 * area, groups laid out inside their compound node. Pure: sizes, arrows and groups in, positions and routes out,
 * so it runs in a background job.
 */
public final class ElkLayout {
    public static final int MARGIN = 20;

    private ElkLayout() {}

    /** A box to place: its key, size and the key of the group it is drawn inside ({@code null}: none). */
    public record Box(String key, int width, int height, String group) {}

    /** An arrow to route between two boxes (or groups). */
    public record Arrow(String from, String to) {}

    /** Top-left positions (absolute), each arrow's route (start, bend points, end; absolute), the area used. */
    public record Result(Map<String, Position> positions, Map<Arrow, List<Position>> routes, int width, int height) {}

    /** About how wide a layer is (a tensor box and the gap), and the width from which a graph is wrapped. */
    static final int LAYER_WIDTH = 110, WRAP_WIDTH = 4000;

    /**
     * From this many boxes a graph is laid out with ELK's cheaper settings (issue 35, a 1,000-op fusion opening in
     * under 2 s): one Brandes-Koepf alignment instead of four balanced, one crossing-minimisation sweep per layer
     * pair instead of thoroughness 7. The 200-op example (402 boxes) keeps the full settings.
     */
    static final int LARGE = 800;

    private static boolean registered;

    /** ELK finds its algorithms by Java's ServiceLoader, which sees no other bundle inside OSGi: name it. */
    private static synchronized void register() {
        if (!registered) {
            LayoutMetaDataService.getInstance().registerLayoutMetaDataProviders(new LayeredOptions());
            registered = true;
        }
    }

    /**
     * Lays out {@code boxes} (and {@code groups}, their keys mapped to header sizes, each a compound node around
     * its members) with {@code arrows} between them; arrows naming an unknown key are left out.
     */
    public static Result layout(List<Box> boxes, List<Arrow> arrows, Map<String, Box> groups) {
        register();
        ElkNode root = ElkGraphUtil.createGraph();
        configure(root, true);
        if (groups.isEmpty() && layers(boxes, arrows) * LAYER_WIDTH > WRAP_WIDTH) {
            // a fusion is often a chain hundreds of layers long: wrapped into rows, it fills a screen-shaped area
            // instead of a strip tens of thousands of pixels wide (ELK wraps only flat graphs)
            root.setProperty(LayeredOptions.WRAPPING_STRATEGY, WrappingStrategy.MULTI_EDGE);
            root.setProperty(CoreOptions.ASPECT_RATIO, 1.6);
        }
        if (boxes.size() >= LARGE) {
            // measured on the 1,000-op chain (CPU of the layout, warm, median): a third less; no change in area
            root.setProperty(LayeredOptions.NODE_PLACEMENT_BK_FIXED_ALIGNMENT, FixedAlignment.LEFTUP);
            root.setProperty(LayeredOptions.THOROUGHNESS, 1);
        }
        if (!groups.isEmpty()) {
            // one layout over the groups' insides too, so an arrow into a group is routed to the member it reaches
            root.setProperty(CoreOptions.HIERARCHY_HANDLING, HierarchyHandling.INCLUDE_CHILDREN);
        }
        Map<String, ElkNode> nodes = new LinkedHashMap<>();
        for (Box g : groups.values()) {
            ElkNode n = ElkGraphUtil.createNode(root);
            configure(n, false);
            n.setProperty(CoreOptions.PADDING, new ElkPadding(g.height() + 8, 12, 12, 12));
            n.setIdentifier(g.key());
            nodes.put(g.key(), n);
        }
        for (Box b : boxes) {
            ElkNode parent = b.group() != null && nodes.containsKey(b.group()) ? nodes.get(b.group()) : root;
            ElkNode n = ElkGraphUtil.createNode(parent);
            n.setDimensions(b.width(), b.height());
            n.setIdentifier(b.key());
            nodes.put(b.key(), n);
        }
        Map<Arrow, ElkEdge> edges = new LinkedHashMap<>();
        for (Arrow a : arrows) {
            ElkNode from = nodes.get(a.from()), to = nodes.get(a.to());
            if (from != null && to != null && from != to && !edges.containsKey(a)) {
                edges.put(a, ElkGraphUtil.createSimpleEdge(from, to));
            }
        }
        new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());
        return result(root, nodes, edges);
    }

    /**
     * Lays out two chains of boxes, one under and one over {@link #LARGE}, so that ELK's classes are loaded and its
     * code compiled before the first fusion opens (issue 35: the first layout of a session took about 2 s of CPU
     * more than the next, on a 1,000-op fusion; the Studio runs this in the background at start).
     */
    public static void warmUp() {
        for (int n : new int[] {LARGE / 4, LARGE + 2}) {
            List<Box> boxes = new ArrayList<>();
            List<Arrow> arrows = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                boxes.add(new Box("b" + i, 80, 40, null));
                if (i > 0) arrows.add(new Arrow("b" + (i - 1), "b" + i));
            }
            layout(boxes, arrows, Map.of());
        }
    }

    /** How many layers the longest path of arrows spans (arrows closing a cycle are not followed). */
    static int layers(List<Box> boxes, List<Arrow> arrows) {
        Map<String, List<String>> next = new HashMap<>();
        Map<String, Integer> indegree = new HashMap<>();
        for (Box b : boxes) indegree.put(b.key(), 0);
        for (Arrow a : arrows) {
            if (!indegree.containsKey(a.from()) || !indegree.containsKey(a.to())) continue;
            next.computeIfAbsent(a.from(), k -> new ArrayList<>()).add(a.to());
            indegree.merge(a.to(), 1, Integer::sum);
        }
        Map<String, Integer> depth = new HashMap<>();
        ArrayDeque<String> ready = new ArrayDeque<>();
        indegree.forEach((k, d) -> { if (d == 0) ready.add(k); });
        int most = boxes.isEmpty() ? 0 : 1;
        while (!ready.isEmpty()) {
            String k = ready.poll();
            int d = depth.merge(k, 1, Math::max);
            most = Math.max(most, d);
            for (String n : next.getOrDefault(k, List.of())) {
                depth.merge(n, d + 1, Math::max);
                if (indegree.merge(n, -1, Integer::sum) == 0) ready.add(n);
            }
        }
        return most;
    }

    /** A grid in the given order, for a graph the layout engine failed on: every node still gets a place. */
    public static Result grid(List<Box> boxes) {
        Map<String, Position> positions = new LinkedHashMap<>();
        int i = 0;
        for (Box b : boxes) {
            positions.put(b.key(), new Position(MARGIN + (i % 6) * 220, MARGIN + (i / 6) * 110));
            i++;
        }
        return new Result(positions, Map.of(), MARGIN + 6 * 220, MARGIN + (i / 6 + 1) * 110);
    }

    private static void configure(ElkNode n, boolean top) {
        n.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
        n.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
        n.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.ORTHOGONAL);
        n.setProperty(CoreOptions.SPACING_NODE_NODE, 24.0);
        n.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 72.0);   // room for a stub and its name
        n.setProperty(LayeredOptions.SPACING_EDGE_NODE_BETWEEN_LAYERS, 16.0);
        n.setProperty(LayeredOptions.SEPARATE_CONNECTED_COMPONENTS, top);
        // boxes of fixed size without ports or labels: ELK's per-node label and port placement has nothing to do
        n.setProperty(CoreOptions.OMIT_NODE_MICRO_LAYOUT, true);
        if (top) {
            n.setProperty(CoreOptions.PADDING, new ElkPadding(MARGIN));
        }
    }

    private static Result result(ElkNode root, Map<String, ElkNode> nodes, Map<Arrow, ElkEdge> edges) {
        Map<String, Position> positions = new LinkedHashMap<>();
        Map<ElkNode, int[]> origin = new HashMap<>();
        nodes.forEach((k, n) -> {
            int[] o = absolute(n.getParent(), root, origin);
            positions.put(k, new Position((int) Math.round(n.getX()) + o[0], (int) Math.round(n.getY()) + o[1]));
        });
        Map<Arrow, List<Position>> routes = new LinkedHashMap<>();
        edges.forEach((a, e) -> {
            if (e.getSections().isEmpty()) return;
            ElkEdgeSection s = e.getSections().get(0);
            int[] o = absolute(e.getContainingNode(), root, origin);
            List<Position> route = new ArrayList<>();
            route.add(at(s.getStartX(), s.getStartY(), o));
            for (ElkBendPoint b : s.getBendPoints()) route.add(at(b.getX(), b.getY(), o));
            route.add(at(s.getEndX(), s.getEndY(), o));
            routes.put(a, List.copyOf(route));
        });
        return new Result(positions, routes, (int) Math.ceil(root.getWidth()), (int) Math.ceil(root.getHeight()));
    }

    private static Position at(double x, double y, int[] origin) {
        return new Position((int) Math.round(x) + origin[0], (int) Math.round(y) + origin[1]);
    }

    /** Where {@code node}'s coordinate system starts in the root's. */
    private static int[] absolute(ElkNode node, ElkNode root, Map<ElkNode, int[]> memo) {
        if (node == null || node == root) return new int[2];
        int[] known = memo.get(node);
        if (known != null) return known;
        int[] parent = absolute(node.getParent(), root, memo);
        int[] out = { parent[0] + (int) Math.round(node.getX()), parent[1] + (int) Math.round(node.getY()) };
        memo.put(node, out);
        return out;
    }
}
