package org.hostir.studio.diff;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the symbols of two canonical programs correspond, read from the lines that print alike once symbols are
 * masked. nvFuser's {@code makeContigTensor} gives every tensor fresh symbols ({@code i3} and {@code i4} for the K
 * of two operands) where a fusion file names one ({@code K}): the same program with symbols bound more or less
 * finely. When one side only merges symbols the other keeps apart (the correspondence is a function one way), the
 * finer side is renamed into the coarser side's symbols so that the diffs show real changes only; symbols that
 * pair crosswise are left as they are, a real difference.
 *
 * @param leftToRight each left symbol's partners on the right (by canonical id)
 * @param rightToLeft each right symbol's partners on the left
 */
record SymbolBinding(Map<Integer, Set<Integer>> leftToRight, Map<Integer, Set<Integer>> rightToLeft) {
    /** A symbol in nvFuser's spelling; not an iter domain ({@code iS1}) nor a name with letters after the digits. */
    private static final Pattern SYMBOL = Pattern.compile("(?<![A-Za-z0-9_.])i(\\d+)(?![0-9A-Za-z])");

    /** The text with every symbol replaced by {@code i?}. */
    static String masked(String printed) { return SYMBOL.matcher(printed).replaceAll("i?"); }

    /** The correspondence over the lines of two prints that are equal once symbols are masked. */
    static SymbolBinding of(String left, String right) {
        List<String> a = left.lines().toList();
        List<String> b = right.lines().toList();
        Map<Integer, Set<Integer>> ab = new TreeMap<>();
        Map<Integer, Set<Integer>> ba = new TreeMap<>();
        int context = a.size() + b.size() + 1;
        int i = 0;
        int j = 0;
        for (Hunk h : TextDiff.hunks(masked(left), masked(right), context)) {
            for (Hunk.Line line : h.lines()) {
                switch (line.kind()) {
                    case CONTEXT -> pair(occurrences(a.get(i++)), occurrences(b.get(j++)), ab, ba);
                    case REMOVED -> i++;
                    case ADDED -> j++;
                }
            }
        }
        if (i == 0 && j == 0) { // no hunk: the masked texts are equal throughout
            for (int k = 0; k < Math.min(a.size(), b.size()); k++) {
                pair(occurrences(a.get(k)), occurrences(b.get(k)), ab, ba);
            }
        }
        return new SymbolBinding(ab, ba);
    }

    private static void pair(List<Integer> a, List<Integer> b, Map<Integer, Set<Integer>> ab,
                             Map<Integer, Set<Integer>> ba) {
        for (int k = 0; k < Math.min(a.size(), b.size()); k++) {
            ab.computeIfAbsent(a.get(k), x -> new TreeSet<>()).add(b.get(k));
            ba.computeIfAbsent(b.get(k), x -> new TreeSet<>()).add(a.get(k));
        }
    }

    /** Every left symbol has one right partner: the right side binds at most as finely (it may merge). */
    boolean leftToOne() { return leftToRight.values().stream().allMatch(s -> s.size() == 1); }

    boolean rightToOne() { return rightToLeft.values().stream().allMatch(s -> s.size() == 1); }

    /** Symbols one side merges, named from that side ({@code right i2 is left i2, i3}); empty when none. */
    String note() {
        if (leftToOne() && rightToOne()) return "";
        if (leftToOne()) return merged(rightToLeft, "right", "left");
        if (rightToOne()) return merged(leftToRight, "left", "right");
        return "";
    }

    private static String merged(Map<Integer, Set<Integer>> coarse, String coarseSide, String fineSide) {
        List<String> parts = new ArrayList<>();
        for (var e : coarse.entrySet()) {
            if (e.getValue().size() > 1) {
                parts.add(coarseSide + " i" + e.getKey() + " is " + fineSide + " "
                        + String.join(", ", e.getValue().stream().map(v -> "i" + v).toList()));
            }
        }
        return String.join("; ", parts);
    }

    /** The function a one-way correspondence is (each key's one partner). */
    static Map<Integer, Integer> function(Map<Integer, Set<Integer>> relation) {
        Map<Integer, Integer> out = new TreeMap<>();
        relation.forEach((k, v) -> out.put(k, v.iterator().next()));
        return out;
    }

    private static List<Integer> occurrences(String line) {
        List<Integer> out = new ArrayList<>();
        for (Matcher m = SYMBOL.matcher(line); m.find(); ) out.add(Integer.parseInt(m.group(1)));
        return out;
    }
}
