package org.hostir.studio.trace.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.trace.Counter;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimeText;
import org.hostir.studio.trace.TimelineEvent;

/**
 * The text {@code hirstudio trace FILE} prints: summary (with the waits between streams the trace states),
 * critical path (its time by kind, then its largest segments in time order, each with its share of the run, and
 * the Host IR node of each imported bar that {@link NodeMatching} names), idle time per stream, the kernel table,
 * the Host IR nodes of an imported trace's device work and the counters' peaks. Every time of one report is in one
 * unit.
 */
public final class TraceReport {
    private TraceReport() {
    }

    /** The report, with at most {@code top} segments and kernel rows. */
    public static String format(TraceAnalysis a, int top) {
        return format(a, top, List.of());
    }

    /** The report, an imported trace's bars matched to the top-level nodes of the programs its ranks ran. */
    public static String format(TraceAnalysis a, int top, List<ProgramNode> program) {
        Timeline t = a.run().timeline();
        long span = span(t);
        TimeText unit = TimeText.of(span);
        List<String> lines = new ArrayList<>();
        long streams = t.events().stream().map(e -> List.of(e.rank(), e.stream())).distinct().count();
        lines.add(a.run().label() + ": " + t.ranks().size() + " rank" + (t.ranks().size() == 1 ? "" : "s") + ", "
                + streams + " rows, " + t.events().size() + " events, span " + unit.format(span));
        if (!a.run().waits().isEmpty()) {
            lines.add("stream waits: " + a.run().waits().size() + " stated by the trace (event record and wait pairs),"
                    + " none inferred from times");
        }
        a.graph().problems().forEach(p -> lines.add("note: " + p));
        NodeMatching nodes = NodeMatching.of(a.run(), program);
        if (nodes.mismatches() > 0) {
            lines.add("note: " + nodes.mismatches() + " of nvFuser's dispatch ranges name another op than the program's"
                    + " node at their position: the program is not the one that ran");
        }
        Map<TimelineEvent, String> nodeOf = new IdentityHashMap<>();
        nodes.matches().forEach(m -> nodeOf.put(m.event(), m.node()));
        a.criticalPath().ifPresentOrElse(p -> criticalPath(p, unit, top, nodeOf, lines),
                () -> lines.add("critical path: none (no events, or dependencies that form a cycle)"));
        idle(a.idle(), unit, lines);
        kernels(a.kernels(), unit, top, lines);
        nodes(nodes, unit, top, lines);
        counters(a.counters(), lines);
        // each line escaped on its own: a line break inside a kernel or thread name cannot start a line of its own
        return String.join("\n", lines.stream().map(TerminalText::escape).toList()) + "\n";
    }

    static long span(Timeline t) {
        long first = t.events().stream().mapToLong(TimelineEvent::startNs).min().orElse(0);
        return t.events().stream().mapToLong(TimelineEvent::endNs).max().orElse(0) - first;
    }

    private static void criticalPath(CriticalPath p, TimeText unit, int top, Map<TimelineEvent, String> nodeOf,
                                     List<String> lines) {
        TreeSet<Integer> ranks = new TreeSet<>();
        p.segments().forEach(s -> ranks.add(s.event().rank()));
        lines.add("");
        lines.add("critical path: " + unit.format(p.lengthNs()) + " through rank" + (ranks.size() == 1 ? " " : "s ")
                + ranks.stream().map(String::valueOf).reduce((x, y) -> x + ", " + y).orElse("") + ", "
                + p.segments().stream().filter(s -> s.durationNs() > 0).count() + " segments");
        for (Map.Entry<DependencyKind, Long> k : p.byKind().entrySet()) {
            lines.add(String.format(Locale.ROOT, "  %-44s %12s %5s", k.getKey().description(),
                    unit.format(k.getValue()), TimeText.percent(share(k.getValue(), p.lengthNs()))));
        }
        List<CriticalPath.Segment> timed = p.segments().stream().filter(s -> s.durationNs() > 0).toList();
        List<CriticalPath.Segment> shown = timed.stream()
                .sorted(Comparator.comparingLong(CriticalPath.Segment::durationNs).reversed()).limit(top)
                .sorted(Comparator.comparingLong(CriticalPath.Segment::startNs)).toList();
        lines.add("  segments" + (shown.size() < timed.size() ? " (the " + shown.size() + " longest of "
                + timed.size() + ")" : "") + ", in time order:");
        for (CriticalPath.Segment s : shown) {
            TimelineEvent e = s.event();
            lines.add(String.format(Locale.ROOT, "    %12s %12s %5s  rank %d %-10s %-10s %s", unit.format(s.startNs()
                    - p.segments().getFirst().startNs()), unit.format(s.durationNs()),
                    TimeText.percent(p.share(s)), e.rank(), row(e), s.kind().name().toLowerCase(Locale.ROOT),
                    e.name() + (nodeOf.containsKey(e) ? " [" + nodeOf.get(e) + "]" : "") + (s.from() != null && s.from() != e ? " <- " + s.from().name() + " (rank "
                            + s.from().rank() + ")" : "")));
        }
    }

