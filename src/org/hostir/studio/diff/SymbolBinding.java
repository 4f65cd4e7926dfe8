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
 * How the symbols of two programs that print alike, symbols aside, correspond. nvFuser's
 * {@code makeContigTensor} gives every tensor fresh symbols ({@code i3} and {@code i4} for the K of two operands)
 * where a fusion file names one ({@code K}): the same program with symbols bound more or less finely. That is
 * accepted when one side only merges symbols the other keeps apart (the correspondence is a function one way);
 * a symbol that pairs with two on the other side while another pairs the other way round is a real difference.
 */
final class SymbolBinding {
    /** A symbol in nvFuser's spelling; not a loop index (those are letters) nor an iter domain ({@code iS1}). */
    private static final Pattern SYMBOL = Pattern.compile("(?<![A-Za-z0-9_.])i(\\d+)(?![0-9A-Za-z])");

    private SymbolBinding() {}

    /** The text with every symbol replaced by {@code i?}. */
    static String masked(String printed) { return SYMBOL.matcher(printed).replaceAll("i?"); }

    /**
     * For two canonical prints whose masked texts are equal: empty when the symbols correspond one to one; a
     * note naming the merged symbols when one side merges; null when the correspondence is no function either way.
     */
    static String note(String left, String right) {
        List<String> a = occurrences(left);
        List<String> b = occurrences(right);
        Map<String, Set<String>> ab = new TreeMap<>();
        Map<String, Set<String>> ba = new TreeMap<>();
        for (int k = 0; k < a.size(); k++) {
            ab.computeIfAbsent(a.get(k), x -> new TreeSet<>()).add(b.get(k));
            ba.computeIfAbsent(b.get(k), x -> new TreeSet<>()).add(a.get(k));
        }
        boolean leftToOne = ab.values().stream().allMatch(s -> s.size() == 1);
        boolean rightToOne = ba.values().stream().allMatch(s -> s.size() == 1);
        if (leftToOne && rightToOne) return "";
        if (!leftToOne && !rightToOne) return null;
        // each left symbol has one right partner: the right side merges some (and the other way round)
        return leftToOne ? merged(ba, "right", "left") : merged(ab, "left", "right");
    }

    private static String merged(Map<String, Set<String>> coarse, String coarseSide, String fineSide) {
        List<String> parts = new ArrayList<>();
        for (var e : coarse.entrySet()) {
            if (e.getValue().size() > 1) {
                parts.add(coarseSide + " " + e.getKey() + " is " + fineSide + " " + String.join(", ", e.getValue()));
            }
        }
        return String.join("; ", parts);
    }

    private static List<String> occurrences(String text) {
        List<String> out = new ArrayList<>();
        for (Matcher m = SYMBOL.matcher(text); m.find(); ) out.add("i" + m.group(1));
        return out;
    }
}
