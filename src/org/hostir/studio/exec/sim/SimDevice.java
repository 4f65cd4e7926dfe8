package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.BackendEvent;
import org.hostir.studio.exec.BackendStream;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.ModelledRouting;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.P2PCall;
import org.hostir.studio.exec.Work;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;

/**
 * One simulated GPU: what the evaluator enqueues becomes {@link SimOp}s in stream order, issued at the simulated
 * host clock, which each dispatched Host IR node advances by the profile's cost for its kind. Collectives and
 * transfers take their matching sequence numbers when posted, as on the CPU backend and in NCCL. Buffers are shapes;
 * memory is counted so the run reports each rank's predicted peak.
 */
final class SimDevice implements Device, ModelledRouting {
    private final SimBackend backend;
    private final int rank;
    private final List<SimStream> streams = new ArrayList<>();
    private final List<SimOp> issuing = new ArrayList<>();
    private final Map<List<Integer>, Long> collectiveSequence = new HashMap<>();
    /**
     * Sends to and receives from each peer so far, by peer: arrays made on the first transfer (a rank of an all-pairs
     * schedule talks to every other, and boxed map entries cost about ten times as much per pair).
     */
    private PeerCounts sendSequence;
    private PeerCounts recvSequence;
    /** The posting nodes of the last coalesced group, shared by the next where equal ({@link #postingNodes}). */
    private int[] lastNodes;
    /**
     * Dispatch cost by node id (NaN: not asked yet): a node's kind never changes; an array, as every dispatched node
     * asks (a boxed map lookup per node was measurable at a million exchanges).
     */
    private double[] dispatchUs = new double[0];
    private final Map<Integer, Double> negativeIds = new HashMap<>();
    private final boolean traced;
    /** Under a {@link Symmetry}: a representative's ops, kept for the ranks it stands for; else null. */
    private List<SimOp> kept;
    /** Under a {@link Symmetry}: the check of a rank that is not simulated against its representative; else null. */
    private Symmetry.Mirror mirror;
    private RankLockstep lockstep;
    /** The most worker streams the rank's program can create ({@link StreamBound}); -1: unknown. */
    private int streamBound = -1;
    private int count;
    /**
     * The rank's last NCCL op: NCCL runs a communicator's kernels one after the other in launch order, whatever
     * their streams (NVIDIA/nccl src/enqueue.cc, ncclLaunchPrepare: the launch stream waits on the communicator's
     * deviceStream, which then waits on the launch), so each NCCL op also follows the previous one.
     */
    private SimOp lastNccl;
    private double hostUs;
    private boolean synchronizedOnce;
    private long live;
    private long peak;

    SimDevice(SimBackend backend, int rank) {
        this.backend = backend;
        this.rank = rank;
        this.traced = backend.traced(rank);
        streams.add(new SimStream(0));
    }

    @Override
    public int rank() { return rank; }

    /** This rank stands for others: its ops are kept, with what each follows, for their {@link Symmetry.Mirror}s. */
    void keepOps() { kept = new ArrayList<>(); }

    List<SimOp> keptOps() { return kept; }

    /** This rank is not simulated: its work is only checked against its representative's, shifted. */
    void mirror(Symmetry.Mirror check) { mirror = check; }

    /** A mirrored rank's program has ended: it must have issued all of its representative's work. */
    void mirrorDone(double referenceHostUs) { mirror.finish(count, hostUs, referenceHostUs); }

    @Override
    public BackendStream userStream() { return streams.get(0); }

    @Override
    public BackendStream stream(int index) {
        while (streams.size() <= index) streams.add(new SimStream(streams.size()));
        return streams.get(index);
    }

    @Override
    public Buffer allocate(long[] shape, DataType dtype) {
        SimBuffer b = new SimBuffer(shape, dtype, false);
        live += b.bytes();
        peak = Math.max(peak, live);
        return b;
    }

    @Override
    public void free(Buffer buffer, BackendStream stream) {
        if (buffer instanceof SimBuffer b && !b.view()) live -= b.bytes();
    }

    @Override
    public Buffer select(Buffer buffer, int axis, long index) {
        long[] s = ((SimBuffer) buffer).dims();
        long[] out = new long[s.length - 1];
        for (int i = 0, j = 0; i < s.length; i++) if (i != axis) out[j++] = s[i];
        return new SimBuffer(out, buffer.dtype(), true);
    }

