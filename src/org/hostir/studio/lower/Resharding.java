package org.hostir.studio.lower;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * Whether an op changes how data is placed on devices (nvFuser's isResharding): a mapped axis gains or loses a
 * device-parallel type, a sharded axis vanishes, or the mesh changes. Stream parallelization is not resharding.
 */
public final class Resharding {
    private Resharding() {}

    public static boolean isResharding(FusionOp op) {
        for (int i = 0; i < op.inputs().size(); i++) {
            if (changes(op, i)) return true;
        }
        return false;
    }

    /** Whether input {@code i} reaches the output with another sharding or on another mesh. */
    public static boolean changes(FusionOp op, int i) {
        TensorView in = op.inputs().get(i);
        TensorView out = op.output();
        if (in.mesh() == null || out.mesh() == null) return false;
        if (!in.mesh().equals(out.mesh())) return true;
        int[] map = AxisMap.of(op, i);
        boolean[] reached = new boolean[out.rank()];
        for (int p = 0; p < in.rank(); p++) {
            IterDomain a = in.axis(p);
            if (map[p] == AxisMap.NONE) {
                if (a.isDeviceDim() && !a.isReduction()) return true;
                continue;
            }
            reached[map[p]] = true;
            IterDomain b = out.axis(map[p]);
            // a broadcast operand of a pointwise op is replicated: every device reads its own copy, so a DID
            // output axis above it needs no communication (nvFuser's haveDifferentShardings maps no broadcasts)
            if (a.isBroadcast() && op.inputs().size() > 1) continue;
            if (!a.isReduction() && deviceType(a) != deviceType(b)) return true;
        }
        // a new sharded output axis that only broadcast or unmapped inputs feed is a scatter too
        for (int o = 0; o < out.rank(); o++) {
            if (!reached[o] && out.axis(o).isDeviceDim() && op.inputs().size() == 1) return true;
        }
        return false;
    }

    /** A reduction whose only reduced axis is device-parallel in its input: itself a reducing collective. */
    public static boolean isCommunicatingReduction(FusionOp op) {
        // a local partial reduction (SplitReduction's rFactor) keeps the axis as a device axis of partial sums,
        // one per device, and communicates nothing
        return op instanceof FusionOp.Reduction r && r.axes().size() == 1
                && r.input().axis(r.axes().get(0)).isDeviceDim() && !isPartial(r);
    }

    /** A reduction that keeps every allocated axis: the reduced one stays as partial sums (size 1 per device). */
    public static boolean isPartial(FusionOp.Reduction r) {
        return r.output().allocationAxes().size() == r.input().allocationAxes().size();
    }

    /** A set whose input is sharded on the axis that becomes the output's Stream axis (seed 000's allgather). */
    public static Optional<Integer> didToStreamAxis(FusionOp op) {
        if (!(op instanceof FusionOp.Set s) || s.isPermute()) return Optional.empty();
        Optional<IterDomain> stream = s.output().streamAxis();
        if (stream.isEmpty()) return Optional.empty();
        int o = s.output().axes().indexOf(stream.get());
        int p = AxisMap.producerAxis(op, 0, o);
        if (p == AxisMap.NONE || !s.input().axis(p).isDeviceDim()) return Optional.empty();
        return Optional.of(p);
    }

    /**
     * A reduction axis counts as replicated whatever its parallel type, so {@code iDIDx{D} -> rDIDx{D}} is
     * resharding (an Allreduce or ReduceScatter): nvFuser's mapDeviceAndStreamParallelTypeToId skips reduction
     * ids (csrc/multidevice/utils.cpp, lines 86-91 at 81c4b22fd).
     */
    private static Object deviceType(IterDomain a) {
        return a.isDeviceDim() && !a.isReduction() ? a.parallelType() : null;
    }

    /** Position of the device-parallel axis among the axes a communication sees, or -1. */
    static int shardedPosition(TensorView tv, List<IterDomain> ignored) {
        int pos = 0;
        for (IterDomain a : tv.axes()) {
            if (a.isReduction() || ignored.contains(a)) continue;
            if (a.isDeviceDim()) return pos;
            pos++;
        }
        return -1;
    }

    static boolean sameMesh(DeviceMesh a, DeviceMesh b) { return Objects.equals(a, b); }
}
