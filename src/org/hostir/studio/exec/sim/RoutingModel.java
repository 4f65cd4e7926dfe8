package org.hostir.studio.exec.sim;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The simulator's expert assignment: a {@link Routing}, a capacity factor and a seed. A batch of {@code tokens}
 * tokens is split over the experts by the routing's shares, as whole tokens by the largest remainder (so a uniform
 * routing of 12 tokens over 4 experts is exactly 3 each, what a round-robin router sends); the expected split, not
 * a sampled one, so the same declaration always gives the same counts. Which expert holds which popularity rank of
 * a uniform or Zipf routing is a permutation drawn from the seed (the same on every rank: a popular expert is
 * popular everywhere); a histogram names its experts itself.
 *
 * <p>Capacity as the Switch Transformer defines it (Fedus, Zoph, Shazeer 2021, arXiv:2101.03961, section 2.2:
 * expert capacity = tokens per batch / number of experts x capacity factor; GShard, Lepikhin et al. 2020,
 * arXiv:2006.16668, section 3.2, the same per group of tokens): here {@code ceil(capacityFactor x tokens / experts)}
 * per expert and per rank's batch; the tokens an expert is routed beyond it are dropped (not sent, not computed).
 * A factor of {@link Double#POSITIVE_INFINITY} ({@code none}) drops nothing.
 */
public record RoutingModel(Routing routing, double capacityFactor, long seed) {
    /** The model of a run that declares none: every expert alike, no capacity limit. */
    public static final RoutingModel DEFAULT = new RoutingModel(new Routing.Uniform(), Double.POSITIVE_INFINITY, 42);

    public RoutingModel {
        if (!(capacityFactor > 0)) throw new IllegalArgumentException("capacity factor " + capacityFactor
                + ": expected a number > 0 or none");
    }

    /** One batch's split: tokens routed to each expert, and those kept within its capacity. */
    public record Assignment(long[] routed, long[] kept) {
        public long dropped() { return Arrays.stream(routed).sum() - Arrays.stream(kept).sum(); }

        public long[] routed() { return routed.clone(); }

        public long[] kept() { return kept.clone(); }
    }

    /** {@code tokens} tokens of one rank's batch over {@code experts} experts. */
    public Assignment assign(long tokens, int experts) {
        double[] shares = placed(routing.shares(experts));
        long[] routed = largestRemainder(tokens, shares);
        long[] kept = routed.clone();
        if (capacityFactor != Double.POSITIVE_INFINITY) {
            long capacity = (long) Math.ceil(capacityFactor * tokens / experts);
            for (int e = 0; e < experts; e++) kept[e] = Math.min(kept[e], capacity);
        }
        return new Assignment(routed, kept);
    }

    /** The capacity factor as {@code --capacity-factor} spells it. */
    public String capacitySpelling() {
        return capacityFactor == Double.POSITIVE_INFINITY ? "none" : String.format(Locale.ROOT, "%s", capacityFactor);
    }

    /** {@code --capacity-factor}'s text: a number > 0, or {@code none}; else an IllegalArgumentException. */
    public static double capacityFactor(String text) {
        if (text.equals("none")) return Double.POSITIVE_INFINITY;
        try {
            double f = Double.parseDouble(text);
            if (f > 0 && !Double.isInfinite(f)) return f;
        } catch (NumberFormatException e) {
            // refused below with the expected spelling
        }
        throw new IllegalArgumentException("'" + text + "' is not a capacity factor: expected a number > 0 or none");
    }

    /** Popularity rank i's share moved to the expert the seed places it at (a histogram's own order is kept). */
    private double[] placed(double[] byRank) {
        if (routing instanceof Routing.Histogram) return byRank;
        int[] expertOf = new int[byRank.length];
        for (int i = 0; i < expertOf.length; i++) expertOf[i] = i;
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = expertOf.length - 1; i > 0; i--) { // Fisher-Yates
            int j = random.nextInt(i + 1);
            int t = expertOf[i];
            expertOf[i] = expertOf[j];
            expertOf[j] = t;
        }
        double[] out = new double[byRank.length];
        for (int i = 0; i < byRank.length; i++) out[expertOf[i]] = byRank[i];
        return out;
    }

    /** {@code total} whole tokens in proportion to {@code shares}: floors, then one more to the largest remainders. */
    static long[] largestRemainder(long total, double[] shares) {
        long[] out = new long[shares.length];
        double[] rest = new double[shares.length];
        long given = 0;
        for (int i = 0; i < shares.length; i++) {
            double exact = total * shares[i];
            out[i] = (long) Math.floor(exact);
            rest[i] = exact - out[i];
            given += out[i];
        }
        Integer[] order = new Integer[shares.length];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> rest[a] != rest[b] ? Double.compare(rest[b], rest[a]) : Integer.compare(a, b));
        for (int i = 0; given < total; i = (i + 1) % order.length, given++) out[order[i]]++;
        return out;
    }
}
