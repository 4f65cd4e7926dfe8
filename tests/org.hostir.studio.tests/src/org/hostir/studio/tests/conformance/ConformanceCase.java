package org.hostir.studio.tests.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One case of {@code examples/conformance/}: {@code NAME.fusion} and its expectation {@code NAME.expected}.
 *
 * <p>The expectation is a small text file (documented in {@code docs/conformance.md}): comment lines ({@code #}, the
 * nvFuser test and how the golden was derived), then {@code devices N} (the run the golden is printed for),
 * {@code validate N N ...} (the device counts the CPU run validates at; absent for a rejection), {@code option K=V}
 * lines, and then either {@code rejected RULE} (check or lowering must refuse the fusion with that rule), or
 * {@code differs AREA why} (a known difference, see {@link Difference}), {@code seed PREFIX MARKER} (the golden is a dump of the shared seeds), or {@code golden} followed by one
 * {@code rank R} line and the printed program per rank.
 */
record ConformanceCase(String name, Path fusion, Path expectedFile, List<String> header, int devices,
                       List<Integer> validateAt, Map<String, String> options, Optional<Difference> differs,
                       Expect expect) {

    /**
     * A known difference from nvFuser, named in the expectation ({@code differs AREA why}) and in
     * {@code docs/conformance.md}: the suite checks that it is still there (so a fix flips the case to
     * "reproduced" visibly); {@code symbols} must be the only difference (equal once symbols are made anonymous).
     */
    record Difference(String area, String why) {}

    sealed interface Expect {
        record Rejected(String rule) implements Expect {}

        record Seed(String prefix, String marker) implements Expect {}

        record Golden(Map<Integer, String> dumps) implements Expect {}
    }

    static ConformanceCase read(Path fusion) throws IOException {
        String name = fusion.getFileName().toString().replaceFirst("\\.fusion$", "");
        Path expected = fusion.resolveSibling(name + ".expected");
        List<String> lines = Files.readAllLines(expected);
        List<String> header = new ArrayList<>();
        int devices = 0;
        List<Integer> validate = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        Optional<Difference> differs = Optional.empty();
        Expect expect = null;
        for (int i = 0; i < lines.size() && expect == null; i++) {
            String line = lines.get(i);
            String[] w = line.strip().split("\\s+");
            if (line.startsWith("#") || line.isBlank()) {
                header.add(line);
                continue;
            }
            header.add(line);
            switch (w[0]) {
                case "devices" -> devices = Integer.parseInt(w[1]);
                case "validate" -> {
                    for (int k = 1; k < w.length; k++) validate.add(Integer.parseInt(w[k]));
                }
                case "differs" -> differs = Optional.of(new Difference(w[1],
                        line.strip().substring(("differs " + w[1]).length()).strip()));
                case "option" -> options.put(w[1].split("=", 2)[0], w[1].split("=", 2)[1]);
                case "rejected" -> expect = new Expect.Rejected(w[1]);
                case "seed" -> expect = new Expect.Seed(w[1], line.strip().substring(("seed " + w[1] + " ").length()));
                case "golden" -> {
                    header.removeLast();
                    expect = new Expect.Golden(dumps(lines.subList(i + 1, lines.size())));
                }
                default -> throw new IllegalStateException(expected + ":" + (i + 1) + ": unknown line: " + line);
            }
        }
        if (devices < 1 || expect == null) throw new IllegalStateException(expected + ": no devices or expectation");
        return new ConformanceCase(name, fusion, expected, List.copyOf(header), devices, List.copyOf(validate),
                Map.copyOf(options), differs, expect);
    }

    private static Map<Integer, String> dumps(List<String> lines) {
        Map<Integer, String> out = new LinkedHashMap<>();
        Integer rank = null;
        StringBuilder dump = new StringBuilder();
        for (String l : lines) {
            if (l.startsWith("rank ")) {
                if (rank != null) out.put(rank, dump.toString());
                rank = Integer.parseInt(l.substring(5).strip());
                dump.setLength(0);
            } else {
                dump.append(l).append('\n');
            }
        }
        if (rank != null) out.put(rank, dump.toString());
        return out;
    }

    Optional<String> rejectedRule() {
        return expect instanceof Expect.Rejected r ? Optional.of(r.rule()) : Optional.empty();
    }

    /** The expectation file with the golden replaced: what {@code -Dconformance.update=true} writes. */
    String withGolden(Map<Integer, String> dumps) {
        StringBuilder s = new StringBuilder();
        header.forEach(h -> s.append(h).append('\n'));
        s.append("golden\n");
        dumps.forEach((rank, dump) -> s.append("rank ").append(rank).append('\n').append(dump.stripTrailing())
                .append('\n'));
        return s.toString();
    }
}
