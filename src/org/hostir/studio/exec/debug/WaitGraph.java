package org.hostir.studio.exec.debug;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.exec.BlockedStream;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.KosarajuStrongConnectivityInspector;
import org.jgrapht.graph.DirectedPseudograph;

/**
 * Who waits for whom across the ranks at a stop: an edge from a rank whose stream is blocked to each rank it
 * waits for (a transfer's peer, a collective's members that have not arrived), labelled with the blocked
 * stream's wait. A cycle is one closed walk through each strongly connected set of ranks; it is a deadlock when
 * every rank on it is done issuing nodes (no host can still post what would end a wait), as the {@code --timeout}
 * report would end the run, but named while it happens.
 */
public record WaitGraph(List<Edge> edges, List<Cycle> cycles) {
    public WaitGraph {
        edges = List.copyOf(edges);
        cycles = List.copyOf(cycles);
    }

    public record Edge(int from, int to, BlockedStream why) {}

    public record Cycle(List<Edge> edges, boolean deadlock) {
        public Cycle {
            edges = List.copyOf(edges);
        }
    }

    public static WaitGraph of(List<BlockedStream> blocked, Map<Integer, RankState> states) {
        return of(blocked, r -> states.getOrDefault(r, RankState.RUNNING).doneIssuing());
    }

    /** {@code cannotPost}: whether a rank's host can post nothing more that would end a wait (a cycle's deadlock). */
    public static WaitGraph of(List<BlockedStream> blocked, java.util.function.Predicate<Integer> cannotPost) {
        Graph<Integer, Edge> g = new DirectedPseudograph<>(Edge.class);
        List<Edge> edges = new ArrayList<>();
        for (BlockedStream b : blocked) {
            for (int to : b.waitsFor()) {
                Edge e = new Edge(b.rank(), to, b);
                g.addVertex(b.rank());
                g.addVertex(to);
                g.addEdge(b.rank(), to, e);
                edges.add(e);
            }
        }
        List<Cycle> cycles = new ArrayList<>();
        List<Set<Integer>> sets = new ArrayList<>(new KosarajuStrongConnectivityInspector<>(g).stronglyConnectedSets());
        sets.sort(Comparator.comparing(s -> s.stream().min(Integer::compare).orElseThrow()));
        for (Set<Integer> set : sets) {
            if (set.size() < 2) continue;
            List<Edge> walk = cycleIn(g, set);
            boolean deadlock = walk.stream().allMatch(e -> cannotPost.test(e.from()));
            cycles.add(new Cycle(walk, deadlock));
        }
        return new WaitGraph(edges, cycles);
    }

    /** From the set's lowest rank, always to the lowest rank waited for in the set, until a rank comes again. */
    private static List<Edge> cycleIn(Graph<Integer, Edge> g, Set<Integer> set) {
        Map<Integer, Edge> taken = new LinkedHashMap<>();
        int at = set.stream().min(Integer::compare).orElseThrow();
        while (!taken.containsKey(at)) {
            Edge next = g.outgoingEdgesOf(at).stream().filter(e -> set.contains(e.to()))
                    .min(Comparator.comparingInt(Edge::to).thenComparingInt(e -> e.why().stream())).orElseThrow();
            taken.put(at, next);
            at = next.to();
        }
        List<Edge> walk = new ArrayList<>();
        boolean on = false;
        for (var e : taken.entrySet()) {
            if (e.getKey() == at) on = true;
            if (on) walk.add(e.getValue());
        }
        return walk;
    }

    public boolean deadlocked() { return cycles.stream().anyMatch(Cycle::deadlock); }
}
