package org.hostir.studio.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.exec.RunResult;
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
    private RunReport() {}

    static void print(RunResult result, PrintStream out) {
        for (var e : new TreeMap<>(result.programs()).entrySet()) {
            out.println("rank " + e.getKey() + " program: " + shape(e.getValue()));
        }
        List<Double> sorted = result.iterationMillis().stream().sorted().toList();
        out.printf(Locale.ROOT, "time: median %.3f ms over %d iteration%s (min %.3f, max %.3f)%n",
                result.medianMillis(), sorted.size(), sorted.size() == 1 ? "" : "s", sorted.getFirst(),
                sorted.getLast());
        out.print(OverlapFigures.of(result.timeline()).format().lines().map(l -> "overlap: " + l + "\n")
                .reduce("", String::concat));
        hostDispatch(result, out);
        StringBuilder mem = new StringBuilder("peak memory:");
        new TreeMap<>(result.peakBytes()).forEach((rank, bytes) -> mem.append(String.format(Locale.ROOT,
                " rank %d %.1f KiB;", rank, bytes / 1024.0)));
        out.println(mem.substring(0, mem.length() - 1));
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
