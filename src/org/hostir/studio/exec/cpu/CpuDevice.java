package org.hostir.studio.exec.cpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.BackendEvent;
import org.hostir.studio.exec.BackendStream;
import org.hostir.studio.exec.Blockage;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.DeviceOutOfMemory;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.P2PCall;
import org.hostir.studio.exec.P2PSequence;
import org.hostir.studio.exec.Work;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.trace.Breakdown;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;

/**
 * One simulated device: its streams are worker threads, its memory the JVM heap (counted, so peak memory is
 * reported), its collectives meet the other devices' in the backend's rendezvous. Sequence numbers that match
 * collectives and transfers across ranks are taken when the host posts, in program order, as NCCL does.
 */
final class CpuDevice implements Device {
    private final CpuBackend backend;
    private final int rank;
    private final List<CpuStream> streams = new ArrayList<>();
    private final Map<List<Integer>, Long> collectiveSequence = new HashMap<>();
    private final P2PSequence p2pSequence;
    private final AtomicLong live = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();

    CpuDevice(CpuBackend backend, int rank) {
        this.backend = backend;
        this.rank = rank;
        this.p2pSequence = new P2PSequence(rank);
        streams.add(new CpuStream(rank, 0, backend.blocking()));
    }

    @Override
    public int rank() { return rank; }

    @Override
    public BackendStream userStream() { return streams.get(0); }

    @Override
    public synchronized BackendStream stream(int index) {
        while (streams.size() <= index) streams.add(new CpuStream(rank, streams.size(), backend.blocking()));
        return streams.get(index);
    }

    @Override
    public Buffer allocate(long[] shape, DataType dtype) {
        DenseTensor t;
        try {
            t = DenseTensor.zeros(shape, dtype);
        } catch (IllegalArgumentException | OutOfMemoryError e) {
            Runtime rt = Runtime.getRuntime();
            throw new DeviceOutOfMemory(String.format(java.util.Locale.ROOT, "out of memory on rank %d (CPU backend):"
                    + " shape %s %s needs %s bytes; the Java heap has %.1f MiB free of %.1f MiB at most, and a CPU"
                    + " tensor holds at most 2^31 - 1 elements", rank, Arrays.toString(shape),
                    dtype.fileName(), bytes(shape, dtype), (rt.maxMemory() - rt.totalMemory() + rt.freeMemory())
                            / 1048576.0, rt.maxMemory() / 1048576.0));
        }
        peak.accumulateAndGet(live.addAndGet(t.bytes()), Math::max);
        return new CpuBuffer(t, false);
    }

    private static String bytes(long[] shape, DataType dtype) {
        java.math.BigInteger n = java.math.BigInteger.valueOf(dtype.bytes());
        for (long x : shape) n = n.multiply(java.math.BigInteger.valueOf(x));
        return n.toString();
    }

    @Override
    public void free(Buffer buffer, BackendStream stream) {
        // a stream-ordered allocator can hand the block to the next allocation on the stream right away
        if (buffer instanceof CpuBuffer b && !b.view()) live.addAndGet(-b.bytes());
    }

    @Override
    public Buffer select(Buffer buffer, int axis, long index) {
        return new CpuBuffer(CpuBuffer.of(buffer).select(axis, index), true);
    }

    @Override
    public Buffer narrow(Buffer buffer, int axis, long start, long length) {
        return new CpuBuffer(CpuBuffer.of(buffer).narrow(axis, start, length), true);
    }

    @Override
    public Buffer permute(Buffer buffer, int[] perm) {
        return new CpuBuffer(CpuBuffer.of(buffer).permute(perm), true);
    }

    @Override
    public void copy(Buffer dst, Buffer src, BackendStream stream, OpInfo info) {
        DenseTensor d = CpuBuffer.of(dst);
        DenseTensor s = CpuBuffer.of(src);
        if (Arrays.equals(d.shape(), s.shape())) {
            timed(stream, info, 0, () -> d.copyFrom(s));
        } else if (d.numel() == s.numel()) { // same elements, size-1 axes dropped or added (a one-device "collective")
            timed(stream, info, 0, () -> d.copyFrom(s.reshape(d.shape())));
        } else {
            throw new ExecutionException("copy of " + Arrays.toString(s.shape())
                    + " into " + Arrays.toString(d.shape()) + " on rank " + rank);
        }
    }

