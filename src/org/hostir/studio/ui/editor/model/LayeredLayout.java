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
        return place(columns, sizes, margin, columnGap, rowGap);
    }

    /**
     * Columns left to right, wrapped into bands below each other once a band is as wide as {@link #bandWidth}:
     * a long chain (a 200-op fusion is 400 layers, 80,000 px) then fills a screen-shaped area instead of a strip
     * that the Outline shrinks to a line and whose edges span tens of thousands of pixels.
     */
    static Map<String, Layout.Position> place(List<List<String>> columns, Map<String, Size> sizes, int margin,
            int columnGap, int rowGap) {
        int[] width = new int[columns.size()], height = new int[columns.size()];
        long total = 0;
        int tallest = 0;
        for (int c = 0; c < columns.size(); c++) {
            for (String n : columns.get(c)) {
                width[c] = Math.max(width[c], sizes.get(n).width());
                height[c] += sizes.get(n).height() + rowGap;
            }
            total += width[c] + columnGap;
            tallest = Math.max(tallest, height[c]);
        }
        int band = bandWidth(total, tallest + rowGap);
        Map<String, Layout.Position> out = new LinkedHashMap<>();
        int x = margin, top = margin, bandHeight = 0;
        for (int c = 0; c < columns.size(); c++) {
            if (x > margin && x + width[c] > margin + band) {   // the band is full: the next one goes below
                x = margin;
                top += bandHeight + 2 * rowGap;
                bandHeight = 0;
            }
            int y = top;
            for (String n : columns.get(c)) {
                out.put(n, new Layout.Position(x, y));
                y += sizes.get(n).height() + rowGap;
            }
            bandHeight = Math.max(bandHeight, height[c]);
            x += width[c] + columnGap;
        }
        return out;
    }

    /** The widest a band gets: the whole width when that is at most 4,000 px, else a 16:10 area's width. */
    static int bandWidth(long totalWidth, int bandHeight) {
        if (totalWidth <= 4000) return (int) totalWidth;
        return (int) Math.max(4000, Math.sqrt(totalWidth * (double) bandHeight * 1.6));
    }
}
