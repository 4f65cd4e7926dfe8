package org.hostir.studio.ir;

/**
 * The device axis an rFactor leaves on a matmul or linear output (nvFuser's getRFactorDeviceDimensionIndex,
 * csrc/multidevice/utils.cpp at 81c4b22fd): DecomposeReshardings splits the contracted axis sharded by an outer
 * split into {@code iDIDx{D}}, one partial product per device, and the rest, reduced locally. The op computes its
 * usual result and the partial's size-1 device axis is inserted where the contracted axis was, the last runtime
 * axis ({@code MatmulOp::evaluate} and {@code LinearOp::evaluate} unsqueeze there, csrc/ir/composite_nodes.cpp).
 * A matmul or linear of a file always ends in its reduction axis, so an output ending in an iteration axis is
 * such a partial.
 */
public final class RFactorProduct {
    private RFactorProduct() {}

    /** The runtime position of the rFactor product's device axis in the op's output, or -1. */
    public static int runtimePosition(FusionOp op) {
        if (!(op instanceof FusionOp.Matmul || op instanceof FusionOp.Linear)) return -1;
        TensorView out = op.output();
        if (out.rank() == 0) return -1;
        IterDomain last = out.axis(out.rank() - 1);
        return last.isReduction() || !last.isDeviceDim() ? -1 : out.allocationAxes().size() - 1;
    }
}
