package org.hostir.studio.trace.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.FlowPairing;
import org.hostir.studio.trace.Launch;
import org.hostir.studio.trace.StreamWait;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;
import org.jgrapht.Graph;
import org.jgrapht.graph.DirectedMultigraph;

/**
 * The dependencies of a run across its ranks, as a JGraphT graph whose vertices are points in time: the start
 * ({@code 2i}) and end ({@code 2i+1}) of bar {@code i} of the timeline, one "last member arrived" point per
 * communication (a collective's members, a send and its recv), and the run's start. Edges ({@link Dependency})
 * always go forward in time; an edge that would go back (clocks of two ranks that disagree) is left out and
 * counted in {@link #problems()}.
 * <p>
 * Edges, as HTA's critical path analysis draws them on one rank and as a multi-rank run adds them:
 * <ul>
 * <li>{@code WORK}: each bar's start to its end;</li>
 * <li>{@code HOST_ORDER}, {@code STREAM_ORDER}: on each row, the bar that ended last before a bar began, to it;
 * {@code NESTING}: a bar's enclosing bar's start to its start, and its end to the enclosing bar's end;</li>
 * <li>{@code LAUNCH}: the host call that issued a device bar (the run's {@link Launch}es) to the bar's start,
 * from the call's end if the bar began after it, else from its start;</li>
 * <li>{@code STREAM_WAIT}: the waits the trace states ({@link TraceRun#waits()}: an event recorded after one bar,
 * waited for before a bar of another stream), each from the first bar's end to the second's start; for a trace
 * that states none, inferred from the times: a device bar that began later than all of the above allow waited
 * for the bar of another stream of its rank that ended last before it;</li>
 * <li>{@code HOST_SYNC}: a host call named as a synchronization (cudaStreamSynchronize, cudaDeviceSynchronize,
 * a Host IR Synchronize or Wait) ends after the last device bar of its rank that ended within it;</li>
 * <li>{@code PEER_ARRIVAL} and {@code TRANSFER}: each member's start to the communication's "all arrived" point
 * (the latest member start), and that point to each member's end. Members: the bars of a send/recv pair
 * ({@link FlowPairing}); the collective bars of one Host IR node and iteration, or of one name, the k-th on each
 * rank (NCCL kernels of an imported trace);</li>
 * <li>{@code RUN_START}: the run's start to every point nothing else precedes.</li>
 * </ul>
 */
public final class DependencyGraph {
    private final List<TimelineEvent> events;
    private final Graph<Integer, Dependency> graph = new DirectedMultigraph<>(null, null, false);
    private final long[] times;
    private final int root;
    private final List<List<Integer>> groups = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private int skipped;

    private DependencyGraph(TraceRun run) {
        events = run.timeline().events();
        int n = events.size();
        List<List<Integer>> members = communications(run);
        times = new long[2 * n + members.size() + 1];
        for (int i = 0; i < n; i++) {
            times[2 * i] = events.get(i).startNs();
            times[2 * i + 1] = events.get(i).endNs();
        }
        root = times.length - 1;
        times[root] = events.stream().mapToLong(TimelineEvent::startNs).min().orElse(0);
        for (int v = 0; v < times.length; v++) graph.addVertex(v);
        for (int i = 0; i < n; i++) add(start(i), end(i), DependencyKind.WORK);
        rows();
        launches(run);
        hostSyncs();
        for (List<Integer> group : members) join(group);
        if (run.waits().isEmpty()) streamWaits();
        else statedWaits(run);
        for (int v = 0; v < root; v++) {
            if (graph.inDegreeOf(v) == 0) add(root, v, DependencyKind.RUN_START);
        }
        if (skipped > 0) {
            problems.add(skipped + " dependencies would go back in time (the ranks' clocks disagree) and were left out");
        }
    }

    public static DependencyGraph of(TraceRun run) {
        return new DependencyGraph(run);
    }

    public Graph<Integer, Dependency> graph() { return graph; }

    public List<TimelineEvent> events() { return events; }

    public long time(int vertex) { return times[vertex]; }

    public int root() { return root; }

    public static int start(int event) { return 2 * event; }

    public static int end(int event) { return 2 * event + 1; }

    /** The bar a vertex belongs to, or -1 for the run's start and the communications' "all arrived" points. */
    public int eventOf(int vertex) { return vertex < 2 * events.size() ? vertex / 2 : -1; }

    /** The communications found: each the bar indices of its members. */
    public List<List<Integer>> communications() { return List.copyOf(groups); }

