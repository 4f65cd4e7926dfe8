package org.hostir.studio.exec.cuda;

import java.util.List;

import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.P2PCall;
import org.hostir.studio.ir.host.P2PCommunication;

/**
 * Host IR communications as NCCL calls on one rank: Allgather, Allreduce, ReduceScatter, Broadcast and Reduce map
 * to the NCCL collective of the team's communicator (comm rank = position in the team, which is the mesh order);
 * Gather, Scatter and SendRecv, which NCCL lacks, are grouped sends and receives of outermost-axis chunks, as in
 * {@code CollectiveSemantics}. A team of one copies locally. NCCL reads flat memory: a strided view (a slice
 * of an inner axis in a Stream loop, a tensor whose allocation permutes its logical axes) is staged through a
 * contiguous copy in its logical order, the order the CPU backend's semantics use, and copied back after.
 */
final class Collectives {
    private Collectives() {}

    static void post(CudaDevice d, CollectiveCall call, CudaBuffer in, CudaBuffer out, CudaStream s) {
        List<Integer> team = call.team();
        if (team.size() == 1) {
            // a team of one: input and output hold the same elements (Ops.copy, strided or not, rejects a count
            // mismatch)
            if (in != null && out != null) d.ops.copy(out, in, s);
            return;
        }
        CudaBuffer flatIn = staged(d, in, s, true), flatOut = staged(d, out, s, false);
        boolean copyEngine = d.backend.copyEngine() != null && CopyEngineCollectives.handles(call);
        // on the device's stream of greatest priority, forked from s and joined back: inside a pipeline a
        // collective's kernels (NCCL's, or the copy-engine combine) then take SMs as the running GEMM's blocks
        // finish instead of queueing behind the next chunk's whole GEMM
        CudaStream on = d.backend.collectivePriority().covers(copyEngine) ? d.priorityStream() : s;
        if (on != s) d.join(on, s);
        if (copyEngine) {
            CopyEngineCollectives.post(d, call, flatIn, flatOut, on);
        } else {
            postFlat(d, call, flatIn, flatOut, on);
        }
        if (on != s) d.join(s, on);
        if (flatOut != out) d.ops.copy(out, flatOut, s);
        for (CudaBuffer staged : new CudaBuffer[] {flatIn != in ? flatIn : null, flatOut != out ? flatOut : null}) {
            if (staged != null) d.free(staged, s);   // in stream order: after the collective and the copy back
        }
    }

    /** {@code b} itself when contiguous (or absent), else a contiguous buffer of its shape, filled if an input. */
    private static CudaBuffer staged(CudaDevice d, CudaBuffer b, CudaStream s, boolean input) {
        if (b == null || b.contiguous()) return b;
        CudaBuffer flat = (CudaBuffer) d.allocate(b.shape(), b.dtype());
        if (input) d.ops.copy(flat, b, s);
        return flat;
    }

    private static void postFlat(CudaDevice d, CollectiveCall call, CudaBuffer in, CudaBuffer out, CudaStream s) {
        List<Integer> team = call.team();
        Nccl nccl = d.backend.nccl();
        long comm = d.backend.communicator(team, d.rank);
        int type = Nccl.dataType((in != null ? in : out).dtype());
        int root = call.root() < 0 ? 0 : team.indexOf(call.root());
        Posting p = new Posting(d, nccl, call, in, out, s, comm, type, root);
        // an exhaustive switch: a new communication type does not compile until it has its NCCL form here
        Poster poster = switch (call.type()) {
            case ALLGATHER -> Collectives::allGather;
            case ALLREDUCE -> Collectives::allReduce;
            case REDUCE_SCATTER -> Collectives::reduceScatter;
            case BROADCAST -> Collectives::broadcast;
            case REDUCE -> Collectives::reduce;
            case GATHER -> Collectives::gather;
            case SCATTER -> Collectives::scatter;
            case SEND_RECV -> Collectives::sendRecv;
            case ALL_TO_ALL -> Collectives::allToAll;
        };
        poster.post(p);
    }

    /** What one rank posts a collective with: comm ranks ({@code root}) are positions in the team. */
    private record Posting(CudaDevice d, Nccl nccl, CollectiveCall call, CudaBuffer in, CudaBuffer out,
                           CudaStream s, long comm, int type, int root) {
        long stream() { return s.handle(); }

        int redOp() { return Nccl.redOp(call.reduction()); }

        boolean isRoot() { return d.rank == call.root(); }

        int peer(int device) { return call.team().indexOf(device); }
    }

    @FunctionalInterface
    private interface Poster {
        void post(Posting p);
    }

    private static void allGather(Posting p) {
        p.nccl.allGather(p.in.address(), p.out.address(), p.in.numel(), p.type, p.comm, p.stream());
    }

    private static void allReduce(Posting p) {
        p.nccl.allReduce(p.in.address(), p.out.address(), p.out.numel(), p.type, p.redOp(), p.comm, p.stream());
    }

    private static void reduceScatter(Posting p) {
        p.nccl.reduceScatter(p.in.address(), p.out.address(), p.out.numel(), p.type, p.redOp(), p.comm, p.stream());
    }

