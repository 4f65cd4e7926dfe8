package org.hostir.studio.ui.timeline.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.trace.analysis.TraceComparison.BarPair;

/**
 * One rank's difference track while the shown run (A) is compared with another (B): each device bar of A that the
 * comparison paired under its node or name ({@link TraceComparison#bars()}), at A's bar's time, with B's time minus
 * A's (a bar B lacks counts as B's 0). {@code maxAbsNs} scales the track: the largest difference of any rank, so
 * that tracks compare.
 */
public record DifferenceTrack(int rank, List<BarPair> pairs, long maxAbsNs) {
    public DifferenceTrack {
        pairs = List.copyOf(pairs);
    }

    /** One track per rank of A with paired bars, in rank order. */
    public static List<DifferenceTrack> of(TraceComparison c) {
        Map<Integer, List<BarPair>> byRank = new TreeMap<>();
        long max = 0;
        for (BarPair p : c.bars()) {
            if (p.a() == null) continue;
            byRank.computeIfAbsent(p.a().rank(), r -> new ArrayList<>()).add(p);
            max = Math.max(max, Math.abs(p.deltaNs()));
        }
        List<DifferenceTrack> tracks = new ArrayList<>();
        long scale = max;
        byRank.forEach((rank, pairs) -> {
            pairs.sort(Comparator.comparingLong((BarPair p) -> p.a().startNs()));
            tracks.add(new DifferenceTrack(rank, pairs, scale));
        });
        return tracks;
    }

    /**
     * The pair a person sees in the pixel column spanning times [{@code fromNs}, {@code toNs}), or the nearest
     * within {@code slackNs} of the column's middle, or null. As for the rows ({@link TimelineRows.Row#at}): a bar
     * painted in the column beats one only near it (a sub-pixel neighbour, shorter, used to win over the wide bar
     * under the pointer); among painted ones the shortest, among near ones the nearest, then the shortest.
     */
    public BarPair at(double fromNs, double toNs, long slackNs) {
        double mid = (fromNs + toNs) / 2;
        BarPair found = null;
        boolean foundPainted = false;
        double foundGap = Double.MAX_VALUE;
        for (BarPair p : pairs) {
            long start = p.a().startNs(), end = p.a().endNs();
            if (start - slackNs >= toNs) break;
            boolean painted = TimelineRows.Row.paintedIn(start, end, fromNs, toNs);
            double gap = painted ? 0 : Math.max(0, Math.max(start - mid, mid - end));
            if (!painted && gap > slackNs) continue;
            boolean better = found == null || (painted && !foundPainted)
                    || (painted == foundPainted && (gap < foundGap
                            || (gap == foundGap && p.a().durationNs() < found.a().durationNs())));
            if (better) {
                found = p;
                foundPainted = painted;
                foundGap = gap;
            }
        }
        return found;
    }
}
