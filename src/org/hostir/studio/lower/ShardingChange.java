package org.hostir.studio.lower;

import java.util.List;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;

/**
 * Which device parallel type a resharding expression communicates over, as nvFuser's getCommunicationInfo asks
 * each of DIDx, DIDy in turn (getCommunicationInfoForParallelType) and allows at most one to change. On a 1-D
 * mesh that is DIDx; on a 2-D mesh the collective runs within the mesh slice along that type's axis
 * (DeviceMesh::getSlice), one team per slice.
 */
record ShardingChange(ParallelType type) {
    private static final List<ParallelType> DEVICE_TYPES = List.of(ParallelType.DIDX, ParallelType.DIDY);

    static ShardingChange of(FusionOp op) {
        TensorView in = op.inputs().get(0);
        TensorView out = op.output();
        ParallelType changed = null;
        for (ParallelType t : DEVICE_TYPES) {
            if (!changes(op, in, out, t)) continue;
            if (changed != null) {
                throw new LoweringException(op, "sharding.two-types", "changes the " + changed.fileName()
                        + " and the " + t.fileName() + " sharding at once; nvFuser's getCommunicationInfo expects"
                        + " at most one sharding change per expression: split it into two sets");
            }
            changed = t;
        }
        return new ShardingChange(changed == null ? ParallelType.DIDX : changed);
    }

    /** getCommunicationInfoForParallelType's haveDifferentShardings for one type, on the logical axes. */
    private static boolean changes(FusionOp op, TensorView in, TensorView out, ParallelType t) {
        int p = position(in, t);
        int c = position(out, t);
        if (p < 0 && c < 0) return false;
        if (p < 0 || c < 0) return true;
        int[] map = AxisMap.of(op, 0);
        return map[p] != c;
    }

    /** The logical position of the non-reduction axis of this type, or -1 (nvFuser's getShardedIterDomain). */
    static int position(TensorView tv, ParallelType t) {
        for (int i = 0; i < tv.rank(); i++) {
            if (tv.axis(i).parallelType() == t && !tv.axis(i).isReduction()) return i;
        }
        return -1;
    }

    /** Sharded along this type over more than one device (a one-device mesh counts as unsharded). */
    boolean isSharded(TensorView tv) {
        return position(tv, type) >= 0 && tv.devicesAlong(type) > 1;
    }

    /**
     * The team of a collective over this type: the mesh's slice through {@code rank} (the first device when
     * {@code rank} is not in the mesh, which then skips the communication); the whole mesh on a 1-D one.
     */
    List<Integer> team(DeviceMesh mesh, int rank) {
        if (mesh.rank() == 1) return mesh.deviceIds();
        return mesh.slice(mesh.contains(rank) ? rank : mesh.deviceIds().get(0), type);
    }
}