    private static void broadcast(Posting p) {
        long send = p.in != null && p.isRoot() ? p.in.address() : 0;
        CudaBuffer recv = p.out != null ? p.out : p.in;
        p.nccl.broadcast(send, recv.address(), recv.numel(), p.type, p.root, p.comm, p.stream());
    }

    /**
     * nvFuser's postReduce: every team member contributes to ncclReduce, so a root outside the sending mesh (it
     * has no input) contributes the reduction's identity, written into its output and reduced there in place.
     */
    private static void reduce(Posting p) {
        CudaBuffer send = p.in;
        if (send == null) {
            p.d.ops.fillIdentity(p.out, p.call.reduction(), p.s);
            send = p.out;
        }
        p.nccl.reduce(send.address(), p.out != null ? p.out.address() : 0, send.numel(), p.type, p.redOp(), p.root,
                p.comm, p.stream());
    }

    /**
     * An even all-to-all as NCCL grouped sends and receives (NCCL has no all-to-all call): chunk j of the input
     * goes to team member j, chunk j of the output comes from it; this rank's own chunk is a device copy.
     */
    private static void allToAll(Posting p) {
        List<Integer> team = p.call.team();
        long chunk = p.in.bytes() / team.size();
        long count = p.in.numel() / team.size();
        p.nccl.groupStart();
        try {
            for (int j = 0; j < team.size(); j++) {
                long send = p.in.address() + j * chunk;
                long recv = p.out.address() + j * chunk;
                if (team.get(j) == p.d.rank) {
                    p.d.driver.copyDtoDAsync(recv, send, chunk, p.stream());
                } else {
                    p.nccl.send(send, count, p.type, j, p.comm, p.stream());
                    p.nccl.recv(recv, count, p.type, j, p.comm, p.stream());
                }
            }
        } finally {
            p.nccl.groupEnd();
        }
    }

    private static void gather(Posting p) {
        p.nccl.groupStart();
        try {
            if (p.isRoot() && p.out != null) {
                List<Integer> senders = p.call.senders();
                long chunk = p.out.bytes() / senders.size();
                long count = p.out.numel() / senders.size();
                for (int j = 0; j < senders.size(); j++) {
                    int src = senders.get(j);
                    long dst = p.out.address() + j * chunk;
                    if (src == p.d.rank) p.d.driver.copyDtoDAsync(dst, p.in.address(), chunk, p.stream());
                    else p.nccl.recv(dst, count, p.type, p.peer(src), p.comm, p.stream());
                }
            } else if (p.in != null) {
                p.nccl.send(p.in.address(), p.in.numel(), p.type, p.root, p.comm, p.stream());
            }
        } finally {
            p.nccl.groupEnd();
        }
    }

    private static void scatter(Posting p) {
        p.nccl.groupStart();
        try {
            if (p.isRoot() && p.in != null) {
                List<Integer> receivers = p.call.receivers();
                long chunk = p.in.bytes() / receivers.size();
                long count = p.in.numel() / receivers.size();
                for (int j = 0; j < receivers.size(); j++) {
                    int dst = receivers.get(j);
                    long src = p.in.address() + j * chunk;
                    if (dst == p.d.rank) {
                        if (p.out != null) p.d.driver.copyDtoDAsync(p.out.address(), src, chunk, p.stream());
                    } else {
                        p.nccl.send(src, count, p.type, p.peer(dst), p.comm, p.stream());
                    }
                }
            } else if (p.out != null) {
                p.nccl.recv(p.out.address(), p.out.numel(), p.type, p.root, p.comm, p.stream());
            }
        } finally {
            p.nccl.groupEnd();
        }
    }

    /** nvFuser's postSendRecv: the team is (sender receiver); the root sends to the other, who receives. */
    private static void sendRecv(Posting p) {
        List<Integer> team = p.call.team();
        int receiver = team.get(0) == p.call.root() ? team.get(team.size() - 1) : team.get(0);
        if (p.isRoot()) {
            if (receiver == p.d.rank) {
                if (p.out != null) p.d.driver.copyDtoDAsync(p.out.address(), p.in.address(), p.in.bytes(), p.stream());
            } else {
                p.nccl.send(p.in.address(), p.in.numel(), p.type, p.peer(receiver), p.comm, p.stream());
            }
        } else if (p.out != null) {
            p.nccl.recv(p.out.address(), p.out.numel(), p.type, p.root, p.comm, p.stream());
        }
    }

    /** Sends and receives of one NCCL group on the world communicator (comm rank = device rank). */
    static void pointToPoint(CudaDevice d, List<P2PCall> calls, CudaStream s) {
        Nccl nccl = d.backend.nccl();
        long comm = d.backend.worldCommunicator(d.rank);
        nccl.groupStart();
        try {
            for (P2PCall c : calls) {
                CudaBuffer b = d.contiguousOrFail(c);
                int type = Nccl.dataType(b.dtype());
                if (c.type() == P2PCommunication.Type.SEND) nccl.send(b.address(), b.numel(), type, c.peer(), comm, s.handle());
                else nccl.recv(b.address(), b.numel(), type, c.peer(), comm, s.handle());
            }
        } finally {
            nccl.groupEnd();
        }
    }
}
