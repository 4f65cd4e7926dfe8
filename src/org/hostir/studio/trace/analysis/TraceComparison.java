package org.hostir.studio.trace.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.trace.TimeText;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;

/**
 * Two runs side by side: their spans, their critical paths' time by kind, and the device ops of both aligned
 * (by Host IR node and name when both runs come from the Studio, whose bars name their node; by name
 * otherwise), each with its count and total in either run and the difference, the largest difference first.
 */
public record TraceComparison(TraceAnalysis a, TraceAnalysis b, boolean byNode, List<Row> rows) {
    /** One aligned op: {@code key} as the report shows it; a side without it has count 0. */
    public record Row(String key, int countA, long totalA, int countB, long totalB) {
        public long deltaNs() { return totalB - totalA; }
    }

    public TraceComparison {
        rows = List.copyOf(rows);
    }

    public static TraceComparison of(TraceRun a, TraceRun b) {
        boolean byNode = a.fromStudio() && b.fromStudio();
        Map<String, long[]> totals = new LinkedHashMap<>();
        add(a, byNode, totals, 0);
        add(b, byNode, totals, 2);
        List<Row> rows = new ArrayList<>();
        totals.forEach((k, t) -> rows.add(new Row(k, (int) t[0], t[1], (int) t[2], t[3])));
        rows.sort(Comparator.comparingLong((Row r) -> Math.abs(r.deltaNs())).reversed().thenComparing(Row::key));
        return new TraceComparison(TraceAnalysis.of(a), TraceAnalysis.of(b), byNode, rows);
    }

    private static void add(TraceRun run, boolean byNode, Map<String, long[]> totals, int at) {
        for (TimelineEvent e : run.timeline().events()) {
            if (e.stream() < 0) continue;
            long[] t = totals.computeIfAbsent(key(e, byNode), k -> new long[4]);
            t[at]++;
            t[at + 1] += e.durationNs();
        }
    }

    /** The key {@code e} is aligned by (a row's {@link Row#key}): what a view matches a row's bars with. */
    public static String key(TimelineEvent e, boolean byNode) {
        return byNode && e.nodeId() >= 0 ? "node " + e.nodeId() + " " + e.name() : e.name();
    }

    /** The report of {@code hirstudio trace diff}: at most {@code top} aligned ops. */
    public String format(int top) {
        long spanA = TraceReport.span(a.run().timeline()), spanB = TraceReport.span(b.run().timeline());
        TimeText unit = TimeText.of(Math.max(spanA, spanB));
        List<String> lines = new ArrayList<>();
        lines.add("A: " + a.run().label());
        lines.add("B: " + b.run().label());
        lines.add("span: A " + unit.format(spanA) + ", B " + unit.format(spanB) + ", B - A " + unit.format(spanB - spanA)
                + (spanA > 0 ? String.format(Locale.ROOT, " (%+.1f%%)", 100.0 * (spanB - spanA) / spanA) : ""));
        lines.add("critical path by kind (A, B, B - A):");
        Map<DependencyKind, Long> ka = kinds(a), kb = kinds(b);
        for (DependencyKind k : DependencyKind.values()) {
            long x = ka.getOrDefault(k, 0L), y = kb.getOrDefault(k, 0L);
            if (x == 0 && y == 0) continue;
            lines.add(String.format(Locale.ROOT, "  %-44s %12s %12s %12s", k.description(), unit.format(x),
                    unit.format(y), unit.format(y - x)));
        }
        lines.add("device ops aligned by " + (byNode ? "Host IR node and name" : "name") + (rows.size() > top
                ? " (the " + top + " largest differences of " + rows.size() + ")" : "")
                + ": count A, total A, count B, total B, B - A");
        for (Row r : rows.stream().limit(top).toList()) {
            lines.add(String.format(Locale.ROOT, "  %6d %12s %6d %12s %12s  %s", r.countA(), unit.format(r.totalA()),
                    r.countB(), unit.format(r.totalB()), unit.format(r.deltaNs()), r.key()));
        }
        // each line escaped on its own: a line break inside a kernel or thread name cannot start a line of its own
        return String.join("\n", lines.stream().map(TerminalText::escape).toList()) + "\n";
    }

    private static Map<DependencyKind, Long> kinds(TraceAnalysis t) {
        return t.criticalPath().map(CriticalPath::byKind).orElse(Map.of());
    }
}
