package org.hostir.studio.trace.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.trace.TimeText;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;

/**
 * Two runs side by side: their spans, their critical paths' time by kind, and the device work of both aligned
 * ({@link BarKeys}): by the Host IR node of the program that ran when it is given (the top-level node where a side
 * is an imported trace, whose bars {@link NodeMatching} ties to the program; the node itself, nested or not, where
 * both are the Studio's), else by Host IR node and name when both
 * runs come from the Studio, else by name; each {@link Row} with its count and total in either run, the difference
 * and the side that lacks it, the largest difference first; {@code byName} the same by the bars' names. The bars
 * themselves are paired in {@code bars} (the k-th bar of a key on a rank in A with the k-th in B), for a view's
 * difference track.
 */
public record TraceComparison(TraceAnalysis a, TraceAnalysis b, Alignment alignment, List<Row> rows,
                              List<Row> byName, List<BarPair> bars, int unnamedA, int unnamedB) {
    /** What the rows are aligned by. */
    public enum Alignment {
        PROGRAM("the Host IR nodes of the program"), NODE("Host IR node and name"), NAME("name");

        private final String words;

        Alignment(String words) {
            this.words = words;
        }

        public String words() { return words; }
    }

    /** One aligned op or node: {@code key} as the report shows it; a side without it has count 0. */
    public record Row(String key, int countA, long totalA, int countB, long totalB) {
        public long deltaNs() { return totalB - totalA; }

        /** The run that has none of it ("A" or "B"), if one has none. */
        public Optional<String> onlyIn() {
            return countA == 0 ? Optional.of("B") : countB == 0 ? Optional.of("A") : Optional.empty();
        }
    }

    /** A bar of A and its counterpart in B under the same key on the same rank; either may be null (none). */
    public record BarPair(String key, TimelineEvent a, TimelineEvent b) {
        /** B's time minus A's, a missing bar counting as 0. */
        public long deltaNs() {
            return (b == null ? 0 : b.durationNs()) - (a == null ? 0 : a.durationNs());
        }
    }

    public TraceComparison {
        rows = List.copyOf(rows);
        byName = List.copyOf(byName);
        bars = List.copyOf(bars);
    }

    public static TraceComparison of(TraceRun a, TraceRun b) {
        return of(a, b, List.of());
    }

    /** {@code a} and {@code b} aligned by the top-level nodes of {@code program} (none: as {@link #of(TraceRun, TraceRun)}). */
    public static TraceComparison of(TraceRun a, TraceRun b, List<ProgramNode> program) {
        Alignment alignment = !program.isEmpty() ? Alignment.PROGRAM
                : a.fromStudio() && b.fromStudio() ? Alignment.NODE : Alignment.NAME;
        boolean byNode = a.fromStudio() && b.fromStudio();
        BarKeys ka = BarKeys.of(a, program, byNode), kb = BarKeys.of(b, program, byNode);
        return new TraceComparison(TraceAnalysis.of(a), TraceAnalysis.of(b), alignment,
                rows(a, b, ka.keys()::get, kb.keys()::get), rows(a, b, TimelineEvent::name, TimelineEvent::name),
                pairs(a, b, ka, kb), ka.unnamed(), kb.unnamed());
    }

    /** Whether the rows are aligned by Host IR node (of the program, or the Studio's node ids). */
    public boolean byNode() { return alignment != Alignment.NAME; }

    private static List<Row> rows(TraceRun a, TraceRun b, Function<TimelineEvent, String> keyA,
                                  Function<TimelineEvent, String> keyB) {
        Map<String, long[]> totals = new LinkedHashMap<>();
        add(a, keyA, totals, 0);
        add(b, keyB, totals, 2);
        List<Row> rows = new ArrayList<>();
        totals.forEach((k, t) -> rows.add(new Row(k, (int) t[0], t[1], (int) t[2], t[3])));
        rows.sort(Comparator.comparingLong((Row r) -> Math.abs(r.deltaNs())).reversed().thenComparing(Row::key));
        return rows;
    }

    private static void add(TraceRun run, Function<TimelineEvent, String> key, Map<String, long[]> totals, int at) {
        for (TimelineEvent e : run.timeline().events()) {
            if (e.stream() < 0) continue;
            long[] t = totals.computeIfAbsent(key.apply(e), k -> new long[4]);
            t[at]++;
            t[at + 1] += e.durationNs();
        }
    }

    /** The k-th bar of each (rank, key) of A, in start order, with the k-th of B. */
    private static List<BarPair> pairs(TraceRun a, TraceRun b, BarKeys ka, BarKeys kb) {
        Map<List<Object>, List<TimelineEvent>> inA = byRankAndKey(a, ka), inB = byRankAndKey(b, kb);
        List<BarPair> pairs = new ArrayList<>();
        inA.forEach((k, bars) -> {
            List<TimelineEvent> other = inB.getOrDefault(k, List.of());
            for (int i = 0; i < Math.max(bars.size(), other.size()); i++) {
                pairs.add(new BarPair((String) k.get(1), i < bars.size() ? bars.get(i) : null,
                        i < other.size() ? other.get(i) : null));
            }
        });
        inB.forEach((k, bars) -> {
            if (!inA.containsKey(k)) bars.forEach(e -> pairs.add(new BarPair((String) k.get(1), null, e)));
        });
        return pairs;
    }

    private static Map<List<Object>, List<TimelineEvent>> byRankAndKey(TraceRun run, BarKeys keys) {
        Map<List<Object>, List<TimelineEvent>> out = new LinkedHashMap<>();
        run.timeline().events().stream().filter(e -> e.stream() >= 0)
                .sorted(Comparator.comparingInt(TimelineEvent::rank).thenComparingLong(TimelineEvent::startNs))
                .forEach(e -> out.computeIfAbsent(List.of(e.rank(), keys.keys().get(e)), k -> new ArrayList<>()).add(e));
        return out;
    }

    /** A's bars of a row in timeline order, for a view to outline. */
    public List<TimelineEvent> barsOfA(String key) {
        Set<TimelineEvent> of = Collections.newSetFromMap(new IdentityHashMap<>());
        for (BarPair p : bars) if (p.a() != null && p.key().equals(key)) of.add(p.a());
        return a.run().timeline().events().stream().filter(of::contains).toList();
    }

    /** The report of {@code hirstudio trace diff}: at most {@code top} rows of each table. */
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
        table(lines, "device work aligned by " + alignment.words(), rows, top, unit);
        if (alignment == Alignment.PROGRAM) {
            if (unnamedA > 0) lines.add("note: " + unnamedA + " device bars of A name no top-level node of the program");
            if (unnamedB > 0) lines.add("note: " + unnamedB + " device bars of B name no top-level node of the program");
        }
        if (byNode()) table(lines, "device ops aligned by name", byName, top, unit);
        // each line escaped on its own: a line break inside a kernel or thread name cannot start a line of its own
        return String.join("\n", lines.stream().map(TerminalText::escape).toList()) + "\n";
    }

    private static void table(List<String> lines, String title, List<Row> rows, int top, TimeText unit) {
        lines.add(title + (rows.size() > top ? " (the " + top + " largest differences of " + rows.size() + ")" : "")
                + ": count A, total A, count B, total B, B - A");
        for (Row r : rows.stream().limit(top).toList()) {
            lines.add(String.format(Locale.ROOT, "  %6d %12s %6d %12s %12s  %s%s", r.countA(), unit.format(r.totalA()),
                    r.countB(), unit.format(r.totalB()), unit.format(r.deltaNs()), r.key(),
                    r.onlyIn().map(s -> "  (only in " + s + ")").orElse("")));
        }
    }

    private static Map<DependencyKind, Long> kinds(TraceAnalysis t) {
        return t.criticalPath().map(CriticalPath::byKind).orElse(Map.of());
    }
}
