package org.hostir.studio.ir;

import java.util.Arrays;
import java.util.List;

/**
 * Which output axis each input axis of an op becomes: the producer-consumer map of nvFuser's IdModel, for the
 * ops we have. Lowering uses it to see sharding changes and stream axes flow through an op; validation to check
 * extents agree.
 *
 * <p>Batched matmul aligns batch axes as {@code at::matmul} does, from the right, with one allowance: where the
 * second operand has fewer batch axes, an output batch axis of another extent is skipped rather than broadcast
 * (nvFuser's tests reorder a DID axis outermost, so {@code [DIDx D, S, M, K] x [DIDx D, K, N]} pairs D with D).
 */
public final class AxisMap {
    public static final int NONE = -1;

    private AxisMap() {}

    /** For input {@code inputIndex} of {@code op}: output axis position per input axis position, or NONE. */
    public static int[] of(FusionOp op, int inputIndex) {
        TensorView in = op.inputs().get(inputIndex);
        TensorView out = op.output();
        int[] map = new int[in.rank()];
        Arrays.fill(map, NONE);
        switch (op) {
            case FusionOp.Set s -> {
                List<Integer> kept = nonReduction(in);
                for (int o = 0; o < out.rank(); o++) {
                    int k = s.isPermute() ? s.permutation().get(o) : o;
                    if (k < kept.size()) map[kept.get(k)] = o;
                }
            }
            case FusionOp.Unary u -> positional(map, out);
            case FusionOp.Where w -> positional(map, out);
            case FusionOp.Expand e -> positional(map, out);
            case FusionOp.Reshape r -> {
                List<Integer> kept = nonReduction(in);
                List<Integer> outKept = nonReduction(out);
                int[] whole = ReshapeAxes.kept(kept.stream().map(in::axis).toList(), outKept.stream().map(out::axis).toList());
                for (int i = 0; i < whole.length; i++) if (whole[i] != NONE) map[kept.get(i)] = outKept.get(whole[i]);
            }
            case FusionOp.Squeeze q -> {
                int o = 0;
                for (int i = 0; i < in.rank() && i < q.flags().size(); i++) {
                    if (!q.flags().get(i)) map[i] = o++;
                }
            }
            case FusionOp.Binary b -> positional(map, out);
            case FusionOp.Reduction r -> pairwise(map, in, out);
            case FusionOp.Broadcast b -> {
                int i = 0;
                for (int o = 0; o < out.rank() && i < in.rank(); o++) {
                    if (!out.axis(o).isBroadcast() || in.axis(i).isBroadcast()) map[i++] = o;
                }
            }
            case FusionOp.Matmul m -> matmul(map, in, out, productRank(op), inputIndex == 0);
            case FusionOp.Linear l -> linear(map, in, productRank(op), inputIndex);
            case FusionOp.IndexSelect s -> {
                // the input's axes stay but the selected one (a new axis from the index, nvFuser's
                // getConsumerOfIndexedID, internal_nodes.cpp:231-233); the index's one axis becomes it
                if (inputIndex == 1) {
                    if (map.length == 1 && s.dim() >= 0) map[0] = s.dim();
                } else {
                    positional(map, out);
                    if (s.dim() >= 0 && s.dim() < map.length) map[s.dim()] = NONE;
                }
            }
            case FusionOp.TopK t -> positional(map, out); // TopKOp: dim resized to k (arith.cpp:2541-2560)
            case FusionOp.Scatter s -> scatter(map, out, s.dim(), inputIndex);
            case FusionOp.GroupedMm g -> groupedMm(map, in, productRank(op), inputIndex);
            // GatherOp::getIndexedID (internal_nodes.cpp:327-329): the index's axes are the output's; the input's
            // but the gathered one
            case FusionOp.TakeAlongAxis t -> {
                positional(map, out);
                if (inputIndex == 0 && t.dim() >= 0 && t.dim() < map.length) map[t.dim()] = NONE;
            }
        }
        return map;
    }

    /** The input axis of {@code inputIndex} that becomes output axis {@code outAxis}, or NONE. */
    public static int producerAxis(FusionOp op, int inputIndex, int outAxis) {
        int[] map = of(op, inputIndex);
        for (int i = 0; i < map.length; i++) {
            if (map[i] == outAxis) return i;
        }
        return NONE;
    }

    private static List<Integer> nonReduction(TensorView tv) {
        return java.util.stream.IntStream.range(0, tv.rank()).filter(i -> !tv.axis(i).isReduction()).boxed()
                .toList();
    }

    /**
     * nvFuser's PairwiseLogicalDomainMap for a reduction: the producer's logical axes without its reductions
     * ({@code TensorDomain::noReductions(producer->logical())}, csrc/logical_domain_map.cpp:204 at 81c4b22fd) in
     * order against the consumer's root (lines 575-627): an rFactor'd partial's {@code rS{K/D}rf}, reduced by the
     * op that made it, maps to nothing and the axes after it keep their places.
     */
    private static void pairwise(int[] map, TensorView in, TensorView out) {
        List<Integer> kept = nonReduction(in);
        for (int o = 0; o < kept.size() && o < out.rank(); o++) map[kept.get(o)] = o;
    }

