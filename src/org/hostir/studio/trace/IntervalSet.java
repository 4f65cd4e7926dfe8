package org.hostir.studio.trace;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * A set of time as sorted, disjoint, non-empty half-open intervals {@code [start, end)} in nanoseconds. Built by
 * sorting and merging, combined by sweeping two sorted lists, so its cost follows the number of bars, never the
 * length of the run. Touching intervals merge; empty ones (zero-duration bars) hold no time and vanish.
 */
public record IntervalSet(List<Interval> intervals) {
    public record Interval(long startNs, long endNs) {
        public Interval {
            if (endNs < startNs) throw new IllegalArgumentException("interval ends before it starts");
        }

        public long lengthNs() { return endNs - startNs; }
    }

    public static final IntervalSet EMPTY = new IntervalSet(List.of());

    /** Takes a normalised list (sorted, non-empty, apart); {@link #union} normalises any collection. */
    public IntervalSet {
        intervals = List.copyOf(intervals);
        for (int i = 0; i < intervals.size(); i++) {
            if (intervals.get(i).lengthNs() == 0 || (i > 0 && intervals.get(i).startNs() <= intervals.get(i - 1).endNs())) {
                throw new IllegalArgumentException("not normalised at " + i + ": " + intervals);
            }
        }
    }

    /** The time covered by at least one of the events. */
    public static IntervalSet of(Collection<TimelineEvent> events) {
        return union(events.stream().map(e -> new Interval(e.startNs(), e.endNs())).toList());
    }

    public static IntervalSet union(Collection<Interval> intervals) {
        List<Interval> sorted = new ArrayList<>(intervals);
        sorted.sort(Comparator.comparingLong(Interval::startNs));
        List<Interval> merged = new ArrayList<>();
        long start = 0, end = 0;
        boolean open = false;
        for (Interval i : sorted) {
            if (i.lengthNs() == 0) continue;
            if (open && i.startNs() <= end) {
                end = Math.max(end, i.endNs());
                continue;
            }
            if (open) merged.add(new Interval(start, end));
            start = i.startNs();
            end = i.endNs();
            open = true;
        }
        if (open) merged.add(new Interval(start, end));
        return new IntervalSet(merged);
    }

    public IntervalSet intersect(IntervalSet other) {
        List<Interval> out = new ArrayList<>();
        List<Interval> a = intervals, b = other.intervals;
        int i = 0, j = 0;
        while (i < a.size() && j < b.size()) {
            long start = Math.max(a.get(i).startNs(), b.get(j).startNs());
            long end = Math.min(a.get(i).endNs(), b.get(j).endNs());
            if (start < end) out.add(new Interval(start, end));
            // drop whichever ends first: it cannot meet anything later in the other list
            if (a.get(i).endNs() < b.get(j).endNs()) i++;
            else j++;
        }
        return new IntervalSet(out);
    }

    /** This time without the other's. */
    public IntervalSet minus(IntervalSet other) {
        List<Interval> out = new ArrayList<>();
        List<Interval> b = other.intervals;
        int j = 0;
        for (Interval a : intervals) {
            long cursor = a.startNs();
            while (j < b.size() && b.get(j).endNs() <= cursor) j++;
            // b's from j on end after cursor; each one that starts before a's end cuts a piece out
            int k = j;
            while (k < b.size() && b.get(k).startNs() < a.endNs()) {
                if (b.get(k).startNs() > cursor) out.add(new Interval(cursor, b.get(k).startNs()));
                cursor = Math.max(cursor, b.get(k).endNs());
                k++;
            }
            if (cursor < a.endNs()) out.add(new Interval(cursor, a.endNs()));
        }
        return new IntervalSet(out);
    }

    public long totalNs() {
        long sum = 0;
        for (Interval i : intervals) sum += i.lengthNs();
        return sum;
    }

    public boolean isEmpty() { return intervals.isEmpty(); }
}
