package org.hostir.studio.exec.sim;

import java.util.List;

import org.hostir.studio.ir.host.CudaBackendSettings;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.MulticastProtocol;
import org.hostir.studio.ir.host.P2pTransport;

/**
 * How long communications take, by NCCL's algorithms and the alpha-beta model of the link they cross
 * (docs/simulation.md, "Collectives"). {@code bytes} is the collective's full buffer: the gathered output of an
 * Allgather or Gather, the input of a ReduceScatter or Scatter, the buffer of the others. With n ranks, latency
 * a (per step, plus the link's per-call latency once: {@link HardwareProfile.Link#latencyUs}) and bus
 * bandwidth B:
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
        double share = (n - 1.0) / n;
        return switch (type) {
            case ALLGATHER, REDUCE_SCATTER, ALL_TO_ALL -> l.latencyUs(n - 1) + l.transferUs(share * bytes);
            case ALLREDUCE -> Math.min(l.latencyUs(2 * (n - 1)) + l.transferUs(2 * share * bytes),
                    l.latencyUs(2 * Math.ceil(Math.log(n) / Math.log(2))) + l.transferUs(2 * bytes));
            case BROADCAST, REDUCE -> l.latencyUs(n - 1) + l.transferUs(bytes);
            case GATHER, SCATTER -> l.latencyUs(1) + l.transferUs(share * bytes);
            case SEND_RECV -> l.latencyUs(1) + l.transferUs(bytes);
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
        double pulls = (n - 1) * (l.latencyUs(1) + l.transferUs(slice));
        double adds = (n - 1) * ComputeCost.memoryUs(p.gemm(), 3 * slice);
        // an Allreduce (whole result, no team order) pulls the reduced slices back; a ReduceScatter keeps its chunk
        return type.needsTeamOrder() ? pulls + adds : 2 * pulls + adds;
    }

    /**
     * One point-to-point transfer between two ranks: within a node NCCL's send/recv link or the copy engines, across
     * nodes the network.
     */
    static double p2pUs(HardwareProfile p, int from, int to, double bytes, boolean copyEngine) {
        boolean oneNode = p.node(from) == p.node(to);
        HardwareProfile.Link l = !oneNode ? p.acrossNodes() : copyEngine ? p.copyEngine() : p.ncclP2p();
        return l.latencyUs(1) + l.transferUs(bytes);
    }

    /**
     * A {@code backend=cuda} send/recv by its transport (nvFuser's p2p_transport). The copy engine: the copy-engine
     * link. TMA (#6012): a kernel launch, then a bulk copy staged through shared memory at the rate of the NVLink
     * between the two (the network across nodes). Get and Put cost the same here: each is one "ready" and one "done"
     * semaphore write around the copy (cuda_p2p.cpp:1217-1320 at 81c4b22fd), and nvFuser has published no figure
     * that tells them apart; they differ in which side's stream carries the copy.
     */
    static double cudaP2pUs(HardwareProfile p, int from, int to, double bytes, P2pTransport transport) {
        return switch (transport) {
            case COPY_ENGINE -> p2pUs(p, from, to, bytes, true);
            case TMA -> {
                HardwareProfile.Link nv = p.linkFor(List.of(from, to));
                yield p.gemm().launchUs() + nv.latencyUs(1) + nv.transferUs(bytes);
            }
        };
    }

    /**
     * Whether nvFuser's CUDA backend runs a collective of {@code type} over NVLink multicast under {@code cuda}:
     * Broadcast and Allgather under the memcpy and multimem protocols, Allreduce and Reduce under multimem
     * (cuda_p2p.cpp:555-620, 714-784, 828-1045). Under batch_memcpy they run as this project's CUDA backend runs them.
     */
    static boolean onMulticast(CudaBackendSettings cuda, CommunicationType type) {
        if (!cuda.cuda()) return false;
        return switch (type) {
            case BROADCAST, ALLGATHER -> cuda.multicast().needsMulticast();
            case ALLREDUCE, REDUCE -> cuda.multicast() == MulticastProtocol.MULTIMEM;
            case GATHER, SCATTER, REDUCE_SCATTER, ALL_TO_ALL, SEND_RECV -> false;
        };
    }

    /** memcpy moves on the copy engines (no SMs); multimem is a kernel, whose SMs overlapping kernels share. */
    static SimOp.Role multicastRole(MulticastProtocol protocol) {
        return switch (protocol) {
            case BATCH_MEMCPY, MEMCPY -> SimOp.Role.COPY_ENGINE;
            case MULTIMEM -> SimOp.Role.NCCL;
        };
    }

    /**
     * A collective through NVLink multicast (NVLS; docs/simulation.md). Each side first signals "ready" and last
     * "done" through semaphores ({@code 2 a} on the team's link). The NVLink switch copies a multicast store to
     * every GPU, so each GPU's inbound link carries the message once: {@code bytes} for a Broadcast,
     * {@code (n-1)/n bytes} for an Allgather (its own slice is local). memcpy drives it with the copy engine (the
     * copy-engine link's rate), multimem with a kernel of {@code multimem.st} (a launch, then NVLink's rate).
     * The NVLS Allreduce and Reduce (multimem, #6038) copy the input into the symmetric buffer
     * (memory speed), then {@code multimem.ld_reduce} reads the sum, reduced in the switch, over each reader's
     * link: {@code bytes} per reader, every rank reading for an Allreduce, the root for a Reduce.
     */
    static double multicastUs(HardwareProfile p, MulticastProtocol protocol, CommunicationType type,
                              List<Integer> team, double bytes) {
        int n = team.size();
        HardwareProfile.Link nv = p.linkFor(team);
        double handshake = nv.latencyUs(2);
        if (type == CommunicationType.ALLREDUCE || type == CommunicationType.REDUCE) {
            return ComputeCost.memoryUs(p.gemm(), 2 * bytes) + handshake + p.gemm().launchUs() + nv.transferUs(bytes);
        }
        double inbound = type == CommunicationType.ALLGATHER ? (n - 1.0) / n * bytes : bytes;
        return handshake + switch (protocol) {
            case MEMCPY -> p.copyEngine().transferUs(inbound);
            case MULTIMEM -> p.gemm().launchUs() + nv.transferUs(inbound);
            case BATCH_MEMCPY -> throw new IllegalStateException("batch_memcpy is not timed as multicast"
                    + " (onMulticast)");
        };
    }
}