    @Override
    public Buffer narrow(Buffer buffer, int axis, long start, long length) {
        long[] s = ((SimBuffer) buffer).dims().clone();
        s[axis] = length;
        return new SimBuffer(s, buffer.dtype(), true);
    }

    @Override
    public Buffer permute(Buffer buffer, int[] perm) {
        long[] s = ((SimBuffer) buffer).dims();
        long[] out = new long[perm.length];
        for (int i = 0; i < perm.length; i++) out[i] = s[perm[i]];
        return new SimBuffer(out, buffer.dtype(), true);
    }

    @Override
    public void copy(Buffer dst, Buffer src, BackendStream stream, OpInfo info) {
        if (dst.numel() != src.numel()) throw new ExecutionException("copy of " + Arrays.toString(src.shape())
                + " into " + Arrays.toString(dst.shape()) + " on rank " + rank);
        enqueue(stream, new SimOp(rank, index(stream), info.withBytes(dst.bytes()), SimOp.Role.KERNEL,
                ComputeCost.memoryUs(backend.profile().gemm(), 2.0 * dst.bytes())));
    }

    @Override
    public void compute(FusionOp op, List<Buffer> inputs, Buffer output, BackendStream stream, OpInfo info) {
        HardwareProfile.Gemm g = backend.profile().gemm();
        SimMoe.Cost cost = backend.moe().groupedMm(g, op, inputs, output, rank, info.nodeId()).orElseGet(() ->
                new SimMoe.Cost(ComputeCost.opUs(g, op, inputs, output), ComputeCost.flops(op, inputs, output)));
        OpInfo sized = info.withFlops(cost.flops()).withBytes(output.bytes());
        enqueue(stream, new SimOp(rank, index(stream), sized, SimOp.Role.KERNEL, cost.us()));
    }

    /** The routing model's counts ({@link SimMoe}); this rank's own batch counts its drops. */
    @Override
    public long[] tokensPerExpert(int sender, long tokens, int experts, int nodeId) {
        return backend.moe().tokensPerExpert(tokens, experts, sender == rank, rank, nodeId);
    }

    @Override
    public void remember(Buffer tokensToRank, Exchanged exchanged) { backend.moe().remember(tokensToRank, exchanged); }

    @Override
    public Exchanged recall(Buffer tokensToRank) { return backend.moe().recall(tokensToRank); }

    @Override
    public BackendEvent record(BackendStream stream) {
        SimStream s = (SimStream) stream;
        joinWaits(s);
        return s.last == null ? NoWork.INSTANCE : s.last;
    }

    @Override
    public void waitEvent(BackendStream stream, BackendEvent event) { await((SimStream) stream, event); }

    @Override
    public void waitWork(BackendStream stream, Work work) { await((SimStream) stream, work); }

    private void await(SimStream s, Object event) {
        if (!(event instanceof SimOp op) || op == s.last) return; // NoWork: nothing to wait for
        for (int i = 0; i < s.waits.size(); i++) {
            SimOp w = s.waits.get(i);
            if (w.stream != op.stream) continue;
            // one wait per stream waited on: a later op of a stream ends no earlier and is released after an earlier
            // one (it starts only then), so the earlier wait changes no time; a stream that synchronises with
            // another in every iteration (the all-pairs loop's host stream) kept all D of its ops alive
            if (w.seq < op.seq) s.waits.set(i, op);
            return;
        }
        s.waits.add(op);
    }

    /** A stream with pending waits gets a join op, so that an event recorded now includes them (as in CUDA). */
    private void joinWaits(SimStream s) {
        if (s.waits.isEmpty()) return;
        enqueue(s, new SimOp(rank, s.index(), OpInfo.of(-1, -1, "wait", EventKind.KERNEL), SimOp.Role.JOIN, 0));
    }

    @Override
    public Work collective(CollectiveCall call, BackendStream stream, OpInfo info) {
        long sequence = collectiveSequence.merge(call.team(), 1L, Long::sum) - 1;
        long bytes = Math.max(call.input() == null ? 0 : call.input().bytes(),
                call.output() == null ? 0 : call.output().bytes());
        SimOp.Role role = call.team().size() == 1 ? SimOp.Role.KERNEL
                : CommunicationCost.onMulticast(backend.cuda(), call.type())
                ? CommunicationCost.multicastRole(backend.cuda().multicast())
                : backend.copyEngine() && call.onCopyEngines() ? SimOp.Role.COPY_ENGINE : SimOp.Role.NCCL;
        SimOp op = new SimOp(rank, index(stream), info.withBytes(bytes), role, 0);
        CollectiveMatch.Part part = new CollectiveMatch.Part(op, call.type(), call.root(), bytes);
        if (mirror == null) {
            op.collective(backend.collective(call.team(), sequence));
            op.collective().parts.put(rank, part);
        }
        enqueue(stream, op);
        if (mirror != null) mirror.collective(op, call.team(), part);
        return op;
    }

