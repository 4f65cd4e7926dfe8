package org.hostir.studio.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.ir.RankRanges;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.OverlapFigures;
import org.hostir.studio.trace.TimelineEvent;

/**
 * What {@code run} prints after the iterations: each rank's program shape, the median time, overlap figures,
 * host dispatch per Host IR node, and peak memory per rank.
 */
final class RunReport {
    /** Ranks whose overlap figures are listed one by one; the others are summarised (1,024 devices). */
    private static final int OVERLAP_RANKS = 8;

    private RunReport() {}

    static void print(RunResult result, PrintStream out) {
        Map<String, List<Integer>> shapes = new LinkedHashMap<>();
        new TreeMap<>(result.programs()).forEach((rank, program) -> shapes.computeIfAbsent(
                grouped(result.programs().size()) ? shape(program) : rank + " " + shape(program),
                k -> new ArrayList<>()).add(rank));
        shapes.forEach((key, ranks) -> out.println(RankRanges.ranks(ranks) + " program: "
                + shape(result.programs().get(ranks.getFirst()))));
        List<Double> sorted = result.iterationMillis().stream().sorted().toList();
        out.printf(Locale.ROOT, "time: median %.3f ms over %d iteration%s (min %.3f, max %.3f)%n",
                result.medianMillis(), sorted.size(), sorted.size() == 1 ? "" : "s", sorted.getFirst(),
                sorted.getLast());
        out.print(OverlapFigures.of(result.timeline()).format(OVERLAP_RANKS).lines().map(l -> "overlap: " + l + "\n")
                .reduce("", String::concat));
        hostDispatch(result, out);
        out.println(peakMemory(result.peakBytes()));
    }

    /**
     * Every rank's peak, ranks of the same peak in one entry ({@code ranks 0-1023 4.0 KiB}), so the line stays
     * short at 1,024 devices and still names each rank.
     */
    static String peakMemory(Map<Integer, Long> peakBytes) {
        Map<Long, List<Integer>> byPeak = new LinkedHashMap<>();
        boolean grouped = grouped(peakBytes.size());
        new TreeMap<>(peakBytes).forEach((rank, bytes) -> byPeak.computeIfAbsent(grouped ? bytes : -1L - rank,
                b -> new ArrayList<>()).add(rank));
        StringBuilder mem = new StringBuilder("peak memory:");
        byPeak.forEach((key, ranks) -> mem.append(String.format(Locale.ROOT, " %s %s;", RankRanges.ranks(ranks),
                human(peakBytes.get(ranks.getFirst())))));
        return mem.substring(0, mem.length() - 1);
    }

    /** Up to {@link #OVERLAP_RANKS} ranks each get their own line or entry; more are grouped by equal figures. */
    private static boolean grouped(int ranks) { return ranks > OVERLAP_RANKS; }

    private static String human(long bytes) {
        if (bytes >= 1L << 30) return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
        if (bytes >= 1L << 20) return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
        return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }

    /** Host time per dispatched node: median and mean overall, then the median by node kind. */
    private static void hostDispatch(RunResult result, PrintStream out) {
        List<TimelineEvent> dispatches = result.timeline().events().stream().filter(e -> e.kind() == EventKind.HOST)
                .toList();
        if (dispatches.isEmpty()) return;
        List<Long> host = dispatches.stream().map(e -> e.endNs() - e.startNs()).sorted().toList();
        out.printf(Locale.ROOT, "host dispatch: median %.2f us, mean %.2f us per Host IR node (%d nodes of the last"
                + " iteration)%n", host.get(host.size() / 2) / 1000.0,
                host.stream().mapToLong(Long::longValue).average().orElse(0) / 1000.0, host.size());
        Map<String, List<Long>> byKind = new TreeMap<>();
        dispatches.forEach(e -> byKind.computeIfAbsent(e.name().replace("dispatch ", ""), k -> new ArrayList<>())
                .add(e.endNs() - e.startNs()));
        StringBuilder sb = new StringBuilder("host dispatch by node (median us):");
        byKind.forEach((k, v) -> {
            List<Long> ns = v.stream().sorted().toList();
            sb.append(String.format(Locale.ROOT, " %s %.2f (n=%d);", k, ns.get(ns.size() / 2) / 1000.0, ns.size()));
        });
        out.println(sb.substring(0, sb.length() - 1));
    }

    /** Node counts by kind, e.g. {@code 21 nodes (2 ForLoop, 4 HirAliasSelect, 1 Communication, ...)}. */
    static String shape(HostIrContainer program) {
        Map<String, Integer> counts = new TreeMap<>();
        List<HostNode> all = program.allNodes();
        for (HostNode n : all) counts.merge(n.getClass().getSimpleName(), 1, Integer::sum);
        StringBuilder sb = new StringBuilder(all.size() + " nodes (");
        counts.forEach((k, v) -> sb.append(v).append(' ').append(k).append(", "));
        return sb.substring(0, sb.length() - 2) + ")";
    }
}
