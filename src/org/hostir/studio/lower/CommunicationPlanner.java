package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.print.IrText;

/**
 * Which communications a resharding expression becomes, with their teams and roots, case by case as nvFuser's
 * {@code convertSingleOpToCommunication} (csrc/host_ir/lower_to_communication.cpp) chooses them. Teams keep
 * the mesh's device order, the root appended when it is not in the mesh; nothing is sorted. On a 1-D mesh every
 * rank gets the same list ({@code mesh.getSlice(rank, DIDx)} is the whole mesh): a rank outside a team skips
 * that communication when it runs, it is not pruned here. On a 2-D mesh the Allgather, Allreduce or
 * ReduceScatter of a rank runs in its slice along the changed parallel type ({@link ShardingChange}); the other
 * kinds are 1-D only, as in nvFuser. The choice follows the newest revision's
 * getCommunicationInfoForParallelType, which adds AllToAll (the sharded axis moves) to the seeds' kinds.
 */
public final class CommunicationPlanner {
    /** One collective to post: the devices taking part and the root where the type has one (else -1). */
    public record Plan(CommunicationType type, List<Integer> team, int root, ReductionOpType reduction) {
        public Plan {
            team = DeviceMesh.ids(team);
        }
    }

    private CommunicationPlanner() {}

    /** The communications of a resharding expression, with the teams of the first device (for their kinds). */
    public static List<Plan> plan(FusionOp op) { return plan(op, -1); }

    /** The communications {@code rank} posts: on a 2-D mesh, collectives run in its slice of the mesh. */
    public static List<Plan> plan(FusionOp op, int rank) {
        List<Plan> plans = planOnMeshes(op, rank);
        boolean grid = op.inputs().get(0).mesh().rank() > 1 || op.output().mesh().rank() > 1;
        for (Plan p : plans) {
            if (grid && !p.type().lowersWithinMeshSlice()) {
                throw new LoweringException(op, "sharding.mesh-2d", "lowers to " + p.type().dumpName() + ", which"
                        + " nvFuser supports on 1-D meshes only (lowerTo" + p.type().dumpName() + "); on a 2-D mesh"
                        + " only Allgather, Allreduce and ReduceScatter within a mesh slice are lowered");
            }
        }
        return plans;
    }

    private static List<Plan> planOnMeshes(FusionOp op, int rank) {
        TensorView in = op.inputs().get(0);
        TensorView out = op.output();
        DeviceMesh sender = in.mesh();
        DeviceMesh receiver = out.mesh();
        boolean sameMesh = sender.equals(receiver);
        ShardingChange change = ShardingChange.of(op);
        // convertSingleOpToCommunication: a tensor on a one-device mesh counts as unsharded
        boolean inSharded = change.isSharded(in);
        boolean outSharded = change.isSharded(out);
        List<Integer> team = change.team(sender, rank);
        return switch (op) {
            case FusionOp.Set s -> {
                if (inSharded && outSharded && movesShardedAxis(s, change.type())) yield List.of(lowerToAllToAll(s));
                if (!inSharded && outSharded) yield List.of(lowerToScatter(s, sender, receiver));
                if (inSharded && !outSharded) {
                    yield sameMesh ? List.of(new Plan(CommunicationType.ALLGATHER, team, -1, null))
                            : rootedAtEachReceiver(CommunicationType.GATHER, sender, receiver, null);
                }
                yield lowerToBroadcastOrSendRecv(s, inSharded, sender, receiver);
            }
            case FusionOp.Reduction r when Resharding.isCommunicatingReduction(r) -> {
                if (!inSharded && sender.size() != 1) { // convertSingleOpToCommunication's check on reductions
                    throw new LoweringException(op, "sharding.reduce-input",
                            "a reducing communication needs its input sharded; insert a set before the reduction");
                }
                if (outSharded) {
                    if (!sameMesh) {
                        throw new LoweringException(op, "sharding.reduce-scatter-mesh",
                                "a ReduceScatter needs the same mesh on both sides; insert a set before or after"
                                        + " the reduction to move to another mesh");
                    }
                    // lowerToReduceScatter
                    yield List.of(new Plan(CommunicationType.REDUCE_SCATTER, team, -1, r.op()));
                }
                // lowerToAllreduce on one mesh, else lowerToReduce: one Reduce per receiving device
                yield sameMesh ? List.of(new Plan(CommunicationType.ALLREDUCE, team, -1, r.op()))
                        : rootedAtEachReceiver(CommunicationType.REDUCE, sender, receiver, r.op());
            }
            // no other op changes sharding, whatever its family
            case FusionOp _ -> throw new LoweringException(op, "sharding.not-lowerable",
                    "only a set or a single-axis reduction (sum, max, min, prod) over a sharded axis can change sharding; insert a set");
        };
    }

    /** "set T2 = T1" style name of an expression for diagnostics. */
    public static String subject(FusionOp op) {
        return op.opName() + " " + op.output().label() + " = " + op.opName() + "("
                + String.join(", ", op.inputs().stream().map(TensorView::label).toList()) + ")";
    }


    /**
     * lowerToScatter: the team is the receiving mesh; the root is the first device of the sending mesh that is
     * also a receiver, and there must be one.
     */
    private static Plan lowerToScatter(FusionOp op, DeviceMesh sender, DeviceMesh receiver) {
        int root = sender.deviceIds().stream().filter(receiver::contains).findFirst().orElseThrow(
                () -> new LoweringException(op, "sharding.scatter-root", "a Scatter from " + IrText.mesh(sender)
                        + " to " + IrText.mesh(receiver) + " needs a device in both meshes to be its root;"
                        + " the meshes share none"));
        return new Plan(CommunicationType.SCATTER, receiver.deviceIds(), root, null);
    }

