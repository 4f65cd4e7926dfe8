package org.hostir.studio.tests.property;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Failures of generated fusions grouped into classes (what went wrong, the op template, the sharding change), each
 * with its count, the dtypes, meshes and layouts it was seen with, and its smallest example: the report the lead
 * verifies a fix with, and the files {@link #save} writes.
 */
final class FailureClasses {
    private static final class Entry {
        int count;
        final TreeSet<String> dtypes = new TreeSet<>();
        final TreeSet<String> meshes = new TreeSet<>();
        final TreeSet<String> layouts = new TreeSet<>();
        SpaceCase smallest;
        String detail;
    }

    private static final Comparator<SpaceCase> SIZE = Comparator.comparingInt(SpaceCase::devices)
            .thenComparingInt(c -> c.text().length()).thenComparing(SpaceCase::id);

    private final Map<String, Entry> classes = new TreeMap<>();
    /** Every failure, one tab-separated line each: kind, id, template, change, dtype, mesh, layout, message. */
    private final List<String> rows = new ArrayList<>();

    /** {@code kind}: what went wrong (a wrong answer, a numpy mismatch, ...); {@code detail}: its message. */
    void add(String kind, SpaceCase c, String detail) {
        Entry e = classes.computeIfAbsent(kind + " " + c.template() + " " + c.change(), k -> new Entry());
        e.count++;
        e.dtypes.add(c.dtype());
        e.meshes.add(c.mesh());
        e.layouts.add(c.layout());
        rows.add(String.join("\t", kind, c.id(), c.template(), c.change(), c.dtype(), c.mesh(), c.layout(),
                firstLine(detail)));
        if (e.smallest == null || SIZE.compare(c, e.smallest) < 0) {
            e.smallest = c;
            e.detail = detail;
        }
    }

    boolean isEmpty() { return classes.isEmpty(); }

    int total() { return classes.values().stream().mapToInt(e -> e.count).sum(); }

    String report() {
        StringBuilder s = new StringBuilder();
        if (!classes.isEmpty()) {
            s.append("failure classes (").append(classes.size()).append(", ").append(total()).append(" fusions):\n");
        }
        classes.forEach((k, e) -> s.append("  ").append(k).append(": ").append(e.count).append(" (dtypes ")
                .append(e.dtypes).append(", meshes ").append(e.meshes).append(", layouts ").append(e.layouts)
                .append(")\n    smallest ").append(e.smallest.id()).append(": ").append(e.smallest.replay("FILE"))
                .append("\n    ").append(firstLine(e.detail)).append('\n'));
        return s.toString();
    }

    /**
     * Each class's smallest fusion as {@code NN-class.fusion} with a {@code .txt} beside it (replay, message), and
     * every failure as a line of {@code failures.tsv}.
     */
    void save(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve("failures.tsv"), rows, StandardCharsets.UTF_8);
        int n = 0;
        for (var en : classes.entrySet()) {
            String base = String.format("%02d-%s", ++n, en.getKey().replaceAll("[^A-Za-z0-9_]+", "_"));
            Entry e = en.getValue();
            Path fusion = dir.resolve(base + ".fusion");
            Files.writeString(fusion, e.smallest.text(), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve(base + ".txt"), en.getKey() + ": " + e.count + " fusions, dtypes " + e.dtypes
                    + ", meshes " + e.meshes + ", layouts " + e.layouts + "\n" + e.smallest.replay(fusion.toString())
                    + "\n" + e.detail + "\n", StandardCharsets.UTF_8);
        }
    }

    private static String firstLine(String s) {
        String line = s == null ? "" : s.lines().findFirst().orElse("");
        return line.length() > 400 ? line.substring(0, 400) + " ..." : line;
    }
}