    @Override
    public Work pointToPoint(List<P2PCall> calls, BackendStream stream, OpInfo info) {
        SimOp op = new SimOp(rank, index(stream), info,
                backend.copyEngine() ? SimOp.Role.COPY_ENGINE : SimOp.Role.NCCL, 0);
        op.nodes = postingNodes(calls, info.nodeId());
        if (mirror != null) return mirroredPointToPoint(calls, stream, op);
        op.transfers = new Transfer[calls.size()];
        boolean[] sending = new boolean[calls.size()];
        for (int i = 0; i < calls.size(); i++) {
            P2PCall c = calls.get(i);
            boolean send = c.type() == P2PCommunication.Type.SEND;
            sending[i] = send;
            Transfer t = send ? backend.transfer(rank, c.peer(), nextSequence(true, c.peer()))
                    : backend.transfer(c.peer(), rank, nextSequence(false, c.peer()));
            if (send) {
                t.send = op;
                t.sendBytes = c.buffer().bytes();
            } else {
                t.recv = op;
                t.recvBytes = c.buffer().bytes();
            }
            op.transfers[i] = t;
        }
        if (bothSidesHere(op)) op.sending(sending); // else read from the transfers: 24 bytes an exchange fewer
        enqueue(stream, op);
        return op;
    }

    /**
     * The node each call's bar names, or null where all are {@code opNode} (no array for a lone send or recv); the
     * previous group's array where equal (a loop's groups post from the same nodes: one array, not one an exchange).
     */
    private int[] postingNodes(List<P2PCall> calls, int opNode) {
        int[] nodes = null;
        for (int i = 0; i < calls.size(); i++) {
            int node = calls.get(i).node(opNode);
            if (node != opNode && nodes == null) {
                nodes = new int[calls.size()];
                Arrays.fill(nodes, opNode);
            }
            if (nodes != null) nodes[i] = node;
        }
        if (nodes == null || Arrays.equals(nodes, lastNodes)) return nodes == null ? null : lastNodes;
        lastNodes = nodes;
        return nodes;
    }

    /** Whether {@code op} is both sides of one of its transfers (then which side each entry is must be kept). */
    private static boolean bothSidesHere(SimOp op) {
        for (Transfer x : op.transfers) if (x.send == op && x.recv == op) return true;
        return false;
    }

    private Work mirroredPointToPoint(List<P2PCall> calls, BackendStream stream, SimOp op) {
        enqueue(stream, op);
        for (int i = 0; i < calls.size(); i++) {
            P2PCall c = calls.get(i);
            boolean send = c.type() == P2PCommunication.Type.SEND;
            long sequence = nextSequence(send, c.peer());
            mirror.transfer(op, i, send, c.peer(), sequence, c.buffer().bytes());
        }
        return op;
    }

    /**
     * The sequence number of this rank's next send to (or receive from) {@code peer}; a peer outside the run is
     * numbered 0 and refused by {@link SimBackend#transfer} (or the mirror's check) with its own message.
     */
    private long nextSequence(boolean send, int peer) {
        int ranks = backend.deviceCount();
        if (peer < 0 || peer >= ranks) return 0;
        if (sendSequence == null) {
            sendSequence = new PeerCounts(ranks);
            recvSequence = new PeerCounts(ranks);
        }
        return (send ? sendSequence : recvSequence).next(peer);
    }

    @Override
    public void synchronize() {
        issue(hostUs);
        synchronizedOnce = true;
    }

    @Override
    public Buffer upload(DenseTensor host) { return allocate(host.shape(), host.dtype()); }

    @Override
    public DenseTensor download(Buffer buffer) {
        throw new ExecutionException("the sim backend holds no tensor data (validate with --backend cpu)");
    }

