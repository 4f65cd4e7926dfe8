package org.hostir.studio.trace.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.trace.TimelineEvent;
import org.jgrapht.GraphPath;
import org.jgrapht.graph.GraphWalk;
import org.jgrapht.traverse.TopologicalOrderIterator;

/**
 * The longest path through a run's {@link DependencyGraph}, from the run's start to the end of its last device
 * bar (its last host bar when it has none). Each edge weighs the time it spans, so the longest path to that point
 * is as long as the time from the run's start to it; among the paths of that length it follows, at every point, the dependency that arrived last
 * ({@link DependencyGraph#binding}): the one that held the point up. Its segments then say what the span was
 * spent on, and each share is of the path's length. (HTA weighs synchronization edges 0 instead, so its path
 * may be shorter than the time it covers; here the shares add up to the whole.)
 */
public record CriticalPath(long lengthNs, List<Segment> segments, GraphPath<Integer, Dependency> walk) {
    /**
     * One edge of the path: {@code event} is the bar whose time it is (the work's bar, the bar that waited, the
     * bar a launch issued), {@code from} the bar it came from (the same bar for work, -1 for the run's start).
     */
    public record Segment(DependencyKind kind, TimelineEvent event, TimelineEvent from, long startNs, long endNs) {
        public long durationNs() { return endNs - startNs; }
    }

    public CriticalPath {
        segments = List.copyOf(segments);
    }

    /**
     * The path of the graph; empty for a run without bars, or when the dependencies form a cycle (bars that all
     * start at one instant and wait for one another: a trace no run can make).
     */
    public static Optional<CriticalPath> of(DependencyGraph g) {
        if (g.events().isEmpty()) return Optional.empty();
        long[] distance = new long[g.graph().vertexSet().size()];
        Dependency[] via = new Dependency[distance.length];
        try {
            // the topological order proves the graph acyclic; the distance is the longest path to each point
            TopologicalOrderIterator<Integer, Dependency> order = new TopologicalOrderIterator<>(g.graph());
            while (order.hasNext()) {
                int v = order.next();
                Dependency best = g.binding(v);
                for (Dependency d : g.graph().incomingEdgesOf(v)) {
                    long through = distance[d.from()] + g.time(v) - g.time(d.from());
                    long current = best == null ? Long.MIN_VALUE : distance[best.from()] + g.time(v) - g.time(best.from());
                    if (through > current) best = d;
                }
                via[v] = best;
                distance[v] = best == null ? 0 : distance[best.from()] + g.time(v) - g.time(best.from());
            }
        } catch (IllegalArgumentException cycle) {
            return Optional.empty();
        }
        int sink = last(g, distance);
        List<Dependency> edges = new ArrayList<>();
        List<Integer> vertices = new ArrayList<>();
        vertices.add(sink);
        for (int v = sink; via[v] != null; v = via[v].from()) {
            edges.add(via[v]);
            vertices.add(via[v].from());
        }
        Collections.reverse(edges);
        Collections.reverse(vertices);
        GraphWalk<Integer, Dependency> walk = new GraphWalk<>(g.graph(), vertices.getFirst(), sink, vertices, edges,
                distance[sink]);
        return Optional.of(new CriticalPath(distance[sink], edges.stream().map(d -> segment(g, d)).toList(), walk));
    }

    /**
     * The end of the device bar that finishes last (then the first in timeline order), or of the last host bar
     * in a run without device work: a profiler's trace goes on with host calls after the GPU work (a watchdog
     * thread's event queries, the profiler's teardown) that no op of the run waits for.
     */
    private static int last(DependencyGraph g, long[] distance) {
        boolean device = g.events().stream().anyMatch(e -> e.stream() >= 0);
        int sink = -1;
        for (int i = 0; i < g.events().size(); i++) {
            if (device && g.events().get(i).stream() < 0) continue;
            int v = DependencyGraph.end(i);
            if (sink < 0 || g.time(v) > g.time(sink) || (g.time(v) == g.time(sink) && distance[v] > distance[sink])) {
                sink = v;
            }
        }
        return sink;
    }

    private static Segment segment(DependencyGraph g, Dependency d) {
        int to = g.eventOf(d.to()), from = g.eventOf(d.from());
        if (to < 0) to = from; // into an "all arrived" point: the time is the arriving member's
        if (from < 0 && d.kind() == DependencyKind.TRANSFER) from = to;
        return new Segment(d.kind(), g.events().get(to), from < 0 ? null : g.events().get(from), g.time(d.from()),
                g.time(d.to()));
    }

    /** The time of the path by kind of dependency, in declaration order, kinds without time left out. */
    public Map<DependencyKind, Long> byKind() {
        Map<DependencyKind, Long> total = new EnumMap<>(DependencyKind.class);
        for (Segment s : segments) if (s.durationNs() > 0) total.merge(s.kind(), s.durationNs(), Long::sum);
        return total;
    }

    /** The work on the path by bar name (work and transfers), the largest first. */
    public Map<String, Long> workByName() {
        Map<String, Long> total = new LinkedHashMap<>();
        for (Segment s : segments) {
            if (s.kind().isWork() && s.durationNs() > 0) total.merge(s.event().name(), s.durationNs(), Long::sum);
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        total.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** The bars the path runs through (work, transfers), for the timeline to highlight. */
    public List<TimelineEvent> bars() {
        return segments.stream().filter(s -> s.kind().isWork()).map(Segment::event).distinct().toList();
    }

    /** The segment's share of the path's length, in [0, 1]. */
    public double share(Segment s) {
        return lengthNs == 0 ? 0 : (double) s.durationNs() / lengthNs;
    }
}