    /** The "all arrived" point of the communication a bar is a member of, or -1. */
    public int arrivalOf(int event) {
        for (Dependency d : graph.outgoingEdgesOf(start(event))) {
            if (d.kind() == DependencyKind.PEER_ARRIVAL) return d.to();
        }
        return -1;
    }

    /** Why some dependencies are missing: edges against time. Empty for a consistent trace. */
    public List<String> problems() { return List.copyOf(problems); }

    /**
     * The dependency that held {@code vertex} up: the incoming edge whose source came last (ties: the kind
     * declared first, so a bar's own work before a transfer, stream order before a launch). Null at the run's
     * start.
     */
    public Dependency binding(int vertex) {
        Dependency best = null;
        for (Dependency d : graph.incomingEdgesOf(vertex)) {
            if (best == null || times[d.from()] > times[best.from()]
                    || (times[d.from()] == times[best.from()] && d.kind().compareTo(best.kind()) < 0)) {
                best = d;
            }
        }
        return best;
    }

    private void add(int from, int to, DependencyKind kind) {
        if (from == to) return;
        if (times[from] > times[to]) {
            skipped++;
            return;
        }
        graph.addEdge(from, to, new Dependency(from, to, kind));
    }

    /** Order and nesting on each row (events are sorted by rank, stream, start, longest first). */
    private void rows() {
        int from = 0;
        for (int i = 1; i <= events.size(); i++) {
            if (i == events.size() || events.get(i).rank() != events.get(from).rank()
                    || events.get(i).stream() != events.get(from).stream()) {
                row(from, i);
                from = i;
            }
        }
    }

    private void row(int from, int to) {
        boolean host = events.get(from).stream() < 0;
        DependencyKind order = host ? DependencyKind.HOST_ORDER : DependencyKind.STREAM_ORDER;
        Integer[] byEnd = new Integer[to - from];
        for (int i = from; i < to; i++) byEnd[i - from] = i;
        Arrays.sort(byEnd, (a, b) -> a.equals(b) ? 0 : times[end(a)] != times[end(b)]
                ? Long.compare(times[end(a)], times[end(b)]) : Integer.compare(a, b));
        Deque<Integer> open = new ArrayDeque<>();
        for (int i = from; i < to; i++) {
            while (!open.isEmpty() && times[end(open.peek())] <= times[start(i)]) open.pop();
            if (!open.isEmpty() && times[end(open.peek())] >= times[end(i)]) {
                add(start(open.peek()), start(i), DependencyKind.NESTING);
                add(end(i), end(open.peek()), DependencyKind.NESTING);
            }
            open.push(i);
            int previous = lastEndedBefore(byEnd, i);
            if (previous >= 0) add(end(previous), start(i), order);
        }
    }

