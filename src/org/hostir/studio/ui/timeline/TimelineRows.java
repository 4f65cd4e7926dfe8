package org.hostir.studio.ui.timeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.trace.FlowPairing;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * The timeline arranged for painting: one row per rank and stream (the host row first in each rank), events
 * sorted by start with the row's longest duration, so that the bars in a time window are found by binary search
 * instead of a scan (Trace Compass's state system does the same job with an interval tree). Free of SWT.
 */
public final class TimelineRows {
    /**
     * One row: its rank and stream, label, events by start time, the longest event (for the search), and, when
     * events overlap on the stream (a coalesced send and recv), the lane of each event (0 or 1) so both show.
     */
    public record Row(int rank, int stream, String label, TimelineEvent[] events, long maxDurationNs, byte[] lanes,
                      boolean stacked) {
        /** Index of the first event that may overlap {@code fromNs}. */
        public int firstVisible(long fromNs) {
            long key = fromNs - maxDurationNs;
            int lo = 0, hi = events.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (events[mid].startNs() < key) lo = mid + 1; else hi = mid;
            }
            return lo;
        }

        /** The event under time {@code t} with {@code slackNs} tolerance (the shortest one when nested), or null. */
        public TimelineEvent at(long t, long slackNs) { return at(t, slackNs, -1); }

        /** As {@link #at(long, long)}, only in {@code lane} (any lane when negative). */
        public TimelineEvent at(long t, long slackNs, int lane) {
            TimelineEvent best = null;
            for (int i = firstVisible(t - slackNs); i < events.length && events[i].startNs() <= t + slackNs; i++) {
                TimelineEvent e = events[i];
                if (lane >= 0 && lanes[i] != lane) continue;
                if (e.endNs() + slackNs >= t && (best == null || e.durationNs() < best.durationNs())) best = e;
            }
            return best;
        }
    }

    private final Timeline timeline;
    private final List<Row> rows;
    private final List<FlowPairing.Flow> flows;
    private final java.util.EnumSet<org.hostir.studio.trace.EventKind> kinds =
            java.util.EnumSet.noneOf(org.hostir.studio.trace.EventKind.class);
    private final long startNs;
    private final long endNs;

    public TimelineRows(Timeline timeline) {
        this.timeline = timeline;
        Map<Long, List<TimelineEvent>> byRow = new LinkedHashMap<>();
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        // the timeline's events are sorted by rank, stream and start: rows come out in order
        for (TimelineEvent e : timeline.events()) {
            byRow.computeIfAbsent(((long) e.rank() << 32) | (e.stream() & 0xffffffffL), k -> new ArrayList<>()).add(e);
            lo = Math.min(lo, e.startNs());
            hi = Math.max(hi, e.endNs());
        }
        List<Row> out = new ArrayList<>();
        for (List<TimelineEvent> list : byRow.values()) {
            TimelineEvent first = list.get(0);
            TimelineEvent[] events = list.toArray(TimelineEvent[]::new);
            java.util.Arrays.sort(events, Comparator.comparingLong(TimelineEvent::startNs));
            long max = 0;
            for (TimelineEvent e : events) max = Math.max(max, e.durationNs());
            String stream = timeline.streamName(first.rank(), first.stream());
            byte[] lanes = new byte[events.length];
            boolean stacked = false;
            long laneEnd = Long.MIN_VALUE;
            for (int i = 0; i < events.length; i++) {
                if (events[i].startNs() >= laneEnd) {
                    laneEnd = events[i].endNs();
                } else {
                    lanes[i] = 1;
                    stacked = true;
                }
            }
            out.add(new Row(first.rank(), first.stream(), "rank " + first.rank() + "  " + stream, events, max, lanes,
                    stacked));
            for (TimelineEvent e : events) kinds.add(e.kind());
        }
        rows = List.copyOf(out);
        flows = FlowPairing.pair(timeline).flows();
        startNs = lo == Long.MAX_VALUE ? 0 : lo;
        endNs = hi == Long.MIN_VALUE ? 1 : Math.max(hi, startNs + 1);
    }

    public Timeline timeline() { return timeline; }

    /** The kinds of event the timeline has, for the legend. */
    public java.util.Set<org.hostir.studio.trace.EventKind> kinds() { return kinds; }

    public List<Row> rows() { return rows; }

    /** Send-to-receive pairs, for the arrows. */
    public List<FlowPairing.Flow> flows() { return flows; }

    public long startNs() { return startNs; }

    public long endNs() { return endNs; }

    /** The row index of an event's rank and stream, or -1. */
    public int rowOf(TimelineEvent e) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).rank() == e.rank() && rows.get(i).stream() == e.stream()) return i;
        }
        return -1;
    }
}
