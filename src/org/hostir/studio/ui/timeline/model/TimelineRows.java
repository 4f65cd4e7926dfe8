package org.hostir.studio.ui.timeline.model;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.FlowPairing;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * The timeline arranged for painting: one row per rank and stream (the host row first in each rank), each row's
 * bars in one or two {@link Lane lanes} of primitive arrays sorted by start, with the running maximum of the
 * ends, so that the bars in a time window are found by binary search instead of a scan (Trace Compass's state
 * system does the same job with an interval tree). The send-to-receive flows come with their rows resolved.
 * Built once per timeline; painting allocates nothing per bar. Free of SWT.
 */
public final class TimelineRows {
    /**
     * One lane of a row: its bars by start time as parallel arrays. {@code maxEnd[i]} is the latest end among
     * bars 0..i, so "the first bar that may reach time t" and "the next bar that reaches past pixel p" are binary
     * searches; {@code index[i]} is the bar's index in {@link Row#events()}.
     */
    public static final class Lane {
        final int[] index;
        final long[] start;
        final long[] end;
        final long[] maxEnd;
        final byte[] kind;

        /** The bars {@code index} of a row whose bars' times and kinds start at {@code base} of the arrays. */
        Lane(int[] index, int base, long[] starts, long[] ends, byte[] kinds) {
            this.index = index;
            int n = index.length;
            start = new long[n];
            end = new long[n];
            maxEnd = new long[n];
            kind = new byte[n];
            long max = Long.MIN_VALUE;
            for (int i = 0; i < n; i++) {
                int at = base + index[i];
                start[i] = starts[at];
                end[i] = ends[at];
                max = Math.max(max, ends[at]);
                maxEnd[i] = max;
                kind[i] = kinds[at];
            }
        }

        public int size() { return index.length; }

        // the arrays themselves, for the painter's inner loop (read only)

        /** Per bar, its index in {@link Row#events()}. */
        public int[] index() { return index; }

        public long[] start() { return start; }

        public long[] end() { return end; }

        /** Per bar, the latest end among bars 0..i. */
        public long[] maxEnd() { return maxEnd; }

        /** Per bar, its {@link EventKind}'s ordinal. */
        public byte[] kind() { return kind; }