    @Override
    public void compute(FusionOp op, List<Buffer> inputs, Buffer output, BackendStream stream, OpInfo info) {
        List<DenseTensor> in = inputs.stream().map(CpuBuffer::of).toList();
        DenseTensor out = CpuBuffer.of(output);
        OpInfo measured = info.withFlops(OpKernels.flops(op, in)).withBytes(out.bytes());
        timed(stream, 0, () -> {
            OpKernels.compute(op, in, out);
            // grouped_mm's groups are known once its offsets are (on the stream, as the kernel reads them)
            return op instanceof FusionOp.GroupedMm
                    ? measured.withBreakdown(Breakdown.rowsPerGroup(in.get(2).toLongArray())) : measured;
        });
    }

    @Override
    public BackendEvent record(BackendStream stream) {
        CpuStream s = cpu(stream);
        return new CpuEvent(s, s.enqueuedSoFar());
    }

    @Override
    public void waitEvent(BackendStream stream, BackendEvent event) {
        waitOn(cpu(stream), (CpuEvent) event, Blockage.OwnStream.Kind.EVENT);
    }

    @Override
    public void waitWork(BackendStream stream, Work work) {
        waitOn(cpu(stream), (CpuEvent) work, Blockage.OwnStream.Kind.WORK);
    }

    private void waitOn(CpuStream waiter, CpuEvent event, Blockage.OwnStream.Kind kind) {
        if (event.stream() == waiter || event.ticket() == 0) return;
        Blockage what = new Blockage.OwnStream(kind, event.stream().index());
        waiter.enqueue(() -> event.stream().awaitTicket(event.ticket(), what));
    }

    @Override
    public Work collective(CollectiveCall call, BackendStream stream, OpInfo info) {
        long sequence = collectiveSequence.merge(call.team(), 1L, Long::sum) - 1;
        Rendezvous.Key key = new Rendezvous.Key(call.team(), sequence);
        DenseTensor in = call.input() == null ? null : CpuBuffer.of(call.input());
        DenseTensor out = call.output() == null ? null : CpuBuffer.of(call.output());
        OpInfo measured = info.withBytes(in != null ? in.bytes() : out != null ? out.bytes() : 0);
        Blockage what = new Blockage.Collective(info.name(), call.team(), sequence, measured.bytes(), info.nodeId(),
                info.iteration());
        CpuStream s = cpu(stream);
        long ticket = timed(stream, measured, 0, () -> {
            var part = new CollectiveSemantics.Part(call.type(), call.root(), call.senders(), call.receivers(),
                    in == null ? null : flat(in), out == null ? -1 : (int) out.numel(), call.reduction());
            var result = (DenseTensor) backend.rendezvous().meet(key, rank, part, CollectiveSemantics::combine, what);
            if (result != null && out != null) out.copyFrom(result.reshape(out.shape()));
        });
        return new CpuEvent(s, ticket);
    }

