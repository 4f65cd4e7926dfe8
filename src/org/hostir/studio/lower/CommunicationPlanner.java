package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.print.IrText;

/**
 * DESIGN 2.2's table: which collective a resharding expression becomes, with its team and root. A SendRecv
 * between two sharded meshes is one pair per slice; everything else is a single collective.
 */
public final class CommunicationPlanner {
    /** One collective to post: the devices taking part and the root where the type has one (else -1). */
    public record Plan(CommunicationType type, List<Integer> team, int root, ReductionOpType reduction) {
        public Plan {
            team = List.copyOf(team);
        }
    }

    private CommunicationPlanner() {}

    public static List<Plan> plan(FusionOp op) {
        TensorView in = op.inputs().get(0);
        TensorView out = op.output();
        DeviceMesh pm = in.mesh();
        DeviceMesh cm = out.mesh();
        boolean same = pm.equals(cm);
        boolean pSharded = in.allocationAxes().stream().anyMatch(a -> a.isDeviceDim());
        boolean cSharded = out.allocationAxes().stream().anyMatch(a -> a.isDeviceDim());
        return switch (op) {
            case FusionOp.Set s -> {
                if (!pSharded && !cSharded) {
                    yield List.of(new Plan(CommunicationType.BROADCAST, union(pm, cm, first(pm)), first(pm), null));
                }
                if (pSharded && !cSharded) {
                    yield same ? List.of(new Plan(CommunicationType.ALLGATHER, pm.deviceIds(), -1, null))
                            : perReceiver(CommunicationType.GATHER, pm, cm, null);
                }
                if (!pSharded) {
                    yield List.of(new Plan(CommunicationType.SCATTER, union(cm, cm, first(pm)), first(pm), null));
                }
                if (!sameShardedAxis(s)) {
                    throw new LoweringException(op, "sharding.two-changes",
                            "changes two shardings at once (an all-to-all), which has no collective here");
                }
                if (pm.size() != cm.size()) {
                    throw new LoweringException(op, "sharding.sendrecv-mesh",
                            "moves a sharded axis between meshes of different sizes " + IrText.mesh(pm) + " and "
                                    + IrText.mesh(cm));
                }
                List<Plan> pairs = new ArrayList<>();
                for (int i = 0; i < pm.size(); i++) {
                    int from = pm.deviceIds().get(i);
                    int to = cm.deviceIds().get(i);
                    pairs.add(new Plan(CommunicationType.SEND_RECV, from == to ? List.of(from) : List.of(from, to),
                            from, null));
                }
                yield pairs;
            }
            case FusionOp.Reduction r when Resharding.isCommunicatingReduction(r) -> {
                if (!cSharded) {
                    yield same ? List.of(new Plan(CommunicationType.ALLREDUCE, pm.deviceIds(), -1, r.op()))
                            : perReceiver(CommunicationType.REDUCE, pm, cm, r.op());
                }
                if (!same) {
                    throw new LoweringException(op, "sharding.reduce-scatter-mesh",
                            "a ReduceScatter needs the same mesh on both sides");
                }
                yield List.of(new Plan(CommunicationType.REDUCE_SCATTER, pm.deviceIds(), -1, r.op()));
            }
            case FusionOp.Reduction _, FusionOp.Binary _, FusionOp.Broadcast _, FusionOp.Matmul _,
                 FusionOp.Linear _ -> throw new LoweringException(op, "sharding.not-lowerable",
                    "only a set or a single-axis sum/max over a sharded axis can change sharding; insert a set");
        };
    }

    /** "set T2 = T1" style name of an expression for diagnostics. */
    public static String subject(FusionOp op) {
        return op.opName() + " " + op.output().label() + " = " + op.opName() + "("
                + String.join(", ", op.inputs().stream().map(TensorView::label).toList()) + ")";
    }

    private static boolean sameShardedAxis(FusionOp.Set s) {
        int[] map = AxisMap.of(s, 0);
        for (int p = 0; p < map.length; p++) {
            if (s.input().axis(p).isDeviceDim()) {
                return map[p] != AxisMap.NONE && s.output().axis(map[p]).isDeviceDim();
            }
        }
        return false;
    }

    private static int first(DeviceMesh m) { return m.deviceIds().get(0); }

    /**
     * A Gather or Reduce rooted at each device of the receiving mesh, in its order (nvFuser's lowerToGather and
     * lowerToReduce): every device of a replicated output needs the whole result, not only the first.
     */
    private static List<Plan> perReceiver(CommunicationType type, DeviceMesh senders, DeviceMesh receivers,
                                          ReductionOpType reduction) {
        return receivers.deviceIds().stream()
                .map(root -> new Plan(type, union(senders, senders, root), root, reduction)).toList();
    }

    private static List<Integer> union(DeviceMesh a, DeviceMesh b, int root) {
        TreeSet<Integer> team = new TreeSet<>(a.deviceIds());
        team.addAll(b.deviceIds());
        team.add(root);
        return List.copyOf(team);
    }
}
