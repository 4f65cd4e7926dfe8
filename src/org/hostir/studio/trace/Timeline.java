package org.hostir.studio.trace;

import java.util.Comparator;
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
        events = events.stream().sorted(Comparator.comparingInt(TimelineEvent::rank)
                .thenComparingInt(TimelineEvent::stream).thenComparingLong(TimelineEvent::startNs)
                .thenComparing(Comparator.comparingLong(TimelineEvent::endNs).reversed())).toList();
        Map<Integer, Map<Integer, String>> names = new TreeMap<>();
        streamNames.forEach((rank, byStream) -> names.put(rank, Map.copyOf(byStream)));
        streamNames = java.util.Collections.unmodifiableMap(names);
    }

    public List<Integer> ranks() {
        return events.stream().map(TimelineEvent::rank).distinct().sorted().toList();
    }

    public List<TimelineEvent> of(int rank) {
        return events.stream().filter(e -> e.rank() == rank).toList();
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
