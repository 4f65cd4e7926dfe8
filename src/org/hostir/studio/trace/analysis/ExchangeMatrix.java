package org.hostir.studio.trace.analysis;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.hostir.studio.trace.Breakdown;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * The bytes each rank sends to each rank in one exchange (an AllToAllv of a MoeDispatch or MoeCombine), gathered
 * from the {@link Breakdown}s of its bars on every rank: row = sender, column = receiver, the diagonal a rank's
 * local copy. Expert-parallel load imbalance shows as a hot column (one rank's experts receive most tokens).
 */
public final class ExchangeMatrix {
    private final String exchange;
    private final long[][] bytes;

    private ExchangeMatrix(String exchange, long[][] bytes) {
        this.exchange = exchange;
        this.bytes = bytes;
    }

    /**
     * The matrix of the exchange {@code selected} belongs to: the bars of the same node, iteration and exchange on
     * every rank of {@code timeline} (a rank without one sent nothing); empty if the bar carries no bytes per rank.
     */
    public static Optional<ExchangeMatrix> of(Timeline timeline, TimelineEvent selected) {
        Optional<Breakdown> mine = selected.breakdown().filter(b -> b.unit() == Breakdown.Unit.BYTES_TO_RANK);
        if (mine.isEmpty()) return Optional.empty();
        List<Integer> ranks = timeline.ranks();
        int n = Math.max(mine.get().counts().size(), ranks.isEmpty() ? 0 : ranks.getLast() + 1);
        long[][] bytes = new long[n][n];
        for (int rank : ranks) {
            for (TimelineEvent e : timeline.of(rank)) {
                if (sameExchange(e, selected, mine.get())) {
                    List<Long> counts = e.breakdown().orElseThrow().counts();
                    for (int to = 0; to < counts.size() && to < n; to++) bytes[rank][to] = counts.get(to);
                    break; // every bar of a rank's exchange (its sends, receives, local copy) carries the same row
                }
            }
        }
        return Optional.of(new ExchangeMatrix(mine.get().exchange(), bytes));
    }

    private static boolean sameExchange(TimelineEvent e, TimelineEvent selected, Breakdown mine) {
        return e.nodeId() == selected.nodeId() && e.iteration() == selected.iteration()
                && e.breakdown().filter(b -> b.unit() == mine.unit() && b.exchange().equals(mine.exchange()))
                        .isPresent();
    }

    /** The exchange's name, "Dispatch 5 x". */
    public String exchange() { return exchange; }

    public int ranks() { return bytes.length; }

    public long bytes(int from, int to) { return bytes[from][to]; }

    public long sent(int from) { return Arrays.stream(bytes[from]).sum(); }

    public long received(int to) {
        long sum = 0;
        for (long[] row : bytes) sum += row[to];
        return sum;
    }

    public long total() {
        long sum = 0;
        for (int r = 0; r < bytes.length; r++) sum += sent(r);
        return sum;
    }

    /**
     * The busiest link between two ranks, {@code {from, to}} (the first of equals in row order), or empty when no
     * bytes leave any rank: the diagonal is a local copy, not a link.
     */
    public Optional<int[]> hottest() {
        int[] best = null;
        for (int from = 0; from < bytes.length; from++) {
            for (int to = 0; to < bytes.length; to++) {
                if (from != to && bytes[from][to] > 0 && (best == null || bytes[from][to] > bytes[best[0]][best[1]])) {
                    best = new int[] {from, to};
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /** The rank that receives the most bytes (its own included): where the routing's skew lands. */
    public int hottestReceiver() {
        int best = 0;
        for (int to = 1; to < bytes.length; to++) if (received(to) > received(best)) best = to;
        return best;
    }
}
