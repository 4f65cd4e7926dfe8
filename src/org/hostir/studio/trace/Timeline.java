package org.hostir.studio.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a run did, as bars per rank and stream. Immutable; the timeline view, the Chrome trace writer and
 * the overlap figures all read it, none of them knows the others (Trace Compass keeps its model apart the same
 * way). {@code streamNames} names each rank's streams for row labels ("Stream 0", "Stream 1", "host").
 */
public record Timeline(List<TimelineEvent> events, Map<Integer, Map<Integer, String>> streamNames) {
    public Timeline {
        events = events.stream().sorted(Timeline::order).toList();
        Map<Integer, Map<Integer, String>> names = new TreeMap<>();
        streamNames.forEach((rank, byStream) -> names.put(rank, Map.copyOf(byStream)));
        streamNames = java.util.Collections.unmodifiableMap(names);
    }

    /** A backend's events with the streams named as every backend names them: "host", "Stream 0 (user)", "Stream N". */
    public static Timeline ofBackend(List<TimelineEvent> events) {
        Map<Integer, Map<Integer, String>> names = new HashMap<>();
        for (TimelineEvent e : events) {
            names.computeIfAbsent(e.rank(), r -> new HashMap<>()).computeIfAbsent(e.stream(),
                    s -> s == TimelineEvent.HOST_STREAM ? "host" : s == 0 ? "Stream 0 (user)" : "Stream " + s);
        }
        return new Timeline(events, names);
    }

    public List<Integer> ranks() {
        List<Integer> ranks = new ArrayList<>();
        for (int i = 0; i < events.size(); i = firstIndex(events.get(i).rank() + 1)) ranks.add(events.get(i).rank());
        return ranks;
    }

    /** By rank, stream, start, then the longer bar first; written out, as millions of events are sorted. */
    private static int order(TimelineEvent a, TimelineEvent b) {
        int c = Integer.compare(a.rank(), b.rank());
        if (c == 0) c = Integer.compare(a.stream(), b.stream());
        if (c == 0) c = Long.compare(a.startNs(), b.startNs());
        return c != 0 ? c : Long.compare(b.endNs(), a.endNs());
    }

    /** The rank's events, a view of the sorted list found by binary search (1,024 ranks ask for theirs). */
    public List<TimelineEvent> of(int rank) {
        return events.subList(firstIndex(rank), firstIndex(rank + 1));
    }

    /** The index of the first event of a rank at least {@code rank} (events are sorted by rank first). */
    private int firstIndex(int rank) {
        int lo = 0, hi = events.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (events.get(mid).rank() < rank) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    public String streamName(int rank, int stream) {
        String name = streamNames.getOrDefault(rank, Map.of()).get(stream);
        return name != null ? name : defaultStreamName(stream);
    }

    /** The row label of a stream the timeline does not name. */
    public static String defaultStreamName(int stream) {
        return stream == TimelineEvent.HOST_STREAM ? "host" : "Stream " + stream;
    }
}
