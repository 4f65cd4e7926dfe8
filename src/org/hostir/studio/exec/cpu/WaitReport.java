package org.hostir.studio.exec.cpu;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.ir.RankRanges;

/**
 * The body of a "no progress" diagnostic: what each blocked rank and stream waits for, one line per distinct
 * wait, ranks that wait the same way in one line ({@code ranks 0-1023 stream 1: Allgather (node 13, #0 on team
 * [0-1023] (1024 ranks))}), at most {@link #MAX_LINES} lines, so 1,024 devices give a readable report instead of
 * megabytes.
 */
final class WaitReport {
    static final int MAX_LINES = 200;

    private static final Pattern RANK_THREAD = Pattern.compile("rank (\\d+) (.+)");

    private WaitReport() {}

    /** One line per distinct (role, wait), each starting with a newline and two spaces. */
    static String of(Collection<Blocking.Waiter> waiters) {
        Map<List<String>, Set<Integer>> groups = new TreeMap<>(Comparator.comparing((List<String> k) -> k.get(0))
                .thenComparing(k -> k.get(1)));
        List<String> others = new java.util.ArrayList<>();
        for (Blocking.Waiter w : waiters) {
            Matcher m = RANK_THREAD.matcher(w.thread());
            if (m.matches()) {
                groups.computeIfAbsent(List.of(m.group(2), w.what().text()), k -> new TreeSet<>())
                        .add(Integer.parseInt(m.group(1)));
            } else {
                others.add(w.thread() + ": " + w.what().text());
            }
        }
        List<String> lines = new java.util.ArrayList<>();
        groups.entrySet().stream()
                .sorted(Comparator.comparing((Map.Entry<List<String>, Set<Integer>> e) -> e.getValue().iterator()
                        .next()).thenComparing(e -> e.getKey().get(0)))
                .forEach(e -> lines.add(RankRanges.ranks(e.getValue()) + " " + e.getKey().get(0) + ": "
                        + e.getKey().get(1)));
        others.stream().sorted().forEach(lines::add);
        StringBuilder sb = new StringBuilder();
        lines.stream().limit(MAX_LINES).forEach(l -> sb.append("\n  ").append(l));
        if (lines.size() > MAX_LINES) {
            sb.append("\n  ... and ").append(lines.size() - MAX_LINES).append(" more distinct waits (")
                    .append(waiters.size()).append(" blocked threads in all)");
        }
        return sb.toString();
    }
}
