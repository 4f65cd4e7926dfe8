package org.hostir.studio.exec.sim;

import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.ModelledRouting;
import org.hostir.studio.ir.FusionOp;

/**
 * The simulator's mixture-of-experts model (docs/simulation.md, "Mixture of experts"): the {@link RoutingModel}
 * gives each rank's per-expert token counts, from which a dispatch's and combine's split sizes (so the bytes of
 * each pair of ranks) and a grouped_mm's group sizes follow; their cost is the profile's links and GEMM rates, so a
 * hot expert's rank gets the longer bars. Counts the tokens dropped over capacity, by node.
 */
final class SimMoe {
    private final RoutingModel model;
    private final Map<Buffer, ModelledRouting.Exchanged> exchanged = new IdentityHashMap<>();
    /** Tokens dropped over capacity and tokens routed, by node id, summed over the ranks' own batches. */
    private final Map<Integer, long[]> drops = new TreeMap<>();
    /** The ranks whose batches {@link #drops} counts: the ranks walked (a rank proved to be another's is not). */
    private final BitSet counted = new BitSet();

    SimMoe(RoutingModel model) { this.model = model; }

    RoutingModel model() { return model; }

    /** A new simulation: nothing exchanged or dropped yet. */
    void clear() {
        exchanged.clear();
        drops.clear();
        counted.clear();
    }

    /**
     * The kept counts of a batch of {@code tokens}; {@code own}: the batch of the asking rank, {@code rank}, whose
     * drops are counted.
     */
    long[] tokensPerExpert(long tokens, int experts, boolean own, int rank, int nodeId) {
        RoutingModel.Assignment a = model.assign(tokens, experts);
        if (own) {
            counted.set(rank);
            long[] d = drops.computeIfAbsent(nodeId, k -> new long[2]);
            d[0] += a.dropped();
            d[1] += tokens;
        }
        return a.kept();
    }

    void remember(Buffer tokensToRank, ModelledRouting.Exchanged e) { exchanged.put(tokensToRank, e); }

    ModelledRouting.Exchanged recall(Buffer tokensToRank) {
        ModelledRouting.Exchanged e = exchanged.get(tokensToRank);
        if (e == null) throw new ExecutionException("a combine whose n_tokens_to_rank no dispatch of this"
                + " simulation wrote (the sim backend models a combine after its dispatch only)");
        return e;
    }

    /** A kernel's time and flops. */
    record Cost(double us, long flops) {}

    /**
     * A grouped_mm whose offsets split M ({@code [m, k] x [g, k, n]}: tokens sorted by expert) as the model routes
     * {@code m} rows over the g experts, each group a GEMM at the efficiency of its size (a small group runs far
     * below peak) after one launch, rows dropped over capacity not computed; empty for the other forms.
     */
    Optional<Cost> groupedMm(HardwareProfile.Gemm g, FusionOp op, List<Buffer> inputs, Buffer output, int rank,
                             int nodeId) {
        if (!(op instanceof FusionOp.GroupedMm) || inputs.get(0).shape().length != 2
                || inputs.get(1).shape().length != 3) {
            return Optional.empty();
        }
        long[] a = inputs.get(0).shape(), b = inputs.get(1).shape();
        long m = a[0], k = a[1], n = b[2];
        long[] groups = tokensPerExpert(m, (int) b[0], true, rank, nodeId);
        double elem = output.bytes() / (double) Math.max(1, output.numel());
        double us = g.launchUs();
        long flops = 0;
        for (long rows : groups) {
            if (rows == 0) continue;
            double bytes = elem * (rows * k + k * n + rows * n);
            us += ComputeCost.gemmUs(g, output.dtype(), rows * n, k, bytes) - g.launchUs();
            flops += 2 * rows * k * n;
        }
        return Optional.of(new Cost(us, flops));
    }

    /** One line on the routing and its drops, or empty when no node routed tokens. */
    Optional<String> summary() {
        if (drops.isEmpty()) return Optional.empty();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "routing %s, capacity factor %s (seed %d):",
                model.routing().spelling(), model.capacitySpelling(), model.seed()));
        drops.forEach((node, d) -> s.append(String.format(Locale.ROOT, " node %d dropped %d of %d tokens;", node,
                d[0], d[1])));
        s.setLength(s.length() - 1);
        s.append(String.format(Locale.ROOT, " (summed over the %d rank%s walked)", counted.cardinality(),
                counted.cardinality() == 1 ? "" : "s"));
        return Optional.of(s.toString());
    }
}