    /** Advances the host clock by the profile's cost of the node; the work the node enqueued is issued at its end. */
    @Override
    public void recordHost(OpInfo info, long startNanoTime, long endNanoTime) {
        double start = hostUs;
        hostUs += dispatchUs(info);
        issue(hostUs);
        if (traced) {
            backend.record(new TimelineEvent(rank, TimelineEvent.HOST_STREAM, EventKind.HOST, info.name(),
                    info.nodeId(), info.iteration(), SimBackend.ns(start), SimBackend.ns(hostUs), info.bytes(), 0, -1, 0));
        }
        if (lockstep != null) lockstep.reached(rank, hostUs); // all issued: every later op of this rank comes after
    }

    private double dispatchUs(OpInfo info) {
        int id = info.nodeId();
        if (id < 0) return negativeIds.computeIfAbsent(id, k -> dispatchCost(info)); // as keyed before: by id
        if (id >= dispatchUs.length) {
            int old = dispatchUs.length;
            dispatchUs = Arrays.copyOf(dispatchUs, Math.max(id + 1, 2 * old));
            Arrays.fill(dispatchUs, old, dispatchUs.length, Double.NaN);
        }
        if (Double.isNaN(dispatchUs[id])) dispatchUs[id] = dispatchCost(info);
        return dispatchUs[id];
    }

    private double dispatchCost(OpInfo info) {
        return backend.profile().dispatch().us(info.name().startsWith("dispatch ")
                ? info.name().substring("dispatch ".length()) : info.name());
    }

    /** {@link StreamBound} of the rank's program. */
    void streamBound(int bound) { streamBound = bound; }

    /**
     * Whether every op this rank can still enqueue will wait for one of its own ops not yet released: its program
     * can create no stream it has not (its {@link StreamBound}), and every stream has an unreleased last op or
     * wait, which any op enqueued on it follows ({@link #enqueue}; a join too). Then none of them can start before
     * the first of this rank's ops is released, whenever the host issues them ({@link RankLockstep}).
     */
    boolean blocked() {
        if (streamBound < 0 || streams.size() - 1 < streamBound || synchronizedOnce) return false;
        for (SimStream s : streams) {
            boolean held = s.last != null && !s.last.released;
            for (int i = 0; i < s.waits.size() && !held; i++) held = !s.waits.get(i).released;
            if (!held) return false;
        }
        return true;
    }

    /** The rank's program is walked in step with the others ({@link RankLockstep}); null: walked to its end at once. */
    void lockstep(RankLockstep walk) { lockstep = walk; }

    @Override
    public long liveBytes() { return live; }

    @Override
    public long peakBytes() { return peak; }

    double hostUs() { return hostUs; }

    private void issue(double atUs) {
        for (SimOp op : issuing) {
            op.issueUs = atUs;
            if (mirror != null) {
                mirror.issued(op);
            } else {
                backend.issued(op);
            }
        }
        issuing.clear();
    }

    private void enqueue(BackendStream stream, SimOp op) {
        if (synchronizedOnce) throw new ExecutionException("the sim backend models one host synchronisation, at the"
                + " end of a rank's program; rank " + rank + " issued work after it");
        SimStream s = (SimStream) stream;
        op.seq = count++;
        op.info = backend.shared(op.info);
        SimOp nccl = op.role() == SimOp.Role.NCCL && lastNccl != s.last ? lastNccl : null;
        if (mirror != null) {
            mirror.check(op, follows(s, nccl));
        } else {
            if (kept != null) {
                op.deps(follows(s, nccl));
                kept.add(op);
            }
            op.after(s.last);
            for (SimOp w : s.waits) op.after(w);
            op.after(nccl);
            backend.add(op);
        }
        if (op.role() == SimOp.Role.NCCL) lastNccl = op;
        s.waits.clear();
        s.last = op;
        issuing.add(op);
    }

    /**
     * The positions of the ops the next op of {@code s} follows: the stream's last op, then its waits, then the
     * rank's previous NCCL op ({@code nccl}, or null).
     */
    private static int[] follows(SimStream s, SimOp nccl) {
        int[] deps = new int[(s.last == null ? 0 : 1) + s.waits.size() + (nccl == null ? 0 : 1)];
        int i = 0;
        if (s.last != null) deps[i++] = s.last.seq;
        for (SimOp w : s.waits) deps[i++] = w.seq;
        if (nccl != null) deps[i++] = nccl.seq;
        return deps;
    }

    private static int index(BackendStream s) { return s.index(); }
}
