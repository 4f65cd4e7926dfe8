package org.hostir.studio.exec.cuda;

import java.util.List;

import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.P2PCall;
import org.hostir.studio.ir.host.P2PCommunication;

/**
 * Host IR communications as NCCL calls on one rank: Allgather, Allreduce, ReduceScatter, Broadcast and Reduce map
 * to the NCCL collective of the team's communicator (comm rank = position in the team, which is the mesh order);
 * Gather, Scatter and SendRecv, which NCCL lacks, are grouped sends and receives of outermost-axis chunks, as in
 * {@code CollectiveSemantics}. A team of one copies locally. Buffers must be contiguous (the lowering slices
 * only the outermost axis).
 */
final class Collectives {
    private Collectives() {}

    static void post(CudaDevice d, CollectiveCall call, CudaBuffer in, CudaBuffer out, CudaStream s) {
        for (CudaBuffer b : new CudaBuffer[] {in, out}) {
            if (b != null && !b.contiguous()) throw new ExecutionException(call.type().dumpName() + " on rank "
                    + d.rank + ": a strided buffer " + b + " (NCCL needs contiguous memory)");
        }
        List<Integer> team = call.team();
        if (team.size() == 1) {
            if (in != null && out != null) d.ops.copy(out, in.numel() == out.numel() ? in : in, s);
            return;
        }
        Nccl nccl = d.backend.nccl();
        long comm = d.backend.communicator(team, d.rank);
        int type = Nccl.dataType((in != null ? in : out).dtype());
        int root = call.root() < 0 ? 0 : team.indexOf(call.root());
        switch (call.type()) {
            case ALLGATHER -> nccl.allGather(in.address(), out.address(), in.numel(), type, comm, s.handle());
            case ALLREDUCE -> nccl.allReduce(in.address(), out.address(), out.numel(), type,
                    Nccl.redOp(call.reduction()), comm, s.handle());
            case REDUCE_SCATTER -> nccl.reduceScatter(in.address(), out.address(), out.numel(), type,
                    Nccl.redOp(call.reduction()), comm, s.handle());
            case BROADCAST -> {
                long send = in != null && d.rank == call.root() ? in.address() : 0;
                CudaBuffer recv = out != null ? out : in;
                nccl.broadcast(send, recv.address(), recv.numel(), type, root, comm, s.handle());
            }
            case REDUCE -> nccl.reduce(in.address(), out != null ? out.address() : 0, in.numel(), type,
                    Nccl.redOp(call.reduction()), root, comm, s.handle());
            case GATHER -> {
                nccl.groupStart();
                try {
                    if (d.rank == call.root() && out != null) {
                        long chunk = out.bytes() / call.senders().size();
                        long count = out.numel() / call.senders().size();
                        for (int j = 0; j < call.senders().size(); j++) {
                            int src = call.senders().get(j);
                            long dst = out.address() + j * chunk;
                            if (src == d.rank) d.driver.copyDtoDAsync(dst, in.address(), chunk, s.handle());
                            else nccl.recv(dst, count, type, team.indexOf(src), comm, s.handle());
                        }
                    } else if (in != null) {
                        nccl.send(in.address(), in.numel(), type, root, comm, s.handle());
                    }
                } finally {
                    nccl.groupEnd();
                }
            }
            case SCATTER -> {
                nccl.groupStart();
                try {
                    if (d.rank == call.root() && in != null) {
                        long chunk = in.bytes() / call.receivers().size();
                        long count = in.numel() / call.receivers().size();
                        for (int j = 0; j < call.receivers().size(); j++) {
                            int dst = call.receivers().get(j);
                            long src = in.address() + j * chunk;
                            if (dst == d.rank) {
                                if (out != null) d.driver.copyDtoDAsync(out.address(), src, chunk, s.handle());
                            } else {
                                nccl.send(src, count, type, team.indexOf(dst), comm, s.handle());
                            }
                        }
                    } else if (out != null) {
                        nccl.recv(out.address(), out.numel(), type, root, comm, s.handle());
                    }
                } finally {
                    nccl.groupEnd();
                }
            }
            case SEND_RECV -> {
                nccl.groupStart();
                try {
                    if (d.rank == call.root()) {
                        for (int r : call.receivers()) {
                            if (r == d.rank) {
                                if (out != null) d.driver.copyDtoDAsync(out.address(), in.address(), in.bytes(), s.handle());
                            } else {
                                nccl.send(in.address(), in.numel(), type, team.indexOf(r), comm, s.handle());
                            }
                        }
                    } else if (out != null) {
                        nccl.recv(out.address(), out.numel(), type, root, comm, s.handle());
                    }
                } finally {
                    nccl.groupEnd();
                }
            }
        }
    }

    /** Sends and receives of one NCCL group on the world communicator (comm rank = device rank). */
    static void pointToPoint(CudaDevice d, List<P2PCall> calls, CudaStream s) {
        Nccl nccl = d.backend.nccl();
        long comm = d.backend.worldCommunicator(d.rank);
        nccl.groupStart();
        try {
            for (P2PCall c : calls) {
                CudaBuffer b = CudaBuffer.of(c.buffer());
                if (!b.contiguous()) throw new ExecutionException(c.type().dumpName() + " on rank " + d.rank
                        + ": a strided buffer " + b);
                int type = Nccl.dataType(b.dtype());
                if (c.type() == P2PCommunication.Type.SEND) nccl.send(b.address(), b.numel(), type, c.peer(), comm, s.handle());
                else nccl.recv(b.address(), b.numel(), type, c.peer(), comm, s.handle());
            }
        } finally {
            nccl.groupEnd();
        }
    }
}