    @Override
    public Work pointToPoint(List<P2PCall> calls, BackendStream stream, OpInfo info) {
        List<Mailbox.Key> keys = new ArrayList<>();
        for (P2PCall c : calls) {
            P2PSequence.Transfer t = p2pSequence.next(c.type(), c.peer());
            keys.add(new Mailbox.Key(t.from(), t.to(), t.sequence()));
        }
        CpuStream s = cpu(stream);
        Mailbox mailbox = backend.mailbox();
        long ticket = s.enqueue(() -> {
            long start = backend.now();
            long[] ends = new long[calls.size()];
            for (int i = 0; i < calls.size(); i++) {
                if (calls.get(i).type() == P2PCommunication.Type.SEND) {
                    mailbox.put(keys.get(i), flat(CpuBuffer.of(calls.get(i).buffer())));
                }
            }
            for (int i = 0; i < calls.size(); i++) {
                P2PCall c = calls.get(i);
                if (c.type() == P2PCommunication.Type.RECV) {
                    DenseTensor data = mailbox.take(keys.get(i), new Blockage.Receive(c.peer(),
                            keys.get(i).sequence(), c.buffer().bytes(), info.nodeId(), info.iteration()));
                    DenseTensor dst = CpuBuffer.of(c.buffer());
                    if (data.numel() != dst.numel()) {
                        throw new ExecutionException("rank " + rank + " receives " + dst.numel() + " elements from "
                                + c.peer() + ", which sent " + data.numel());
                    }
                    dst.copyFrom(data.reshape(dst.shape()));
                    ends[i] = backend.now();
                }
            }
            for (int i = 0; i < calls.size(); i++) {
                P2PCall c = calls.get(i);
                if (c.type() == P2PCommunication.Type.SEND) {
                    mailbox.awaitTaken(keys.get(i), new Blockage.Send(c.peer(), keys.get(i).sequence(),
                            c.buffer().bytes(), info.nodeId(), info.iteration()));
                    ends[i] = backend.now();
                }
            }
            for (int i = 0; i < calls.size(); i++) {
                P2PCall c = calls.get(i);
                backend.record(new TimelineEvent(rank, s.index(), EventKind.P2P, c.type().dumpName() + " "
                        + (c.type() == P2PCommunication.Type.SEND ? "to " : "from ") + c.peer(), c.node(info.nodeId()),
                        info.iteration(), start, ends[i], c.buffer().bytes(), 0, c.peer(), keys.get(i).flowId(),
                        info.breakdown()));
            }
        });
        return new CpuEvent(s, ticket);
    }

    @Override
    public void synchronize() {
        for (CpuStream s : List.copyOf(streams)) {
            try {
                s.awaitTicket(s.enqueuedSoFar(), new Blockage.OwnStream(Blockage.OwnStream.Kind.SYNCHRONIZE, s.index()));
            } catch (Blocking.Aborted aborted) {
                throw new ExecutionException(backend.blocking().failure());
            }
        }
        RunFailure failure = backend.blocking().failure();
        if (failure != null) throw new ExecutionException(failure);
    }

    @Override
    public Buffer upload(DenseTensor host) {
        Buffer b = allocate(host.shape(), host.dtype());
        CpuBuffer.of(b).copyFrom(host);
        return b;
    }

    @Override
    public DenseTensor download(Buffer buffer) { return CpuBuffer.of(buffer).copy(); }

    @Override
    public void recordHost(OpInfo info, long startNanoTime, long endNanoTime) {
        backend.blocking().progressed(); // a host dispatching nodes is progress, even while every stream waits
        backend.record(new TimelineEvent(rank, TimelineEvent.HOST_STREAM, EventKind.HOST, info.name(), info.nodeId(),
                info.iteration(), backend.since(startNanoTime), backend.since(endNanoTime), info.bytes(), 0, -1, 0));
    }

    @Override
    public long liveBytes() { return live.get(); }

    @Override
    public long peakBytes() { return peak.get(); }

    void resetPeak() { peak.set(live.get()); }

    void stop() { streams.forEach(CpuStream::stop); }

    synchronized List<CpuStream> streams() { return List.copyOf(streams); }

    /** Enqueues {@code body} on the stream as one timeline bar. */
    private long timed(BackendStream stream, OpInfo info, long flowId, Runnable body) {
        return timed(stream, flowId, () -> {
            body.run();
            return info;
        });
    }

    /** Enqueues {@code body} as one bar, described by what the body returns once it ran. */
    private long timed(BackendStream stream, long flowId, Supplier<OpInfo> body) {
        CpuStream s = cpu(stream);
        return s.enqueue(() -> {
            long start = backend.now();
            OpInfo info = body.get();
            backend.record(info.event(rank, s.index(), start, backend.now(), flowId));
        });
    }

    /** A contiguous 1-D copy in the tensor's dtype and storage: what a collective or a send carries. */
    private static DenseTensor flat(DenseTensor t) { return t.copy().reshape(t.numel()); }


    private CpuStream cpu(BackendStream s) {
        if (!(s instanceof CpuStream c)) throw new IllegalArgumentException("not a CPU stream: " + s);
        return c;
    }
}