        /** Index of the first bar that ends at or after {@code fromNs} (all before it end earlier). */
        public int first(long fromNs) {
            int lo = 0, hi = maxEnd.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (maxEnd[mid] < fromNs) lo = mid + 1; else hi = mid;
            }
            return lo;
        }
    }

    /**
     * One row: its rank and stream, label, events by start time, and, when events overlap on the stream (a
     * coalesced send and recv), the lane of each event (0 or 1) so both show.
     */
    public static final class Row {
        private final int rank;
        private final int stream;
        private final String label;
        private final TimelineEvent[] events;
        private final byte[] lanes;
        private final Lane[] laneData;

        /** The row of events {@code from..} of the timeline, whose times and kinds are in the arrays. */
        Row(int rank, int stream, String label, TimelineEvent[] events, int from, long[] starts, long[] ends,
            byte[] kinds) {
            this.rank = rank;
            this.stream = stream;
            this.label = label;
            this.events = events;
            lanes = new byte[events.length];
            // greedy: a bar that starts before lane 0's last bar ends goes to lane 1
            int second = 0;
            long laneEnd = Long.MIN_VALUE;
            for (int i = 0; i < events.length; i++) {
                if (starts[from + i] >= laneEnd) {
                    laneEnd = ends[from + i];
                } else {
                    lanes[i] = 1;
                    second++;
                }
            }
            int[] zero = new int[events.length - second], one = new int[second];
            for (int i = 0, a = 0, b = 0; i < events.length; i++) {
                if (lanes[i] == 0) zero[a++] = i; else one[b++] = i;
            }
            Lane first = new Lane(zero, from, starts, ends, kinds);
            laneData = second == 0 ? new Lane[] { first }
                    : new Lane[] { first, new Lane(one, from, starts, ends, kinds) };
        }

        public int rank() { return rank; }

        public int stream() { return stream; }

        public String label() { return label; }

        /** The row's events by start time (do not modify). */
        public TimelineEvent[] events() { return events; }

        /** The lane (0 or 1) of each event of {@link #events()}. */
        public byte[] lanes() { return lanes; }

        /** Whether the row has a second lane (it is painted twice as high). */
        public boolean stacked() { return laneData.length > 1; }

        public Lane lane(int i) { return laneData[i]; }

        public int laneCount() { return laneData.length; }

        /**
         * The event a person sees in the pixel column spanning times [{@code fromNs}, {@code toNs}), in
         * {@code lane} (any lane when negative), or the nearest within {@code slackNs} of the column's middle, or
         * null. A bar painted in the column ({@link #paintedIn}) beats one only near it, so a wide bar under the
         * pointer beats a sub-pixel neighbour; among painted ones the first by start wins, as the painter gives
         * the column to it, unless a later one nests inside it (the inner one is the one meant); among near ones
         * the nearest to the middle, then the shortest.
         */
        public TimelineEvent at(double fromNs, double toNs, long slackNs, int lane) {
            double mid = (fromNs + toNs) / 2;
            TimelineEvent best = null;
            boolean bestPainted = false;
            double bestGap = Double.MAX_VALUE;
            for (int l = 0; l < laneData.length; l++) {
                if (lane >= 0 && l != lane) continue;
                Lane d = laneData[l];
                for (int i = d.first((long) Math.floor(fromNs) - slackNs); i < d.size()
                        && d.start[i] < toNs + slackNs; i++) {
                    boolean painted = paintedIn(d.start[i], d.end[i], fromNs, toNs);
                    double gap = painted ? 0 : Math.max(0, Math.max(d.start[i] - mid, mid - d.end[i]));
                    if (!painted && gap > slackNs) continue;
                    TimelineEvent e = events[d.index[i]];
                    boolean better = best == null || (painted && !bestPainted)
                            || (painted && bestPainted && e.startNs() >= best.startNs() && e.endNs() <= best.endNs()
                                    && e.durationNs() < best.durationNs())
                            || (!painted && !bestPainted && (gap < bestGap
                                    || (gap == bestGap && e.durationNs() < best.durationNs())));
                    if (better) {
                        best = e;
                        bestPainted = painted;
                        bestGap = gap;
                    }
                }
            }
            return best;
        }

        /**
         * Whether a bar [{@code start}, {@code end}] is painted in the column [{@code fromNs}, {@code toNs}) as
         * {@code BarPainter} paints it: from its start's column up to, not including, its end's column, and at
         * least its start's column (a sub-pixel bar still shows as one pixel).
         */
        static boolean paintedIn(long start, long end, double fromNs, double toNs) {
            return start < toNs && (end >= toNs || start >= fromNs);
        }

        /** The lane of {@code e} in this row, or -1 when the row does not hold it. */
        public int laneOf(TimelineEvent e) {
            int lo = 0, hi = events.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (events[mid].startNs() < e.startNs()) lo = mid + 1; else hi = mid;
            }
            for (int i = lo; i < events.length && events[i].startNs() == e.startNs(); i++) {
                if (events[i].equals(e)) return lanes[i];
            }
            return -1;
        }
    }

    private final Timeline timeline;
    private final List<Row> rows;
    private final List<FlowPairing.Flow> flows;
    private final EnumSet<EventKind> kinds = EnumSet.noneOf(EventKind.class);
    private final long startNs;
    private final long endNs;
    /** Per flow (in {@link #flows()} order): the send's start, the recv's end, and their rows. */
    private final long[] flowFrom;
    private final long[] flowTo;
    private final int[] flowFromRow;
    private final int[] flowToRow;

    public TimelineRows(Timeline timeline) {
        this.timeline = timeline;
        List<TimelineEvent> all = timeline.events();
        int n = all.size();
        // one pass over the event objects (scattered in memory: each pass costs about a cache miss per event);
        // everything after reads these arrays. The timeline is sorted by rank, stream and start (its invariant),
        // so each row is a run of consecutive events.
        long[] starts = new long[n], ends = new long[n];
        byte[] kindOf = new byte[n];
        List<int[]> runs = new ArrayList<>(); // rank, stream, index of the first event
        List<TimelineEvent> flowEvents = new ArrayList<>();
        boolean[] kindSeen = new boolean[EventKind.values().length];
        long lastKey = 0;
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            TimelineEvent e = all.get(i);
            int rank = e.rank(), stream = e.stream();
            long key = ((long) rank << 32) | (stream & 0xffffffffL);
            long start = e.startNs(), end = e.endNs();
            if (i == 0 || key != lastKey) {
                runs.add(new int[] { rank, stream, i });
                lastKey = key;
            } else if (start < starts[i - 1]) {
                throw new IllegalArgumentException("timeline events out of order at " + e);
            }
            starts[i] = start;
            ends[i] = end;
            kindOf[i] = (byte) e.kind().ordinal();
            kindSeen[kindOf[i]] = true;
            if (e.flowId() != 0) flowEvents.add(e);
            if (start < lo) lo = start;
            if (end > hi) hi = end;
        }
        for (EventKind k : EventKind.values()) {
            if (kindSeen[k.ordinal()]) kinds.add(k);
        }
        Map<Long, Integer> rowIndex = new HashMap<>();
        rows = rows(timeline, runs, starts, ends, kindOf, rowIndex);
        // only the events with a flow id take part in the pairing
        flows = FlowPairing.pair(new Timeline(flowEvents, Map.of())).flows();
        flowFrom = new long[flows.size()];
        flowTo = new long[flows.size()];
        flowFromRow = new int[flows.size()];
        flowToRow = new int[flows.size()];
        for (int i = 0; i < flows.size(); i++) {
            FlowPairing.Flow f = flows.get(i);
            flowFrom[i] = f.send().startNs();
            flowTo[i] = f.recv().endNs();
            flowFromRow[i] = rowIndex.getOrDefault(key(f.send()), -1);
            flowToRow[i] = rowIndex.getOrDefault(key(f.recv()), -1);
        }
        startNs = lo == Long.MAX_VALUE ? 0 : lo;
        endNs = hi == Long.MIN_VALUE ? 1 : Math.max(hi, startNs + 1);
    }

    /** One row per run of events of the same rank and stream; {@code rowIndex} gets each row's index by key. */
    private static List<Row> rows(Timeline timeline, List<int[]> runs, long[] starts, long[] ends, byte[] kindOf,
                                  Map<Long, Integer> rowIndex) {
        List<TimelineEvent> all = timeline.events();
        List<Row> out = new ArrayList<>(runs.size());
        for (int r = 0; r < runs.size(); r++) {
            int[] run = runs.get(r);
            int from = run[2], to = r + 1 < runs.size() ? runs.get(r + 1)[2] : all.size();
            if (rowIndex.put(((long) run[0] << 32) | (run[1] & 0xffffffffL), out.size()) != null) {
                throw new IllegalArgumentException("timeline events of rank " + run[0] + " stream " + run[1]
                        + " are not together");
            }
            TimelineEvent[] events = all.subList(from, to).toArray(TimelineEvent[]::new);
            out.add(new Row(run[0], run[1], "rank " + run[0] + "  " + timeline.streamName(run[0], run[1]), events,
                    from, starts, ends, kindOf));
        }
        return List.copyOf(out);
    }

    private static long key(TimelineEvent e) { return ((long) e.rank() << 32) | (e.stream() & 0xffffffffL); }

    public Timeline timeline() { return timeline; }

    /** The kinds of event the timeline has, for the legend. */
    public Set<EventKind> kinds() { return kinds; }

    public List<Row> rows() { return rows; }

    /** Send-to-receive pairs, for the arrows. */
    public List<FlowPairing.Flow> flows() { return flows; }

    // per flow, in flows() order, for the painter (read only)

    /** The send's start. */
    public long[] flowFrom() { return flowFrom; }

    /** The receive's end. */
    public long[] flowTo() { return flowTo; }

    /** The send's row index, or -1. */
    public int[] flowFromRow() { return flowFromRow; }

    /** The receive's row index, or -1. */
    public int[] flowToRow() { return flowToRow; }

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
