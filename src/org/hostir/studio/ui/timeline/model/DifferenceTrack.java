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

    /** The pair whose A bar holds time {@code ns} (within {@code slackNs}), the shortest if several; or null. */
    public BarPair at(long ns, long slackNs) {
        BarPair found = null;
        for (BarPair p : pairs) {
            if (p.a().startNs() - slackNs > ns) break;
            if (p.a().endNs() + slackNs >= ns && (found == null || p.a().durationNs() < found.a().durationNs())) found = p;
        }
        return found;
    }
}
