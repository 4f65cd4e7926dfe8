package org.hostir.studio.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The overlap figures of a run: one {@link RankOverlap} per rank, the spread of HTA's overlap ratio over the
 * ranks that communicate, and a critical-path estimate.
 * <p>
 * The critical path is estimated as the rank with the longest span and that span: the run is over when its
 * slowest rank is, so that rank's span bounds the run from below. It does not follow send-to-receive or
 * collective dependencies across ranks to say which operations made that rank slow.
 */
public record OverlapFigures(List<RankOverlap> ranks) {
    /** Min, mean and max of a per-rank figure over {@code count} ranks. */
    public record Spread(double min, double mean, double max, int count) {
    }

    public OverlapFigures {
        ranks = List.copyOf(ranks);
    }

    public static OverlapFigures of(Timeline timeline) {
        return new OverlapFigures(timeline.ranks().stream().map(r -> RankOverlap.of(timeline, r)).toList());
    }

    /** The overlap ratio over the ranks that communicate; empty if none does. */
    public Optional<Spread> overlapRatio() {
        List<Double> ratios = ranks.stream().map(RankOverlap::overlapRatio).filter(OptionalDouble::isPresent)
                .map(OptionalDouble::getAsDouble).toList();
        if (ratios.isEmpty()) return Optional.empty();
        double sum = 0, min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY;
        for (double r : ratios) {
            sum += r;
            min = Math.min(min, r);
            max = Math.max(max, r);
        }
        return Optional.of(new Spread(min, sum / ratios.size(), max, ratios.size()));
    }

    /** The rank with the longest span (the lowest such rank on a tie); empty for an empty timeline. */
    public Optional<RankOverlap> criticalRank() {
        return ranks.stream().max(Comparator.comparingLong(RankOverlap::spanNs)
                .thenComparing(RankOverlap::rank, Comparator.reverseOrder()));
    }

    /** A few readable lines, every time in one unit chosen from the longest span. */
    public String format() { return format(Integer.MAX_VALUE); }

    /**
     * As {@link #format()}, with the per-rank lines of at most {@code maxRanks} ranks (the first ones and the
     * critical one) and the spread of the spans over all ranks, so a run of 1,024 devices prints a dozen lines.
     */
    public String format(int maxRanks) {
        if (ranks.isEmpty()) return "no events\n";
        long longest = criticalRank().map(RankOverlap::spanNs).orElse(0L);
        TimeText unit = TimeText.of(longest);
        List<String> lines = new ArrayList<>();
        List<RankOverlap> shown = shown(maxRanks);
        for (RankOverlap r : shown) rankLines(r, unit, lines);
        if (shown.size() < ranks.size()) {
            long[] spans = ranks.stream().mapToLong(RankOverlap::spanNs).sorted().toArray();
            lines.add("(" + (ranks.size() - shown.size()) + " more ranks not listed; the trace has every one) span"
                    + " over " + ranks.size() + " ranks: min " + unit.format(spans[0]) + ", median "
                    + unit.format(spans[spans.length / 2]) + ", max " + unit.format(spans[spans.length - 1]));
        }
        overlapRatio().ifPresent(s -> lines.add("overlap ratio over " + s.count() + " communicating rank"
                + (s.count() == 1 ? "" : "s") + ": min " + percent(s.min()) + ", mean " + percent(s.mean())
                + ", max " + percent(s.max())));
        criticalRank().ifPresent(r -> lines.add("critical path (longest span): rank " + r.rank() + ", "
                + unit.format(r.spanNs())));
        return String.join("\n", lines) + "\n";
    }

    private List<RankOverlap> shown(int maxRanks) {
        if (ranks.size() <= maxRanks) return ranks;
        List<RankOverlap> shown = new ArrayList<>(ranks.subList(0, Math.max(0, maxRanks - 1)));
        criticalRank().filter(c -> !shown.contains(c)).ifPresent(shown::add);
        return shown;
    }

    private static void rankLines(RankOverlap r, TimeText unit, List<String> lines) {
        String ratio = r.overlapRatio().isPresent() ? percent(r.overlapRatio().getAsDouble()) : "no communication";
        lines.add("rank " + r.rank() + ": compute " + unit.format(r.computeNs()) + ", communication "
                + unit.format(r.communicationNs()) + ", overlap " + unit.format(r.overlapNs()) + " (" + ratio
                + "), exposed communication " + unit.format(r.exposedCommunicationNs()) + ", span "
                + unit.format(r.spanNs()));
        for (RankOverlap.StreamBusy s : r.streams()) {
            String share = r.spanNs() == 0 ? "" : " (" + percent((double) s.busyNs() / r.spanNs()) + " of span)";
            lines.add("  " + s.name() + ": busy " + unit.format(s.busyNs()) + share);
        }
    }

    private static String percent(double fraction) {
        return TimeText.percent(fraction);
    }
}
