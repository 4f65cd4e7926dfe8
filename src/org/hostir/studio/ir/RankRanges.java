package org.hostir.studio.ir;

import java.util.Collection;
import java.util.TreeSet;

/**
 * A set of ranks written as ranges ({@code 0-3, 6, 8-1023}), so a report about 1,024 devices names its teams in a
 * few characters instead of listing every rank.
 */
public final class RankRanges {
    private RankRanges() {}

    /** The ranks in increasing order, runs of consecutive ranks as {@code first-last}, separated by {@code ", "}. */
    public static String of(Collection<Integer> ranks) {
        StringBuilder sb = new StringBuilder();
        Integer first = null;
        Integer last = null;
        for (int r : new TreeSet<>(ranks)) {
            if (last != null && r == last + 1) {
                last = r;
                continue;
            }
            append(sb, first, last);
            first = r;
            last = r;
        }
        append(sb, first, last);
        return sb.toString();
    }

    /** A team as the CPU backend's reports print it: every rank up to 8, else the ranges and the count. */
    public static String team(Collection<Integer> team) {
        if (team.size() <= 8) return team.toString();
        return "[" + of(team) + "] (" + team.size() + " ranks)";
    }

    /** {@code rank 3} or {@code ranks 0-3, 7}. */
    public static String ranks(Collection<Integer> ranks) {
        return (ranks.size() == 1 ? "rank " : "ranks ") + of(ranks);
    }

    private static void append(StringBuilder sb, Integer first, Integer last) {
        if (first == null) return;
        if (!sb.isEmpty()) sb.append(", ");
        sb.append(first);
        if (!last.equals(first)) sb.append(last == first + 1 ? ", " : "-").append(last);
    }
}
