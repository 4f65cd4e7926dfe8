package org.hostir.studio.exec.cuda;

import java.util.List;

import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.host.CommunicationType;

/**
 * Allreduce and ReduceScatter of a sum or product without NCCL, for communications with {@code backend=CUDA}
 * (project extension: nvFuser's CUDA backend posts Broadcast, Allgather and point-to-point only, and these two
 * went to NCCL here). The team's buffer is cut into one contiguous slice per rank, in team order as NCCL's
 * ReduceScatter does. Each rank pulls its slice of every peer's input with cuMemcpyPeerAsync (a copy engine, no
 * SMs) and combines them with one elementwise kernel per peer; an Allreduce then pulls every peer's reduced
 * slice. The point of it: inside a matmul pipeline the transfers take no SMs from the GEMM, which NCCL's kernels
 * do; the combining kernel is the only SM work.
 *
 * <p>The ranks meet on the host once per call, to learn each other's buffers ({@link CopyEngine#publish}); the
 * steps are then ordered on the GPUs alone, as nvFuser's IPC semaphores order its P2P transfers: a rank's stream
 * writes a flag word in each peer's flag block (cuStreamWriteValue32, after its earlier work) when its input is
 * ready, when its reduced slice is ready and when it has finished reading the peers' buffers, and waits on its
 * own block for the peers' words (cuStreamWaitValue32). The last step keeps every rank's later work from
 * overwriting a buffer a peer still reads. Words hold the call number + 1 in a ring of {@link #SLOTS} per step
 * and peer, so calls in flight on several streams at once never read each other's flags.
 */
final class CopyEngineCollectives {
    /** Calls whose flags stay apart: more than a stream loop can have in flight (numberOfStreams is at most 1024). */
    static final int SLOTS = 4096;
    private static final int READY = 0, REDUCED = 1, DONE = 2, STEPS = 3;

    private CopyEngineCollectives() {}

    /** The collectives and reductions this posts; others go to NCCL. */
    static boolean handles(CollectiveCall call) {
        boolean type = call.type() == CommunicationType.ALLREDUCE || call.type() == CommunicationType.REDUCE_SCATTER;
        return type && (call.reduction() == ReductionOpType.SUM || call.reduction() == ReductionOpType.PROD);
    }

    /** One call on one rank: its team position, call number and the peers' posts. */
    private record Call(CudaDevice d, CudaStream s, List<Integer> team, int me, long sequence, long flags,
                        CopyEngine.CollectivePost[] posts) {
        int value() { return (int) (sequence + 1); }

        /** The byte offset of the word peer {@code from} writes at {@code step} of this call in a flag block. */
        long word(int step, int from) {
            return 4L * (((long) step * team.size() + from) * SLOTS + sequence % SLOTS);
        }

        /** Tells every peer this rank reached {@code step}. */
        void signal(int step) {
            for (int q = 0; q < team.size(); q++) {
                if (q != me) d.driver.writeValue(s.handle(), posts[q].flags() + word(step, me), value());
            }
        }

        /** The stream waits until peer {@code q} reached {@code step}. */
        void await(int step, int q) { d.driver.waitValue(s.handle(), flags + word(step, q), value()); }
    }

    /** Posts {@code call} on {@code s}; {@code in} and {@code out} are contiguous. */
    static void post(CudaDevice d, CollectiveCall call, CudaBuffer in, CudaBuffer out, CudaStream s) {
        Call c = meet(d, call.team(), in, out, s);
        int size = c.team().size();
        long n = in.numel();
        CudaBuffer mine = slice(in, n, size, c.me());
        CudaBuffer target = call.type() == CommunicationType.ALLREDUCE ? slice(out, n, size, c.me()) : flat(out);
        if (target.numel() != mine.numel()) {
            throw new ExecutionException("a ReduceScatter of " + n + " elements over " + size + " ranks into "
                    + out.numel() + " on rank " + d.rank);
        }
        c.signal(READY);
        CudaBuffer stage = (CudaBuffer) d.allocate(mine.shape(), mine.dtype());
        CudaBuffer acc = mine; // the first combine reads the rank's own slice, later ones the partial result
        for (int q = 0; q < size; q++) {
            if (q == c.me()) continue;
            c.await(READY, q);
            pull(d, stage, c.posts()[q], c.posts()[q].in(), mine, s);
            d.ops.combine(call.reduction(), target, acc, stage, s);
            acc = target;
        }
        d.free(stage, s);
        if (call.type() == CommunicationType.ALLREDUCE) {
            c.signal(REDUCED);
            for (int q = 0; q < size; q++) {
                if (q == c.me()) continue;
                CudaBuffer theirs = slice(out, n, size, q);
                c.await(REDUCED, q);
                pull(d, theirs, c.posts()[q], c.posts()[q].out(), theirs, s);
            }
        }
        // no peer reads this rank's buffers once its stream passes here
        c.signal(DONE);
        for (int q = 0; q < size; q++) if (q != c.me()) c.await(DONE, q);
    }

    /** The host meet: this rank's post published, every peer's read. */
    private static Call meet(CudaDevice d, List<Integer> team, CudaBuffer in, CudaBuffer out, CudaStream s) {
        int size = team.size(), me = team.indexOf(d.rank);
        long sequence = d.nextCollective(team);
        long flags = d.collectiveFlags(team, (long) STEPS * size * SLOTS);
        CopyEngine ce = d.backend.copyEngine();
        ce.publish(new CopyEngine.Meet(team, sequence, me),
                new CopyEngine.CollectivePost(in.address(), out.address(), flags, d.context));
        CopyEngine.CollectivePost[] posts = new CopyEngine.CollectivePost[size];
        for (int q = 0; q < size; q++) {
            if (q != me) posts[q] = ce.read(new CopyEngine.Meet(team, sequence, q), size - 1, d.backend);
        }
        return new Call(d, s, team, me, sequence, flags, posts);
    }

    /** Copies into {@code dst} the peer's elements at {@code at}'s offset from its buffer starting at {@code base}. */
    private static void pull(CudaDevice d, CudaBuffer dst, CopyEngine.CollectivePost peer, long base, CudaBuffer at,
                             CudaStream s) {
        d.pullPeer(dst.address(), base + at.offset() * at.dtype().bytes(), peer.context(), dst.bytes(), s);
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
