package org.hostir.studio.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A run as the trace analyses read it, whatever wrote it: the {@link Timeline}, which host bar launched which
 * device bar, counters sampled by the profiler (memory events of a PyTorch profile), and the waits between
 * streams that the trace states ({@link StreamWait}: event record/wait pairs of an Nsight Systems export or of a
 * PyTorch profile with CUDA sync events; empty when the trace has none, and the analyses infer them from times).
 * The Studio's own runs name the Host IR node of every bar, so their launches are derived from that
 * ({@link #of(String, Timeline)}); an imported trace states them.
 */
public record TraceRun(String label, Timeline timeline, List<Launch> launches, List<Counter> counters,
                       List<StreamWait> waits) {
    public TraceRun {
        launches = List.copyOf(launches);
        counters = List.copyOf(counters);
        waits = List.copyOf(waits);
    }

    /** A run whose trace states no waits between streams. */
    public TraceRun(String label, Timeline timeline, List<Launch> launches, List<Counter> counters) {
        this(label, timeline, launches, counters, List.of());
    }

    /**
     * A Studio run: a device bar was posted by the host dispatch of the same rank, Host IR node and loop
     * iteration that began last before the bar did.
     */
    public static TraceRun of(String label, Timeline timeline) {
        Map<List<Integer>, List<TimelineEvent>> dispatches = new HashMap<>();
        for (TimelineEvent e : timeline.events()) {
            if (e.stream() == TimelineEvent.HOST_STREAM && e.nodeId() >= 0) {
                dispatches.computeIfAbsent(key(e), k -> new ArrayList<>()).add(e); // in start order
            }
        }
        List<Launch> launches = new ArrayList<>();
        for (TimelineEvent e : timeline.events()) {
            if (e.stream() == TimelineEvent.HOST_STREAM || e.nodeId() < 0) continue;
            TimelineEvent host = null;
            for (TimelineEvent h : dispatches.getOrDefault(key(e), List.of())) {
                if (h.startNs() > e.startNs()) break;
                host = h;
            }
            if (host != null) launches.add(new Launch(host, e));
        }
        return new TraceRun(label, timeline, launches, List.of());
    }

    /** Whether every bar comes from the Studio, which names the Host IR node that issued it. */
    public boolean fromStudio() {
        return !timeline.events().isEmpty() && timeline.events().stream().anyMatch(e -> e.nodeId() >= 0);
    }

    private static List<Integer> key(TimelineEvent e) {
        return List.of(e.rank(), e.nodeId(), e.iteration());
    }
}