    /**
     * The output rank a matmul, linear or grouped_mm's axes are placed by: an rFactor'd partial's at nvFuser 2026-04
     * ends in the local part of the contracted axis, {@code [.., iDIDx{D}rf, rS{K/D}rf]}, which no operand axis maps
     * to: its positions are counted as if it ended in its device axis, which stands where rk was.
     */
    private static int productRank(FusionOp op) {
        TensorView out = op.output();
        return RFactorProduct.runtimePosition(op) < 0 ? out.rank() : RFactorProduct.deviceAxis(out) + 1;
    }

    private static void positional(int[] map, TensorView out) {
        for (int i = 0; i < map.length && i < out.rank(); i++) map[i] = i;
    }

    /**
     * a [..B, M, K] x b [..B, K, N] -> out [..B, M, N, rK]; 1-D operands as at::matmul. An operand's reduction
     * axes (a producer's, as a linear's output feeding the next linear) are not runtime axes and map to nothing.
     */
    private static void matmul(int[] map, TensorView in, TensorView out, int outRank, boolean isA) {
        List<Integer> kept = nonReduction(in);
        int r = kept.size();
        if (outRank < 2 || r < 1) return;
        int k = outRank - 1; // the reduction axis comes last
        if (r == 1) {
            map[kept.get(0)] = k;
            return;
        }
        if (isA) {
            map[kept.get(r - 2)] = outRank - 3; // M
            map[kept.get(r - 1)] = k;
        } else {
            map[kept.get(r - 2)] = k;
            map[kept.get(r - 1)] = outRank - 2; // N
        }
        int inBatch = r - 2;
        int outBatchCount = Math.max(0, outRank - 3);
        if (inBatch == outBatchCount) {
            for (int i = 0; i < inBatch; i++) map[kept.get(i)] = i;
            return;
        }
        int o = outBatchCount - 1;
        for (int i = inBatch - 1; i >= 0 && o >= 0; i--) {
            while (o >= 0 && !compatible(in.axis(kept.get(i)), out.axis(o))) o--;
            if (o >= 0) map[kept.get(i)] = o--;
        }
    }

    /**
     * ScatterOp: self's axes are the output's; the index's and src's map but along dim where the sizes are exact
     * (logical_domain_map.cpp:127-136); the Studio refuses sharded scatters, so the map only orders axes.
     */
    private static void scatter(int[] map, TensorView out, int dim, int inputIndex) {
        positional(map, out);
        if (inputIndex > 0 && dim >= 0 && dim < map.length) map[dim] = NONE;
    }

    /**
     * GroupedMmaOp (logical_domain_map.cpp:490-560): mat1's M and mat2's N to the output's m and n, K to its last
     * axis (rk, or the device axis of an rFactor'd partial product, which stands where rk was, as for matmul); the
     * offsets' g to the output's g where it has one ([g, m, n, rk]); a 3-D operand's group axis to nothing.
     */
    private static void groupedMm(int[] map, TensorView in, int outRank, int inputIndex) {
        List<Integer> kept = nonReduction(in);
        int r = kept.size();
        int k = outRank - 1;
        if (k < 2 || r < 1) return;
        switch (inputIndex) {
            case 0 -> {
                if (r < 2) return;
                map[kept.get(r - 2)] = k - 2;
                map[kept.get(r - 1)] = k;
            }
            case 1 -> {
                if (r < 2) return;
                map[kept.get(r - 1)] = k - 1;
                map[kept.get(r - 2)] = k;
            }
            default -> {
                if (k == 3 && r == 1) map[kept.get(0)] = 0;
            }
        }
    }

    /** in [.., K], weight [N, K], bias [N] -> out [.., N, rK]; reduction axes of an operand map to nothing. */
    private static void linear(int[] map, TensorView in, int outRank, int inputIndex) {
        List<Integer> kept = nonReduction(in);
        int r = kept.size();
        if (outRank < 2 || r == 0) return;
        int n = outRank - 2;
        int k = outRank - 1;
        switch (inputIndex) {
            case 0 -> {
                for (int i = 0; i < r - 1; i++) map[kept.get(i)] = i;
                map[kept.get(r - 1)] = k;
            }
            case 1 -> {
                if (r == 2) {
                    map[kept.get(0)] = n;
                    map[kept.get(1)] = k;
                }
            }
            default -> {
                if (r == 1) map[kept.get(0)] = n;
            }
        }
    }

    private static boolean compatible(IterDomain a, IterDomain b) {
        return a.isBroadcast() || b.isBroadcast() || a.extent().equals(b.extent()) || sameSymbolName(a, b);
    }

    private static boolean sameSymbolName(IterDomain a, IterDomain b) {
        return a.extent() instanceof Extent.Symbolic x && b.extent() instanceof Extent.Symbolic y
                && x.name().equals(y.name());
    }
}