    /**
     * lowerToBroadcastOrSendRecv: a sharded input goes slice by slice, sender at(i) to receiver at(i), as one
     * SendRecv each, whose team is the pair even when both are the same device; otherwise the first device of
     * the sending mesh broadcasts (lowerToBroadcast).
     */
    private static List<Plan> lowerToBroadcastOrSendRecv(FusionOp op, boolean inSharded, DeviceMesh sender,
                                                         DeviceMesh receiver) {
        if (!inSharded) {
            int root = sender.deviceIds().get(0);
            return List.of(new Plan(CommunicationType.BROADCAST, withRoot(receiver, root), root, null));
        }
        if (sender.size() != receiver.size()) {
            throw new LoweringException(op, "sharding.sendrecv-mesh", "moves a sharded axis between meshes of"
                    + " different sizes " + IrText.mesh(sender) + " and " + IrText.mesh(receiver)
                    + ": slice i goes from the i-th sender to the i-th receiver, so the sizes must agree");
        }
        List<Plan> pairs = new ArrayList<>();
        for (int i = 0; i < sender.size(); i++) {
            int from = sender.deviceIds().get(i);
            pairs.add(new Plan(CommunicationType.SEND_RECV, List.of(from, receiver.deviceIds().get(i)), from, null));
        }
        return pairs;
    }

    /**
     * lowerToGather and lowerToReduce: the root of a Gather or Reduce receives, so a replicated output gets one
     * per device of the receiving mesh, in its order, each with team = the sending mesh plus that root.
     */
    private static List<Plan> rootedAtEachReceiver(CommunicationType type, DeviceMesh senders, DeviceMesh receivers,
                                                   ReductionOpType reduction) {
        return receivers.deviceIds().stream()
                .map(root -> new Plan(type, withRoot(senders, root), root, reduction)).toList();
    }

    /** The mesh's devices in its order, then the root when the mesh lacks it (nvFuser appends, never sorts). */
    private static List<Integer> withRoot(DeviceMesh mesh, int root) {
        List<Integer> team = new ArrayList<>(mesh.deviceIds());
        if (!mesh.contains(root)) team.add(root);
        return team;
    }

    /**
     * getCommunicationInfoForParallelType on a LoadStoreOp sharded on both sides: the consumer's DID logical axis
     * is not the one the producer's maps to, so the sharding moves from one axis to another (AllToAll).
     */
    private static boolean movesShardedAxis(FusionOp.Set s, ParallelType type) {
        int p = ShardingChange.position(s.input(), type);
        int c = ShardingChange.position(s.output(), type);
        return p >= 0 && c >= 0 && AxisMap.of(s, 0)[p] != c;
    }

    /**
     * lowerToAllToAll: one mesh on both sides, the team is the mesh. nvFuser posts c10d's alltoall_base on the
     * flattened buffers and does not reorder axes for it (getCommunicationLayout), so the moved shardings must
     * already be outermost where it matters; the evaluator checks that on the runtime shapes.
     */
    private static Plan lowerToAllToAll(FusionOp.Set s) {
        DeviceMesh sender = s.input().mesh();
        DeviceMesh receiver = s.output().mesh();
        if (!sender.equals(receiver)) {
            throw new LoweringException(s, "sharding.alltoall-mesh", "moves the sharded axis from "
                    + IrText.mesh(sender) + " to " + IrText.mesh(receiver) + "; an AllToAll needs the same mesh on"
                    + " both sides (nvFuser's lowerToAllToAll): insert a set to change the mesh first");
        }
        if (s.isPermute()) {
            throw new LoweringException(s, "sharding.alltoall-permute", "moves the sharded axis and permutes the"
                    + " axes at once; nvFuser does not reorder for an AllToAll: permute in a separate set");
        }
        checkAllToAllLayout(s);
        return new Plan(CommunicationType.ALL_TO_ALL, sender.deviceIds(), -1, null);
    }

    /**
     * postAllToAll cuts the flat buffers into even chunks, so the axes in front of the consumer's sharded axis (in
     * the producer) and of the producer's (in the consumer) must hold one element per device. A plain axis there
     * (Serial, not broadcast, extent other than 1) never does: refused here, so {@code check} says it. A device
     * axis there holds one element unless it is sharded by a split of a larger extent, which the evaluator
     * checks on the runtime shapes.
     */
    private static void checkAllToAllLayout(FusionOp.Set s) {
        int p = Resharding.shardedPosition(s.input(), List.of());
        int q = Resharding.shardedPosition(s.output(), List.of());
        String in = firstPlainAxisBefore(s.input(), q);
        String out = firstPlainAxisBefore(s.output(), p);
        if (in == null && out == null) return;
        throw new LoweringException(s, "sharding.alltoall-layout", "moves the sharding from axis " + p + " to axis "
                + q + ", but " + (in != null ? in + " of " + Texts.quote(s.input().label()) : out + " of "
                + Texts.quote(s.output().label()))
                + " comes before it with more than one element per device; nvFuser's AllToAll splits the flat"
                + " buffers evenly and does not reorder: put the sharded axes outermost");
    }

    /** "axis i" of the first allocated axis before runtime position {@code upTo} that is plain and not size 1. */
    private static String firstPlainAxisBefore(TensorView tv, int upTo) {
        int pos = 0;
        for (int i = 0; i < tv.rank() && pos < upTo; i++) {
            IterDomain a = tv.axis(i);
            if (a.isReduction()) continue;
            boolean one = a.isBroadcast() || a.isDeviceDim() || a.extent().equals(Scalar.constant(1));
            if (!one) return "axis " + i;
            pos++;
        }
        return null;
    }
}
