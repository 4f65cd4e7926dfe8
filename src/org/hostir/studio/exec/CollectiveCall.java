package org.hostir.studio.exec;

import java.util.List;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.host.CommunicationType;

/**
 * One rank's part of a collective. {@code senders} and {@code receivers} are the input and output meshes in
 * order: chunk {@code j} of a scattered or gathered buffer belongs to {@code receivers[j]} or comes from
 * {@code senders[j]}; buffers are split along their outermost axis (lowering puts the sharded axis there).
 * {@code input} or {@code output} is null where this rank has none (a non-root of Gather has no output).
 */
public record CollectiveCall(CommunicationType type, List<Integer> team, int root, List<Integer> senders,
                             List<Integer> receivers, Buffer input, Buffer output, ReductionOpType reduction) {
    public CollectiveCall {
        team = DeviceMesh.ids(team);
        senders = List.copyOf(senders);
        receivers = List.copyOf(receivers);
    }

    /**
     * Whether a backend with copy-engine transfers ({@code backend=cuda}) posts this on the copy engines rather than
     * NCCL: an Allreduce or ReduceScatter of a sum or product among several ranks (a project extension; the CUDA
     * backend's CopyEngineCollectives, and the simulator's cost of it).
     */
    public boolean onCopyEngines() {
        return team.size() > 1 && type.reducesToEveryMember()
                && (reduction == ReductionOpType.SUM || reduction == ReductionOpType.PROD);
    }
}