    /** The bar of {@code byEnd} (sorted by end, then index) that ended last before bar {@code i} began. */
    private int lastEndedBefore(Integer[] byEnd, int i) {
        int lo = 0, hi = byEnd.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int m = byEnd[mid];
            boolean before = times[end(m)] < times[start(i)] || (times[end(m)] == times[start(i)] && m < i);
            if (before) lo = mid + 1;
            else hi = mid;
        }
        return lo == 0 ? -1 : byEnd[lo - 1];
    }

    private void launches(TraceRun run) {
        Map<TimelineEvent, Integer> index = indexOf(events);
        for (Launch l : run.launches()) {
            Integer h = index.get(l.host()), d = index.get(l.device());
            if (h == null || d == null) continue;
            add(times[end(h)] <= times[start(d)] ? end(h) : start(h), start(d), DependencyKind.LAUNCH);
        }
    }

    /** Each bar's position in the timeline, by identity (launches and waits name the very event objects). */
    private static Map<TimelineEvent, Integer> indexOf(List<TimelineEvent> events) {
        Map<TimelineEvent, Integer> index = new IdentityHashMap<>();
        for (int i = 0; i < events.size(); i++) index.put(events.get(i), i);
        return index;
    }

    /** The waits the trace states: they replace the ones inferred from times. */
    private void statedWaits(TraceRun run) {
        Map<TimelineEvent, Integer> index = indexOf(events);
        for (StreamWait w : run.waits()) {
            Integer before = index.get(w.before()), after = index.get(w.after());
            if (before != null && after != null) add(end(before), start(after), DependencyKind.STREAM_WAIT);
        }
    }

    private void hostSyncs() {
        Map<Integer, List<Integer>> deviceByEnd = deviceBarsByEnd();
        for (int i = 0; i < events.size(); i++) {
            TimelineEvent h = events.get(i);
            if (h.stream() >= 0 || !isSynchronization(h.name())) continue;
            List<Integer> device = deviceByEnd.getOrDefault(h.rank(), List.of());
            int last = lastEndingBy(device, h.endNs());
            if (last >= 0 && events.get(last).endNs() >= h.startNs()) add(end(last), end(i), DependencyKind.HOST_SYNC);
        }
    }

    /** Names of host calls that block until device work ends. */
    static boolean isSynchronization(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.contains("synchronize") || n.matches(".*\\bwait\\b.*") && !n.contains("streamwait");
    }

    /** A device bar that began later than its known dependencies allow waited on another stream of its rank. */
    private void streamWaits() {
        Map<Integer, List<Integer>> deviceByEnd = deviceBarsByEnd();
        for (int i = 0; i < events.size(); i++) {
            TimelineEvent b = events.get(i);
            if (b.stream() < 0) continue;
            long known = Long.MIN_VALUE;
            for (Dependency d : graph.incomingEdgesOf(start(i))) known = Math.max(known, times[d.from()]);
            if (known >= b.startNs()) continue;
            List<Integer> device = deviceByEnd.getOrDefault(b.rank(), List.of());
            for (int at = positionEndingBy(device, b.startNs()); at >= 0; at--) {
                TimelineEvent c = events.get(device.get(at));
                if (c.endNs() <= known) break;
                if (c.stream() != b.stream()) {
                    add(end(device.get(at)), start(i), DependencyKind.STREAM_WAIT);
                    break;
                }
            }
        }
    }

    private Map<Integer, List<Integer>> deviceBarsByEnd() {
        Map<Integer, List<Integer>> byRank = new HashMap<>();
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).stream() >= 0) byRank.computeIfAbsent(events.get(i).rank(), r -> new ArrayList<>()).add(i);
        }
        byRank.values().forEach(l -> l.sort((a, b) -> times[end(a)] != times[end(b)]
                ? Long.compare(times[end(a)], times[end(b)]) : Integer.compare(a, b)));
        return byRank;
    }

    /** The bar of {@code byEnd} that ends last at or before {@code t}, or -1. */
    private int lastEndingBy(List<Integer> byEnd, long t) {
        int at = positionEndingBy(byEnd, t);
        return at < 0 ? -1 : byEnd.get(at);
    }

    /** The position in {@code byEnd} (bars sorted by end) of the last one ending at or before {@code t}, or -1. */
    private int positionEndingBy(List<Integer> byEnd, long t) {
        int lo = 0, hi = byEnd.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (times[end(byEnd.get(mid))] <= t) lo = mid + 1;
            else hi = mid;
        }
        return lo - 1;
    }

    private void join(List<Integer> members) {
        int arrived = 2 * events.size() + groups.size();
        groups.add(List.copyOf(members));
        long last = members.stream().mapToLong(m -> times[start(m)]).max().orElseThrow();
        times[arrived] = last;
        for (int m : members) {
            add(start(m), arrived, DependencyKind.PEER_ARRIVAL);
            add(arrived, end(m), DependencyKind.TRANSFER);
        }
    }

    /** The communications of the run: send/recv pairs, then collectives matched across ranks. */
    private static List<List<Integer>> communications(TraceRun run) {
        List<TimelineEvent> events = run.timeline().events();
        Map<TimelineEvent, Integer> index = indexOf(events);
        List<List<Integer>> groups = new ArrayList<>();
        for (FlowPairing.Flow f : FlowPairing.pair(run.timeline()).flows()) {
            groups.add(List.of(index.get(f.send()), index.get(f.recv())));
        }
        Map<List<Object>, List<Integer>> collectives = new LinkedHashMap<>();
        Map<List<Object>, Integer> seen = new HashMap<>();
        for (int i = 0; i < events.size(); i++) {
            TimelineEvent e = events.get(i);
            if (e.kind() != EventKind.COMMUNICATION || e.flowId() != 0 || e.stream() < 0) continue;
            List<Object> own = List.of(e.rank(), e.nodeId(), e.iteration(), e.name());
            int k = seen.merge(own, 1, Integer::sum);
            collectives.computeIfAbsent(List.of(e.nodeId(), e.iteration(), e.name(), k), x -> new ArrayList<>()).add(i);
        }
        for (List<Integer> members : collectives.values()) {
            if (members.stream().map(m -> events.get(m).rank()).distinct().count() > 1) groups.add(members);
        }
        return groups;
    }
}
