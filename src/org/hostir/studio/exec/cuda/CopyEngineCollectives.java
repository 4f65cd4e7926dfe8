package org.hostir.studio.exec.cuda;

import java.util.List;

import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.ExecutionException;

/**
 * Allreduce and ReduceScatter of a sum or product without NCCL, for communications with {@code backend=CUDA} (project
 * extension: nvFuser's CUDA backend, postWithCudaBackend in csrc/multidevice/cuda_p2p.cpp, posts Broadcast and
 * Allgather, an Allreduce or Reduce only as an fp32 sum through NVLink SHARP multicast (multimem ld_reduce, which the
 * shared machines here keep off), and refuses ReduceScatter; here these two went to NCCL). The team's buffer is cut into one contiguous slice per
 * rank, in team order as NCCL's ReduceScatter does. Each rank pulls its slice of every peer's input with
 * cuMemcpyPeerAsync (a copy engine, no SMs) and combines them with one elementwise kernel per peer; an Allreduce then
 * pulls every peer's reduced slice. Ranks meet on the host ({@link CopyEngine#publish}) and order their streams on
 * each other's events, and a last step makes each stream wait until every peer has finished reading its buffers, so
 * that later work may overwrite them. The point of it: inside a matmul pipeline the transfers take no SMs from the
 * GEMM, which NCCL's kernels do; the combining kernel is the only SM work.
 */
final class CopyEngineCollectives {
    private CopyEngineCollectives() {}

    /** The collectives and reductions this posts ({@link CollectiveCall#onCopyEngines}); others go to NCCL. */
    static boolean handles(CollectiveCall call) { return call.onCopyEngines(); }

    /** Posts {@code call} on {@code s}; {@code in} and {@code out} are contiguous. */
    static void post(CudaDevice d, CollectiveCall call, CudaBuffer in, CudaBuffer out, CudaStream s) {
        List<Integer> team = call.team();
        int size = team.size(), me = team.indexOf(d.rank);
        long sequence = d.nextCollective(team);
        CopyEngine ce = d.backend.copyEngine();
        publish(d, ce, new CopyEngine.Meet(team, sequence, 0, me), in, s);
        CudaBuffer mine = slice(in, size, me);
        // an Allreduce delivers the whole result, a ReduceScatter each member's chunk in team order
        boolean allreduce = !call.type().needsTeamOrder();
        CudaBuffer target = allreduce ? slice(out, size, me) : out.reshape(new long[] {out.numel()});
        if (target.numel() != mine.numel()) {
            throw new ExecutionException("a ReduceScatter of " + in.numel() + " elements over " + size
                    + " ranks into " + out.numel() + " on rank " + d.rank);
        }
        CudaBuffer stage = (CudaBuffer) d.allocate(mine.shape(), mine.dtype());
        CudaBuffer acc = mine; // the first combine reads the rank's own slice, later ones the partial result
        for (int q = 0; q < size; q++) {
            if (q == me) continue;
            pull(d, ce.read(new CopyEngine.Meet(team, sequence, 0, q), size - 1, d.backend), stage,
                    mine.address() - in.address(), s);
            d.ops.combine(call.reduction(), target, acc, stage, s);
            acc = target;
        }
        d.free(stage, s);
        if (allreduce) {
            publish(d, ce, new CopyEngine.Meet(team, sequence, 1, me), out, s);
            for (int q = 0; q < size; q++) {
                if (q == me) continue;
                CudaBuffer theirs = slice(out, size, q);
                pull(d, ce.read(new CopyEngine.Meet(team, sequence, 1, q), size - 1, d.backend), theirs,
                        theirs.address() - out.address(), s);
            }
        }
        // no peer reads this rank's buffers once its stream passes here
        publish(d, ce, new CopyEngine.Meet(team, sequence, 2, me), null, s);
        for (int q = 0; q < size; q++) {
            if (q != me) {
                d.driver.waitEvent(s.handle(), ce.read(new CopyEngine.Meet(team, sequence, 2, q), size - 1,
                        d.backend).readyEvent());
            }
        }
    }

    /** Records an event on {@code s} and publishes it with the buffer's address (peers add their offsets). */
    private static void publish(CudaDevice d, CopyEngine ce, CopyEngine.Meet m, CudaBuffer b, CudaStream s) {
        long ready = d.recordEvent(s.handle());
        ce.publish(m, new CopyEngine.Posted(b == null ? 0 : b.address(), d.context, ready, b == null ? 0 : b.bytes()));
    }

    /** After the peer's published step, copies its bytes {@code byteOffset} into its buffer into {@code into}. */
    private static void pull(CudaDevice d, CopyEngine.Posted peer, CudaBuffer into, long byteOffset, CudaStream s) {
        d.driver.waitEvent(s.handle(), peer.readyEvent());
        d.peers.pull(into.address(), peer.address() + byteOffset, peer.context(), into.bytes(), s);
    }

    /** Slice {@code j} of {@code size} of the contiguous buffer {@code b}, flattened (slices differ by one at most). */
    private static CudaBuffer slice(CudaBuffer b, int size, int j) {
        long n = b.numel(), lo = n * j / size, hi = n * (j + 1) / size;
        return b.reshape(new long[] {n}).narrow(0, lo, hi - lo);
    }
}
