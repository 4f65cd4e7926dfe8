package org.hostir.studio.lower;

import java.util.Optional;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.rules.FusionBindings;

/**
 * Whether a Gather, Allgather or Scatter needs its sharded axis moved outermost, as nvFuser's getCommunicationLayout
 * decides (csrc/host_ir/lower_to_communication.cpp:558-606 at 81c4b22fd): the axis goes first when an axis before
 * it is not of local size one (isLocalSizeOne, lines 394-396: parallelized, broadcast or reduction). That test is
 * on the logical axis, so a logical axis sharded by a split of its loop domain (a DIDy outer split on a 2-D mesh)
 * still holds data on every device, one row or several, and counts. nvFuser then sets the allocation domain
 * (ReorderShardedAxisPass); buffers here are laid out in logical order, so the caller permutes instead.
 */
final class CommunicationLayout {
    private CommunicationLayout() {}

    /**
     * The run-time position of {@code axis} in {@code tv} when an axis before it holds data, else -1. Axis
     * {@code sliced} (a Stream axis a loop slices away, or -1) does not count.
     */
    static int misplacedPosition(TensorView tv, int axis, int sliced) {
        int before = 0;
        int position = 0; // among the axes that exist at run time: the permutation indexes those
        for (int i = 0; i < axis; i++) {
            if (tv.axis(i).isReduction()) continue;
            position++;
            if (i != sliced && !isLocalSizeOne(tv, i)) before++;
        }
        return before > 0 ? position : -1;
    }

    /**
     * isLocalSizeOne on a logical axis: a reduction, a broadcast (an expanded one is materialized here, so it holds
     * data, where nvFuser gives it a stride of 0), or a logical axis parallelized on a device type itself rather
     * than through a split of the loop domain. A tensor a pass made without a loop domain keeps the logical extent
     * of a split-sharded axis, so there a device axis counts as size one only when its extent is the number of
     * devices along its type: that constant, or {@code D} (the run's device count, which a file gives a DID axis
     * only on a mesh of all devices); another symbol is not known here and counts as data (a copy too many at
     * worst, never data out of place).
     */
    static boolean isLocalSizeOne(TensorView tv, int i) {
        IterDomain a = tv.axis(i);
        if (a.isReduction() || a.isBroadcast()) return true;
        if (!a.isDeviceDim() || tv.mesh() == null) return false;
        if (tv.loop() != null) {
            Optional<Integer> p = tv.loop().loopPositionOf(a.parallelType());
            return p.isPresent() && tv.loop().source(p.get()).derivation() == LoopDomain.Derivation.LOGICAL;
        }
        return switch (a.extent()) {
            case Extent.Constant(long e) -> e == tv.devicesAlong(a.parallelType());
            case Extent.Symbolic s -> s.name().equals(FusionBindings.DEVICES_SYMBOL) && tv.mesh().rank() == 1;
        };
    }
}
