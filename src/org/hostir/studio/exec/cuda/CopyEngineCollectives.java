package org.hostir.studio.exec.cuda;

import java.util.List;

import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.ir.host.CommunicationType;

/**
 * Allreduce and ReduceScatter of a sum or product without NCCL, for communications with {@code backend=CUDA}
 * (project extension: nvFuser's CUDA backend posts Broadcast, Allgather and point-to-point only, and these two
 * went to NCCL here). The team's buffer is cut into one contiguous slice per rank, in team order as NCCL's
 * ReduceScatter does. Each rank pulls its slice of every peer's input with cuMemcpyPeerAsync (a copy engine, no
 * SMs) and combines them with one elementwise kernel per peer; an Allreduce then pulls every peer's reduced
 * slice. Ranks meet on the host ({@link CopyEngine#publish}) and order their streams on each other's events,
 * and a last step makes each stream wait until every peer has finished reading its buffers, so that later work
 * may overwrite them. The point of it: inside a matmul pipeline the transfers take no SMs from the GEMM, which
 * NCCL's kernels do; the combining kernel is the only SM work.
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
        long n = in.numel();
        publish(d, ce, new CopyEngine.Meet(team, sequence, 0, me), in, s);
        CudaBuffer mine = slice(in, n, size, me);
        CudaBuffer target = call.type() == CommunicationType.ALLREDUCE ? slice(out, n, size, me) : flat(out);
        if (target.numel() != mine.numel()) {
            throw new ExecutionException("a ReduceScatter of " + n + " elements over " + size + " ranks into "
                    + out.numel() + " on rank " + d.rank);
        }
        CudaBuffer stage = (CudaBuffer) d.allocate(mine.shape(), mine.dtype());
        CudaBuffer acc = mine; // the first combine reads the rank's own slice, later ones the partial result
        for (int q = 0; q < size; q++) {
            if (q == me) continue;
            CopyEngine.Posted p = ce.read(new CopyEngine.Meet(team, sequence, 0, q), size - 1, d.backend);
            d.driver.waitEvent(s.handle(), p.readyEvent());
            d.pullPeer(stage.address(), p.address() + mine.offset() * mine.dtype().bytes(), p.context(),
                    stage.bytes(), s);
            d.ops.combine(call.reduction(), target, acc, stage, s);
            acc = target;
        }
        d.free(stage, s);
        if (call.type() == CommunicationType.ALLREDUCE) {
            publish(d, ce, new CopyEngine.Meet(team, sequence, 1, me), out, s);
            for (int q = 0; q < size; q++) {
                if (q == me) continue;
                CopyEngine.Posted p = ce.read(new CopyEngine.Meet(team, sequence, 1, q), size - 1, d.backend);
                CudaBuffer theirs = slice(out, n, size, q);
                d.driver.waitEvent(s.handle(), p.readyEvent());
                d.pullPeer(theirs.address(), p.address() + theirs.offset() * theirs.dtype().bytes(), p.context(),
                        theirs.bytes(), s);
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

    /** Records an event on {@code s} and publishes it with the buffer's base address (offsets are relative). */
    private static void publish(CudaDevice d, CopyEngine ce, CopyEngine.Meet m, CudaBuffer b, CudaStream s) {
        long ready = d.timing.event();
        d.driver.record(ready, s.handle());
        ce.publish(m, new CopyEngine.Posted(b == null ? 0 : b.address(), d.context, ready, b == null ? 0 : b.bytes()));
    }

    /** Slice {@code j} of {@code size} of the flat buffer {@code b} of {@code n} elements; offsets from b's start. */
    private static CudaBuffer slice(CudaBuffer b, long n, int size, int j) {
        long lo = n * j / size, hi = n * (j + 1) / size;
        return new CudaBuffer(b.device(), b.address(), lo, new long[] {hi - lo}, new long[] {1}, b.dtype(), null);
    }

    private static CudaBuffer flat(CudaBuffer b) {
        return new CudaBuffer(b.device(), b.address(), 0, new long[] {b.numel()}, new long[] {1}, b.dtype(), null);
    }
}
