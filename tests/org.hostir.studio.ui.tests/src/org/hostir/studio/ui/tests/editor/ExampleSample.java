package org.hostir.studio.ui.tests.editor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which examples an editor test opens. Every example when {@code -Dhirstudio.tests.allExamples=true} (155 files, about
 * two minutes on an idle machine, ten on a loaded one); otherwise, for CI, a sample chosen from what the files hold
 * rather than by hand: every seed, the first file of every folder, the largest file, then files until every op,
 * communication type, dtype and parallel type written in any example is in some opened file (a greedy cover), so a
 * new kind of node reaches the editor test the day an example uses it.
 */
final class ExampleSample {
    private static final Pattern KIND = Pattern.compile("\"(op|type|dtype|parallel)\": *\"([A-Za-z_0-9]+)\"");

    private ExampleSample() {}

    static List<Path> toOpen(List<Path> all) {
        if (Boolean.getBoolean("hirstudio.tests.allExamples")) return all;
        Map<Path, Set<String>> kinds = new TreeMap<>();
        for (Path p : all) kinds.put(p, kindsIn(p));
        Set<Path> chosen = new LinkedHashSet<>();
        Set<Path> folders = new HashSet<>();
        for (Path p : all) {
            if (p.getParent().getFileName().toString().equals("seeds") || folders.add(p.getParent())) chosen.add(p);
        }
        chosen.add(all.stream().max(Comparator.comparingLong(ExampleSample::size)).orElseThrow());
        Set<String> wanted = new HashSet<>();
        kinds.values().forEach(wanted::addAll);
        Set<String> covered = new HashSet<>();
        chosen.forEach(p -> covered.addAll(kinds.get(p)));
        while (!covered.containsAll(wanted)) {
            Path best = all.stream().max(Comparator.comparingInt(p -> missing(kinds.get(p), covered))).orElseThrow();
            chosen.add(best);
            covered.addAll(kinds.get(best));
        }
        return new ArrayList<>(chosen);
    }

    private static int missing(Set<String> kinds, Set<String> covered) {
        return (int) kinds.stream().filter(k -> !covered.contains(k)).count();
    }

    private static Set<String> kindsIn(Path p) {
        Set<String> out = new HashSet<>();
        try {
            Matcher m = KIND.matcher(Files.readString(p));
            while (m.find()) out.add(m.group(1) + "=" + m.group(2));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
