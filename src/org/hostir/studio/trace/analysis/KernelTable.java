package org.hostir.studio.trace.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * The device ops of a run by name (a kernel, a collective, a Host IR op): how often, how long in all and on
 * average, and how the per-rank totals spread over the ranks that ran it, the largest total first. Host calls are
 * left out: they are the host's time, not the device's.
 */
public record KernelTable(List<Row> rows) {
    /** One op name. {@code minRankNs}/{@code maxRankNs}: the least and most time one rank spent on it. */
    public record Row(String name, EventKind kind, int count, long totalNs, int ranks, long minRankNs,
                      long maxRankNs) {
        public double meanNs() { return count == 0 ? 0 : (double) totalNs / count; }

        /** The gap between the slowest and the fastest rank, relative to the slowest (0: all alike). */
        public double spread() { return maxRankNs == 0 ? 0 : (double) (maxRankNs - minRankNs) / maxRankNs; }
    }

    /** The columns a table of these rows sorts by. */
    public enum Column {
        NAME(Comparator.comparing(Row::name)),
        COUNT(Comparator.comparingInt(Row::count)),
        TOTAL(Comparator.comparingLong(Row::totalNs)),
        MEAN(Comparator.comparingDouble(Row::meanNs)),
        SPREAD(Comparator.comparingDouble(Row::spread));

        private final Comparator<Row> order;

        Column(Comparator<Row> order) {
            this.order = order;
        }

        public Comparator<Row> order() { return order; }
    }

    public KernelTable {
        rows = List.copyOf(rows);
    }

    public static KernelTable of(Timeline timeline) {
        Map<String, List<TimelineEvent>> byName = new LinkedHashMap<>();
        for (TimelineEvent e : timeline.events()) {
            if (e.stream() >= 0) byName.computeIfAbsent(e.name(), n -> new ArrayList<>()).add(e);
        }
        List<Row> rows = new ArrayList<>();
        byName.forEach((name, events) -> {
            Map<Integer, Long> perRank = new TreeMap<>();
            long total = 0;
            for (TimelineEvent e : events) {
                perRank.merge(e.rank(), e.durationNs(), Long::sum);
                total += e.durationNs();
            }
            long min = perRank.values().stream().mapToLong(Long::longValue).min().orElse(0);
            long max = perRank.values().stream().mapToLong(Long::longValue).max().orElse(0);
            rows.add(new Row(name, events.getFirst().kind(), events.size(), total, perRank.size(), min, max));
        });
        return new KernelTable(rows).sorted(Column.TOTAL, false);
    }

    /** The same rows in the order of {@code column}, ties by name. */
    public KernelTable sorted(Column column, boolean ascending) {
        Comparator<Row> order = ascending ? column.order() : column.order().reversed();
        return new KernelTable(rows.stream().sorted(order.thenComparing(Row::name)).toList());
    }

    /** The rows of the bars one row stands for, in timeline order: what a click on a row selects. */
    public static List<TimelineEvent> barsOf(Timeline timeline, Row row) {
        return timeline.events().stream().filter(e -> e.stream() >= 0 && e.name().equals(row.name())).toList();
    }
}
