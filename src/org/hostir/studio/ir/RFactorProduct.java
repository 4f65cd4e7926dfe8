package org.hostir.studio.ir;

/**
 * The device axis an rFactor leaves on a matmul, linear or grouped_mm output (nvFuser's getRFactorDeviceDimensionIndex,
 * csrc/multidevice/utils.cpp at 81c4b22fd): DecomposeReshardings splits the contracted axis sharded by an outer
 * split into {@code iDIDx{D}}, one partial product per device, and the rest, reduced locally. The op computes its
 * usual result and the partial's size-1 device axis is inserted where the contracted axis was, the last runtime
 * axis ({@code MatmulOp::evaluate}, {@code LinearOp::evaluate} and {@code GroupedMmaOp::evaluate} unsqueeze there,
 * csrc/ir/composite_nodes.cpp:87-89, 178-180, 1226-1228).
 * A matmul or linear of a file always ends in its reduction axis and has the usual result's runtime rank, so an
 * output with one runtime axis more is such a partial.
 */
public final class RFactorProduct {
    private RFactorProduct() {}

    /** The runtime position of the rFactor product's device axis in the op's output, or -1. */
    public static int runtimePosition(FusionOp op) {
        boolean product = op instanceof FusionOp.Matmul || op instanceof FusionOp.Linear
                || op instanceof FusionOp.GroupedMm;
        if (!product) return -1;
        TensorView out = op.output();
        int d = deviceAxis(out);
        if (d < 0 || !out.axis(d).isDeviceDim()) return -1;
        // a Stream chunk of an output (ShardByStream's newValLike drops its reduction axes) ends in an iteration axis
        // too: a partial has one runtime axis more than the op's usual result
        return runtimeRank(out) == usualRank(op) ? -1 : out.allocationAxes().size() - 1;
    }

    /**
     * The position of the partial's device axis, its last runtime axis (then, at nvFuser 2026-04, the local part of
     * the contracted axis, {@code rS{K/D}rf}, which the op reduces), or -1: the output's last axis where that is an
     * iteration axis, the one before where a reduction follows it.
     */
    public static int deviceAxis(TensorView out) {
        int r = out.rank();
        if (r > 0 && !out.axis(r - 1).isReduction()) return r - 1;
        return r > 1 && !out.axis(r - 2).isReduction() ? r - 2 : -1;
    }

    private static int runtimeRank(TensorView tv) {
        return (int) tv.axes().stream().filter(a -> !a.isReduction()).count();
    }

    /** The op's result rank as torch gives it: linear drops the input's last axis and adds the weight's rows. */
    private static int usualRank(FusionOp op) {
        int a = runtimeRank(op.inputs().get(0));
        int b = runtimeRank(op.inputs().get(1));
        if (op instanceof FusionOp.Linear) return a - 1 + (b == 2 ? 1 : 0);
        // createGroupedMmaOutput: [g, m, n] from two 2-D operands, else [m, n] (csrc/ops/arith.cpp:2322-2341)
        if (op instanceof FusionOp.GroupedMm) return a == 2 && b == 2 ? 3 : 2;
        if (a == 1 || b == 1) return a + b - 2;
        return Math.max(a, b);
    }
}
