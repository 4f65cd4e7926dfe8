package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A left-to-right layered layout in linear time per sweep: longest-path layers, barycentre ordering, no
 * virtual nodes. Draw2d's DirectedGraphLayout inserts a virtual node per layer an edge spans, so a 200-op
 * chain whose ops all read one input (a span of hundreds of layers per edge) takes minutes there; this one
 * stays in milliseconds and is used when the spans add up to more than {@link #VIRTUAL_NODE_BUDGET}.
 */
public final class LayeredLayout {
    public static final int VIRTUAL_NODE_BUDGET = 1500;

    public record Size(int width, int height) {}

    public record Edge(String from, String to) {}

    private LayeredLayout() {}

    /** Longest-path layer of each node (sources at 0); nodes on a cycle keep the layer reached so far. */
    public static Map<String, Integer> layers(List<String> nodes, List<Edge> edges) {
        Map<String, List<String>> succ = new HashMap<>();
        Map<String, Integer> indegree = new HashMap<>();
        for (String n : nodes) indegree.put(n, 0);
        for (Edge e : edges) {
            if (!indegree.containsKey(e.from()) || !indegree.containsKey(e.to())) continue;
            succ.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e.to());
            indegree.merge(e.to(), 1, Integer::sum);
        }
        Map<String, Integer> layer = new LinkedHashMap<>();
        ArrayList<String> ready = new ArrayList<>();
        for (String n : nodes) {
            layer.put(n, 0);
            if (indegree.get(n) == 0) ready.add(n);
        }
        for (int i = 0; i < ready.size(); i++) {
            String n = ready.get(i);
            for (String s : succ.getOrDefault(n, List.of())) {
                layer.merge(s, layer.get(n) + 1, Math::max);
                if (indegree.merge(s, -1, Integer::sum) == 0) ready.add(s);
            }
        }
        return layer;
    }

    /** How many virtual nodes a virtual-node layout (Draw2d's) would insert for these edges. */
    public static long virtualNodes(List<String> nodes, List<Edge> edges) {
        Map<String, Integer> layer = layers(nodes, edges);
        long total = 0;
        for (Edge e : edges) {
            Integer a = layer.get(e.from()), b = layer.get(e.to());
            if (a != null && b != null) total += Math.max(0, Math.abs(b - a) - 1);
        }
        return total;
    }

    /** Top-left positions: one column per layer, nodes of a column ordered by their predecessors' rows. */
    public static Map<String, Layout.Position> positions(Map<String, Size> sizes, List<Edge> edges, int margin,
            int columnGap, int rowGap) {
        List<String> nodes = new ArrayList<>(sizes.keySet());
        Map<String, Integer> layer = layers(nodes, edges);
        int count = layer.values().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
        List<List<String>> columns = new ArrayList<>();
        for (int i = 0; i < count; i++) columns.add(new ArrayList<>());
        for (String n : nodes) columns.get(layer.get(n)).add(n);
        Map<String, List<String>> pred = new HashMap<>();
        for (Edge e : edges) {
            if (sizes.containsKey(e.from()) && sizes.containsKey(e.to())) {
                pred.computeIfAbsent(e.to(), k -> new ArrayList<>()).add(e.from());
            }
        }
        Map<String, Double> rank = new HashMap<>();
        for (List<String> column : columns) {
            for (int i = 0; i < column.size(); i++) rank.put(column.get(i), (double) i);
        }
        for (int sweep = 0; sweep < 4; sweep++) {
            for (List<String> column : columns) {
                Map<String, Double> key = new HashMap<>();
                for (String n : column) {
                    List<String> p = pred.getOrDefault(n, List.of());
                    key.put(n, p.isEmpty() ? rank.get(n) : p.stream().mapToDouble(rank::get).average().orElse(0));
                }
                column.sort(Comparator.comparingDouble(key::get));
                for (int i = 0; i < column.size(); i++) rank.put(column.get(i), (double) i);
            }
        }
        Map<String, Layout.Position> out = new LinkedHashMap<>();
        int x = margin;
        for (List<String> column : columns) {
            int y = margin, width = 0;
            for (String n : column) {
                out.put(n, new Layout.Position(x, y));
                y += sizes.get(n).height() + rowGap;
                width = Math.max(width, sizes.get(n).width());
            }
            x += width + columnGap;
        }
        return out;
    }
}