    private static String row(TimelineEvent e) {
        return e.stream() < 0 ? "host" : "stream " + e.stream();
    }

    private static void idle(IdleBreakdown idle, TimeText unit, List<String> lines) {
        if (idle.streams().isEmpty()) return;
        lines.add("");
        lines.add("idle per stream (between its first and last op): busy, idle waiting on the host / on another"
                + " stream / unexplained, and time in communications before the last peer arrived");
        for (IdleBreakdown.StreamIdle s : idle.streams()) {
            lines.add(String.format(Locale.ROOT, "  rank %d %-18s busy %12s of %12s  idle host %s, other stream %s,"
                    + " other %s  peer wait %s", s.rank(), s.name(), unit.format(s.busyNs()), unit.format(s.spanNs()),
                    unit.format(s.idle(IdleBreakdown.Cause.HOST)), unit.format(s.idle(IdleBreakdown.Cause.OTHER_STREAM)),
                    unit.format(s.idle(IdleBreakdown.Cause.OTHER)), unit.format(s.peerWaitNs())));
        }
    }

    private static void kernels(KernelTable table, TimeText unit, int top, List<String> lines) {
        if (table.rows().isEmpty()) return;
        lines.add("");
        lines.add("top device ops by total time" + (table.rows().size() > top ? " (" + top + " of "
                + table.rows().size() + ")" : "") + ": count, total, mean, ranks, per-rank min / max, spread");
        for (KernelTable.Row r : table.rows().stream().limit(top).toList()) {
            lines.add(String.format(Locale.ROOT, "  %6d %12s %12s %4d %12s %12s %5s  %s (%s)", r.count(),
                    unit.format(r.totalNs()), unit.format(r.meanNs()), r.ranks(), unit.format(r.minRankNs()),
                    unit.format(r.maxRankNs()), TimeText.percent(r.spread()), r.name(), r.kind().key()));
        }
    }

    private static void nodes(NodeMatching nodes, TimeText unit, int top, List<String> lines) {
        List<NodeMatching.NodeTime> rows = nodes.byNode();
        if (rows.isEmpty()) return;
        lines.add("");
        lines.add("Host IR nodes of the device work" + (rows.size() > top ? " (" + top + " of " + rows.size() + ")" : "")
                + ", matched by nvFuser's NVTX ranges, else by kernel name: bars, total, node (matched by)");
        for (NodeMatching.NodeTime r : rows.stream().limit(top).toList()) {
            lines.add(String.format(Locale.ROOT, "  %6d %12s  %s (%s)", r.bars(), unit.format(r.totalNs()), r.node(),
                    r.how().words()));
        }
    }

    private static void counters(List<Counter> counters, List<String> lines) {
        if (counters.isEmpty()) return;
        lines.add("");
        lines.add("counters (peak):");
        for (Counter c : counters) {
            lines.add("  rank " + c.rank() + " " + c.name() + ": " + c.peak() + " " + c.unit() + " ("
                    + c.samples().size() + " samples)");
        }
    }

    private static double share(long part, long whole) {
        return whole == 0 ? 0 : (double) part / whole;
    }
}
