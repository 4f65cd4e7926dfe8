package org.hostir.studio.tests.hostile;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** The suite's counts per class, per command and per family, and every bad case in a few readable lines. */
final class HostileReport {
    private HostileReport() {}

    static String counts(List<HostileSuite.Result> results, String title) {
        StringBuilder b = new StringBuilder(title).append('\n');
        table(b, "command", results, r -> r.hostile().command());
        table(b, "family", results, r -> r.hostile().family());
        results.stream().filter(r -> r.hostile().family().equals("signals")).forEach(r -> b.append("signal: ")
                .append(r.hostile().label()).append(": exit ").append(r.run().code()).append(", ")
                .append(r.outcome().reason()).append('\n'));
        b.append("slowest:");
        results.stream().sorted((x, y) -> Long.compare(y.millis(), x.millis())).limit(5).forEach(r ->
                b.append(String.format(" %.1f s %s;", r.millis() / 1000.0, r.hostile().id())));
        return b.append('\n').toString();
    }

    private static void table(StringBuilder b, String key, List<HostileSuite.Result> results,
                              Function<HostileSuite.Result, String> group) {
        Map<String, Map<Verdict, Integer>> rows = new TreeMap<>();
        Map<String, Long> millis = new TreeMap<>();
        for (HostileSuite.Result r : results) {
            rows.computeIfAbsent(group.apply(r), k -> new EnumMap<>(Verdict.class))
                    .merge(r.outcome().verdict(), 1, Integer::sum);
            millis.merge(group.apply(r), r.millis(), Long::sum);
            millis.merge("all", r.millis(), Long::sum);
        }
        Map<Verdict, Integer> total = new EnumMap<>(Verdict.class);
        rows.values().forEach(m -> m.forEach((v, n) -> total.merge(v, n, Integer::sum)));
        rows.put("all", total);
        b.append(String.format("%-18s", key));
        for (Verdict v : Verdict.values()) b.append(String.format(" %18s", v.label));
        b.append(String.format(" %6s %8s%n", "total", "seconds"));
        rows.forEach((name, counts) -> {
            b.append(String.format("%-18s", name));
            for (Verdict v : Verdict.values()) b.append(String.format(" %18d", counts.getOrDefault(v, 0)));
            b.append(String.format(" %6d %8.1f%n", counts.values().stream().mapToInt(Integer::intValue).sum(),
                    millis.get(name) / 1000.0));
        });
    }

    /** Each bad case: its class and id, the command line, the exit code and why, the first lines printed. */
    static String failures(List<HostileSuite.Result> results, Function<HostileSuite.Result, Path> dirOf) {
        StringBuilder b = new StringBuilder();
        List<HostileSuite.Result> bad = new ArrayList<>(results.stream().filter(r -> r.outcome().verdict().bad())
                .toList());
        bad.sort((x, y) -> x.outcome().verdict().compareTo(y.outcome().verdict()));
        for (HostileSuite.Result r : bad) {
            String dir = dirOf.apply(r).toString();
            b.append('[').append(r.outcome().verdict().label).append("] ").append(r.hostile().id())
                    .append(" (expected: ").append(r.hostile().expect().name().toLowerCase()).append(")\n");
            b.append("  $ hirstudio");
            for (String a : r.run().args()) b.append(' ').append(quoted(a.replace(dir, "$DIR")));
            b.append('\n');
            b.append("  exit ").append(r.run().hung() ? "none (hung)" : r.run().code()).append(": ")
                    .append(Terminal.shown(r.outcome().reason().replace(dir, "$DIR"))).append('\n');
            lines(b, "stderr", r.run().err(), dir);
            lines(b, "stdout", r.run().out(), dir);
        }
        return b.toString();
    }

    private static void lines(StringBuilder b, String stream, String text, String dir) {
        List<String> lines = text.replace(dir, "$DIR").lines().limit(3).toList();
        for (String l : lines) b.append("    ").append(stream).append(": ").append(Terminal.shown(l)).append('\n');
    }

    private static String quoted(String arg) {
        String s = Terminal.shown(arg);
        return s.isEmpty() || s.contains(" ") || s.contains("'") ? "'" + s.replace("'", "'\\''") + "'" : s;
    }
}
