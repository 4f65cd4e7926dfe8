package org.hostir.studio.ui.editor.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.ui.editor.model.Layout.Position;

/**
 * What the layout engine is given and how its answer meets the positions people chose. A tensor that many ops read
 * (a weight or an input every layer reads) is drawn as a short named stub at each reader instead of an arrow across
 * the whole graph, as Netron and TensorBoard draw shared constants; those arrows do not take part in the layout.
 * Incremental placement: nodes that already have a position keep it; only the others are placed, each where the
 * layout put it relative to its nearest placed neighbour, moved down until it overlaps nothing.
 */
public final class Placement {
    /** From this many readers on, a tensor's arrows are stubs at its readers. */
    public static final int SHARED_READERS = 4;
    static final int GAP = 8;

    private Placement() {}

    /** A node's size. */
    public record Size(int width, int height) {}

    /** Tensors read by at least {@link #SHARED_READERS} ops. */
    public static Set<String> shared(Set<GraphElements.Edge> edges) {
        Map<String, Integer> readers = new HashMap<>();
        for (GraphElements.Edge e : edges) {
            if (e.to().startsWith(Layout.OP_PREFIX) && !e.from().startsWith(Layout.OP_PREFIX)) {
                readers.merge(e.from(), 1, Integer::sum);
            }
        }
        Set<String> out = new LinkedHashSet<>();
        readers.forEach((k, n) -> { if (n >= SHARED_READERS) out.add(k); });
        return out;
    }

    /** Whether an edge is drawn as a stub at its reader (its tensor is {@link #shared}). */
    public static boolean isStub(GraphElements.Edge e, Set<String> shared) { return shared.contains(e.from()); }

    /**
     * Positions of every node of {@code sizes}: {@code fixed} ones where they are, the rest placed from the
     * layout's {@code laid} positions relative to their nearest fixed neighbour (over {@code edges}, either way),
     * or shifted with the whole layout below the fixed ones when no neighbour is fixed.
     */
    public static Map<String, Position> incremental(Map<String, Size> sizes, Set<GraphElements.Edge> edges,
            Map<String, Position> fixed, Map<String, Position> laid) {
        Map<String, Position> out = new LinkedHashMap<>();
        List<int[]> taken = new ArrayList<>();
        for (var e : sizes.entrySet()) {
            Position p = fixed.get(e.getKey());
            if (p != null) {
                out.put(e.getKey(), p);
                taken.add(box(p, e.getValue()));
            }
        }
        if (out.size() == sizes.size()) return out;
        Map<String, List<String>> near = neighbours(edges);
        // only a node connected to a fixed one has an anchor: a search from every other node would walk its whole
        // component for nothing (all of a 1,000-op fusion's 2,002 nodes when it opens with none placed, issue 35)
        Set<String> anchored = reachable(fixed.keySet(), near);
        int below = taken.stream().mapToInt(b -> b[1] + b[3]).max().orElse(0) + 4 * GAP;
        for (var e : sizes.entrySet()) {
            String k = e.getKey();
            if (out.containsKey(k) || !laid.containsKey(k)) continue;
            String anchor = anchored.contains(k) ? nearestFixed(k, near, fixed) : null;
            Position at = anchor == null || !laid.containsKey(anchor)
                    ? new Position(laid.get(k).x(), laid.get(k).y() + (fixed.isEmpty() ? 0 : below))
                    : new Position(fixed.get(anchor).x() + laid.get(k).x() - laid.get(anchor).x(),
                            fixed.get(anchor).y() + laid.get(k).y() - laid.get(anchor).y());
            at = free(at, e.getValue(), taken);
            out.put(k, at);
            taken.add(box(at, e.getValue()));
        }
        return out;
    }

    private static Map<String, List<String>> neighbours(Set<GraphElements.Edge> edges) {
        Map<String, List<String>> near = new HashMap<>();
        for (GraphElements.Edge e : edges) {
            near.computeIfAbsent(e.from(), x -> new ArrayList<>()).add(e.to());
            near.computeIfAbsent(e.to(), x -> new ArrayList<>()).add(e.from());
        }
        return near;
    }

    /** The nodes {@code from} reach over arrows either way (themselves included), breadth first. */
    private static Set<String> reachable(Set<String> from, Map<String, List<String>> near) {
        ArrayDeque<String> queue = new ArrayDeque<>(from);
        Set<String> seen = new HashSet<>(from);
        while (!queue.isEmpty()) {
            for (String n : near.getOrDefault(queue.poll(), List.of())) if (seen.add(n)) queue.add(n);
        }
        return seen;
    }

    /** The fixed node fewest arrows away (breadth first), or null. */
    private static String nearestFixed(String start, Map<String, List<String>> near, Map<String, Position> fixed) {
        ArrayDeque<String> queue = new ArrayDeque<>(List.of(start));
        Set<String> seen = new LinkedHashSet<>(queue);
        while (!queue.isEmpty()) {
            String k = queue.poll();
            if (!k.equals(start) && fixed.containsKey(k)) return k;
            for (String n : near.getOrDefault(k, List.of())) if (seen.add(n)) queue.add(n);
        }
        return null;
    }

    /** {@code at}, moved down in steps until the box overlaps no box taken (with a gap). */
    static Position free(Position at, Size size, List<int[]> taken) {
        int x = Math.max(0, at.x()), y = Math.max(0, at.y());
        for (int tries = 0; tries < 10_000; tries++) {
            int[] b = { x, y, size.width(), size.height() };
            int[] hit = null;
            for (int[] t : taken) if (overlaps(b, t)) hit = t;
            if (hit == null) return new Position(x, y);
            y = hit[1] + hit[3] + GAP;
        }
        return new Position(x, y);
    }

    private static int[] box(Position p, Size s) { return new int[] { p.x(), p.y(), s.width(), s.height() }; }

    private static boolean overlaps(int[] a, int[] b) {
        return a[0] < b[0] + b[2] + GAP && b[0] < a[0] + a[2] + GAP && a[1] < b[1] + b[3] + GAP && b[1] < a[1] + a[3] + GAP;
    }
}
