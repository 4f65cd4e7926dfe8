package org.hostir.studio.exec.sim;

import java.util.List;

import org.hostir.studio.ir.host.CommunicationType;

/**
 * How long communications take, by NCCL's algorithms and the alpha-beta model of the link they cross
 * (docs/simulation.md, "Collectives"). {@code bytes} is the collective's full buffer: the gathered output of an
 * Allgather or Gather, the input of a ReduceScatter or Scatter, the buffer of the others. With n ranks, latency
 * a and bus bandwidth B:
 * <ul>
 * <li>ring Allgather, ReduceScatter: {@code (n-1) a + (n-1)/n bytes / B}</li>
 * <li>Allreduce: the faster of ring, {@code 2 (n-1) a + 2 (n-1)/n bytes / B}, and tree,
 * {@code 2 ceil(log2 n) a + 2 bytes / B} (NCCL's tuner picks per message size the same way)</li>
 * <li>pipelined ring Broadcast, Reduce: {@code (n-1) a + bytes / B}</li>
 * <li>Gather, Scatter (the root's sends or receives in one group): {@code a + (n-1)/n bytes / B}</li>
 * <li>SendRecv and point-to-point: {@code a + bytes / B}</li>
 * </ul>
 * A team of one rank is a local copy.
 */
final class CommunicationCost {
    private CommunicationCost() {}

    static double collectiveUs(HardwareProfile p, CommunicationType type, List<Integer> team, double bytes) {
        int n = team.size();
        if (n == 1) return ComputeCost.memoryUs(p.gemm(), 2 * bytes);
        HardwareProfile.Link l = p.linkFor(team);
        double a = l.alphaUs();
        double share = (n - 1.0) / n;
        return switch (type) {
            case ALLGATHER, REDUCE_SCATTER, ALL_TO_ALL -> (n - 1) * a + l.transferUs(share * bytes);
            case ALLREDUCE -> Math.min(2 * (n - 1) * a + l.transferUs(2 * share * bytes),
                    2 * Math.ceil(Math.log(n) / Math.log(2)) * a + l.transferUs(2 * bytes));
            case BROADCAST, REDUCE -> (n - 1) * a + l.transferUs(bytes);
            case GATHER, SCATTER -> a + l.transferUs(share * bytes);
            case SEND_RECV -> a + l.transferUs(bytes);
        };
    }

    /**
     * An Allreduce or ReduceScatter on the copy engines (Host IR's backend=cuda, CopyEngineCollectives): each rank
     * pulls its slice of every peer's buffer one after the other, {@code (n-1) (a + bytes/n / B)} over the copy
     * engines (the link between nodes), and adds each (reading two slices, writing one, at the GPU's memory speed);
     * an Allreduce then pulls the peers' reduced slices the same way. No SMs but the adds', so no NCCL slowdown.
     */
    static double copyEngineCollectiveUs(HardwareProfile p, CommunicationType type, List<Integer> team, double bytes) {
        int n = team.size();
        boolean oneNode = team.stream().allMatch(r -> p.node(r) == p.node(team.get(0)));
        HardwareProfile.Link l = oneNode ? p.copyEngine() : p.linkFor(team);
        double slice = bytes / n;
        double pulls = (n - 1) * (l.alphaUs() + l.transferUs(slice));
        double adds = (n - 1) * ComputeCost.memoryUs(p.gemm(), 3 * slice);
        // an Allreduce (whole result, no team order) pulls the reduced slices back; a ReduceScatter keeps its chunk
        return type.needsTeamOrder() ? pulls + adds : 2 * pulls + adds;
    }

    /** One point-to-point transfer between two ranks: NCCL over their link, or the copy engines within a node. */
    static double p2pUs(HardwareProfile p, int from, int to, double bytes, boolean copyEngine) {
        HardwareProfile.Link l = copyEngine && p.node(from) == p.node(to) ? p.copyEngine() : p.linkFor(List.of(from, to));
        return l.alphaUs() + l.transferUs(bytes);
    }
}
