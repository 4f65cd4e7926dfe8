package org.hostir.studio.exec.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.hostir.studio.exec.BackendEvent;
import org.hostir.studio.exec.BackendStream;
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
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.trace.Breakdown;
import org.hostir.studio.trace.EventKind;

/**
 * One GPU driven by one host thread: its primary context, a pool of non-blocking streams, a caching allocator
 * whose blocks are reused once the stream that freed them has passed the free (an event), CUDA events around every
 * operation for the timeline. Compute goes to {@link Ops}; communication to NCCL through the backend's
 * communicators ({@link Collectives}), or with {@code backend=cuda} to the copy engines ({@link PeerCopies},
 * {@link CopyEngineCollectives}); host transfers convert elements through {@link HostElements}.
 */
final class CudaDevice implements Device {
    private static final ThreadLocal<long[]> CURRENT = ThreadLocal.withInitial(() -> new long[1]);

    private record Pending(CudaBuffer.Block block, long event) {}

    final CudaBackend backend;
    final Driver driver;
    final int rank;
    /** The CUDA device ordinal (the rank, except in launcher mode, where it is LOCAL_RANK). */
    final int ordinal;
    final long context;
    final Kernels kernels;
    final Timing timing;
    private final List<CudaStream> streams = new ArrayList<>();
    /** The timeline row of {@link #priorityStream()}, after any stream a program can number. */
    static final int PRIORITY_ROW = 1 << 20;
    private CudaStream priorityStream;
    private final Map<Long, Long> blasHandles = new HashMap<>();
    /** A cuBLASLt problem under one workspace limit. */
    private record PlanKey(CublasLt.Key key, long limit) {}

    private final Map<PlanKey, java.util.Optional<CublasLt.Plan>> plans = new HashMap<>();
    private final Map<Long, Long> workspaces = new HashMap<>();
    private final MemorySegment biasSlot = Arena.ofAuto().allocate(8, 8);
    private long ltHandle;
    private final Map<Long, Deque<Pending>> cache = new HashMap<>();
    private final P2PSequence p2pSequence;
    /** Copy-engine collectives posted per team, counted as NCCL orders calls on a communicator. */
    private final Map<List<Integer>, Long> collectiveSequence = new HashMap<>();
    private final AtomicLong live = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();
    /** Matmuls cuBLASLt ran on fp8 operands (the fp8 path taken, not the widened one). */
    private final AtomicLong fp8Gemms = new AtomicLong();
    /** grouped_mm's products run as one cublasGemmGroupedBatchedEx call (not the per-group loop). */
    private final AtomicLong groupedGemms = new AtomicLong();
    private final AtomicLong copyEngineCollectives = new AtomicLong();
    final Ops ops;
    /** Point-to-point transfers and peer pulls on the copy engines. */
    final PeerCopies peers;

    CudaDevice(CudaBackend backend, int rank, int ordinal, Nvrtc nvrtc) {
        this.backend = backend;
        this.driver = backend.driver();
        this.rank = rank;
        this.p2pSequence = new P2PSequence(rank);
        this.ordinal = ordinal;
        this.context = driver.primaryContext(ordinal);
        current();
        String arch = "sm_" + driver.attribute(ordinal, Driver.ATTR_CC_MAJOR) + driver.attribute(ordinal, Driver.ATTR_CC_MINOR);
        this.kernels = new Kernels(driver, nvrtc, arch);
        this.timing = new Timing(driver);
        streams.add(new CudaStream(0, driver.createStream()));
        this.ops = new Ops(this);
        this.peers = new PeerCopies(this);
    }

    /** Makes this device's context current on the calling thread (cheap when it already is). */
    void current() {
        long[] c = CURRENT.get();
        if (c[0] != context) {
            driver.setCurrent(context);
            c[0] = context;
        }
    }

    /** After a library call that may have switched contexts behind our back (ncclCommInitAll). */
    static void forgetCurrent() { CURRENT.get()[0] = 0; }

    @Override
    public int rank() { return rank; }

    @Override
    public BackendStream userStream() { return streams.get(0); }

    @Override
    public synchronized BackendStream stream(int index) {
        current();
        while (streams.size() <= index) streams.add(new CudaStream(streams.size(), driver.createStream()));
        return streams.get(index);
    }

    /**
     * The device's stream of greatest priority, made at first use, where collectives run as {@link
     * CudaBackend#collectivePriority()} says (timeline row {@link #PRIORITY_ROW}); a stream waits on it like any other.
     */
    synchronized CudaStream priorityStream() {
        if (priorityStream == null) {
            current();
            priorityStream = new CudaStream(PRIORITY_ROW, driver.createPriorityStream());
        }
        return priorityStream;
    }

    /** A pooled event recorded on {@code stream} (a CUstream handle): its work so far. */
    long recordEvent(long stream) {
        long e = timing.event();
        driver.record(e, stream);
        return e;
    }

    /** {@code waiter}'s later work waits for {@code producer}'s work so far. */
    void join(CudaStream waiter, CudaStream producer) { join(waiter.handle(), producer.handle()); }

    /** {@link #join(CudaStream, CudaStream)} on CUstream handles. */
    void join(long waiter, long producer) { driver.waitEvent(waiter, recordEvent(producer)); }

    /** The streams made so far, user stream first. */
    synchronized List<CudaStream> streams() { return List.copyOf(streams); }

    static CudaStream cuda(BackendStream s) {
        if (!(s instanceof CudaStream c)) throw new IllegalArgumentException("not a CUDA stream: " + s);
        return c;
    }

    /** The stream's cuBLAS handle, sharing the stream's workspace with cuBLASLt (one stream orders their use). */
    long blas(CudaStream s) {
        Long h = blasHandles.get(s.handle());
        if (h == null) {
            h = backend.cublas().handle(s.handle(), workspace(s), CublasLt.WORKSPACE);
            blasHandles.put(s.handle(), h);
        }
        return h;
    }

    /** The stream's {@link CublasLt#WORKSPACE} bytes of GEMM workspace, allocated at first use. */
    private long workspace(CudaStream s) {
        return workspaces.computeIfAbsent(s.handle(), h -> {
            long p = driver.alloc(CublasLt.WORKSPACE);
            if (p == -1) throw new DeviceOutOfMemory("out of memory on rank " + rank + " (GPU " + ordinal
                    + "): the cuBLASLt workspace of stream " + s.index() + " needs " + size(CublasLt.WORKSPACE));
            return p;
        });
    }

    /**
     * A cuBLASLt matmul of {@code key} on {@code s} (its own workspace, the plan made once per problem); false
     * where cuBLASLt is switched off or its heuristic has no algorithm for the problem (the caller uses GemmEx).
     */
    boolean lt(CudaStream s, CublasLt.Key key, long a, long b, long d, long bias) {
        CublasLt lt = backend.cublasLt();
        CublasLt.Plan plan = plan(key);
        if (plan == null) return false;
        lt.matmul(ltHandle, plan, a, b, d, bias, biasSlot, workspace(s), s.handle());
        return true;
    }

    /** The plan of {@code key} under the backend's workspace limit; null where cuBLASLt is off or has none. */
    CublasLt.Plan plan(CublasLt.Key key) {
        CublasLt lt = backend.cublasLt();
        if (lt == null) return null;
        if (ltHandle == 0) ltHandle = lt.handle();
        long limit = backend.cublasLtWorkspaceLimit();
        return plans.computeIfAbsent(new PlanKey(key, limit),
                k -> java.util.Optional.ofNullable(lt.plan(ltHandle, k.key(), k.limit()))).orElse(null);
    }

    @Override
    public Buffer allocate(long[] shape, DataType dtype) {
        current();
        long bytes;
        try {
            long n = 1;
            for (long s : shape) n = Math.multiplyExact(n, s);
            bytes = Math.max(256, Math.addExact(Math.multiplyExact(n, (long) dtype.bytes()), 255) / 256 * 256);
        } catch (ArithmeticException e) {
            throw new DeviceOutOfMemory("out of memory on rank " + rank + " (GPU " + ordinal + "): shape "
                    + Arrays.toString(shape) + " " + dtype.fileName() + " needs more than 2^63 bytes");
        }
        CudaBuffer.Block block = reuse(bytes);
        if (block == null) {
            long p = driver.alloc(bytes);
            if (p == -1) {
                releaseCache();
                p = driver.alloc(bytes);
            }
            if (p == -1) {
                long[] info = driver.memInfo();
                throw new DeviceOutOfMemory(String.format(java.util.Locale.ROOT,
                        "out of memory on rank %d (GPU %d): shape %s %s needs %d bytes (%s); the device has %s free"
                                + " of %s, %s live in this run", rank, ordinal, Arrays.toString(shape),
                        dtype.fileName(), bytes, size(bytes), size(info[0]), size(info[1]), size(live.get())));
            }
            block = new CudaBuffer.Block(p, bytes);
        }
        peak.accumulateAndGet(live.addAndGet(bytes), Math::max);
        return new CudaBuffer(this, block.pointer(), 0, shape.clone(), CudaBuffer.contiguousStrides(shape), dtype, block);
    }

    static String size(long bytes) {
        return bytes >= 1L << 30 ? String.format(java.util.Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30))
                : String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    private synchronized CudaBuffer.Block reuse(long bytes) {
        Deque<Pending> q = cache.get(bytes);
        if (q == null) return null;
        // blocks queue in the order they were freed: when the oldest free is not done, a later one rarely is, and
        // each look costs a cuEventQuery (about 1.4 us), so only the oldest is looked at
        Pending p = q.peekFirst();
        if (p == null || !driver.eventDone(p.event())) return null;
        q.pollFirst();
        return p.block();
    }

    private synchronized void releaseCache() {
        for (Deque<Pending> q : cache.values()) {
            for (var it = q.iterator(); it.hasNext(); ) {
                Pending p = it.next();
                if (driver.eventDone(p.event())) {
                    driver.free(p.block().pointer());
                    it.remove();
                }
            }
        }
    }

    @Override
    public void free(Buffer buffer, BackendStream stream) {
        CudaBuffer b = CudaBuffer.of(buffer);
        if (b.block() == null) return;
        current();
        long e = recordEvent(cuda(stream).handle());
        synchronized (this) {
            cache.computeIfAbsent(b.block().bytes(), k -> new ArrayDeque<>()).add(new Pending(b.block(), e));
        }
        live.addAndGet(-b.block().bytes());
    }

    @Override
    public Buffer select(Buffer buffer, int axis, long index) { return CudaBuffer.of(buffer).select(axis, index); }

    @Override
    public Buffer narrow(Buffer buffer, int axis, long start, long length) {
        return CudaBuffer.of(buffer).narrow(axis, start, length);
    }

    @Override
    public Buffer permute(Buffer buffer, int[] perm) { return CudaBuffer.of(buffer).permute(perm); }

    @Override
    public void copy(Buffer dst, Buffer src, BackendStream stream, OpInfo info) {
        current();
        CudaStream s = cuda(stream);
        timed(s, info, () -> ops.copy(CudaBuffer.of(dst), CudaBuffer.of(src), s));
    }

    @Override
    public void compute(FusionOp op, List<Buffer> inputs, Buffer output, BackendStream stream, OpInfo info) {
        current();
        CudaStream s = cuda(stream);
        List<CudaBuffer> in = inputs.stream().map(CudaBuffer::of).toList();
        CudaBuffer out = CudaBuffer.of(output);
        OpInfo measured = info.withFlops(Ops.flops(op, in, out)).withBytes(out.bytes());
        timed(s, op instanceof FusionOp.GroupedMm g && backend.timingEnabled()
                ? measured.withBreakdown(Breakdown.rowsPerGroup(GroupedGemm.offsets(this, g, in.get(2), s))) : measured,
                () -> ops.compute(op, in, out, s));
    }

    @Override
    public BackendEvent record(BackendStream stream) {
        current();
        return new CudaEvent(recordEvent(cuda(stream).handle()));
    }

    @Override
    public void waitEvent(BackendStream stream, BackendEvent event) {
        current();
        driver.waitEvent(cuda(stream).handle(), ((CudaEvent) event).handle());
    }

    @Override
    public void waitWork(BackendStream stream, Work work) {
        current();
        driver.waitEvent(cuda(stream).handle(), ((CudaEvent) work).handle());
    }

    @Override
    public Work collective(CollectiveCall call, BackendStream stream, OpInfo info) {
        current();
        CudaStream s = cuda(stream);
        CudaBuffer in = call.input() == null ? null : CudaBuffer.of(call.input());
        CudaBuffer out = call.output() == null ? null : CudaBuffer.of(call.output());
        OpInfo measured = info.withBytes(in != null ? in.bytes() : out != null ? out.bytes() : 0);
        timed(s, measured, () -> Collectives.post(this, call, in, out, s));
        return (CudaEvent) record(s);
    }

    @Override
    public Work pointToPoint(List<P2PCall> calls, BackendStream stream, OpInfo info) {
        current();
        CudaStream s = cuda(stream);
        List<Timing.Sub> parts = new ArrayList<>();
        List<CopyEngine.Key> keys = new ArrayList<>();
        for (P2PCall c : calls) {
            boolean send = c.type() == P2PCommunication.Type.SEND;
            P2PSequence.Transfer t = p2pSequence.next(c.type(), c.peer());
            keys.add(new CopyEngine.Key(t.from(), t.to(), t.sequence()));
            parts.add(new Timing.Sub(c.type().dumpName() + " " + (send ? "to " : "from ") + c.peer(),
                    c.buffer().bytes(), c.peer(), t.flowId(), c.node(info.nodeId())));
        }
        long e0 = backend.timingEnabled() ? recordEvent(s.handle()) : 0;
        if (backend.copyEngine() != null) peers.pointToPoint(calls, keys, s);
        else Collectives.pointToPoint(this, calls, s);
        if (e0 != 0) timing.add(new Timing.Bar(s.index(), info.withBytes(0), e0, recordEvent(s.handle()), parts));
        return (CudaEvent) record(s);
    }

    /** A send's or receive's buffer: point-to-point transfers move flat memory, so a strided view is refused. */
    CudaBuffer contiguousOrFail(P2PCall c) {
        CudaBuffer b = CudaBuffer.of(c.buffer());
        if (!b.contiguous()) throw new ExecutionException(c.type().dumpName() + " on rank " + rank
                + ": a strided buffer " + b);
        return b;
    }

    @Override
    public void synchronize() {
        current();
        List<CudaStream> all;
        synchronized (this) {
            all = List.copyOf(streams);
        }
        for (CudaStream s : all) backend.await(this, s);
    }

    @Override
    public Buffer upload(DenseTensor host) {
        CudaBuffer b = (CudaBuffer) allocate(host.shape(), host.dtype());
        long n = host.numel();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment seg = a.allocate(Math.max(1, n * host.dtype().bytes()), 8);
            HostElements.store(seg, host);
            // the block may come from the cache: its free is done, and a synchronous copy orders after it
            driver.synchronize(streams.get(0).handle());
            if (n > 0) driver.copyHtoD(b.address(), seg, n * host.dtype().bytes());
        }
        return b;
    }

    @Override
    public DenseTensor download(Buffer buffer) {
        current();
        CudaBuffer b = CudaBuffer.of(buffer);
        CudaBuffer src = b;
        if (!b.contiguous()) {
            src = (CudaBuffer) allocate(b.shape(), b.dtype());
            ops.copy(src, b, streams.get(0));
            driver.synchronize(streams.get(0).handle());
        }
        int n = (int) b.numel();
        DenseTensor host;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment seg = a.allocate(Math.max(1, n * (long) b.dtype().bytes()), 8);
            if (n > 0) driver.copyDtoH(seg, src.address(), n * (long) b.dtype().bytes());
            host = HostElements.load(seg, n, b.dtype(), b.shape());
        }
        if (src != b) free(src, streams.get(0));
        return host;
    }

    @Override
    public void recordHost(OpInfo info, long startNanoTime, long endNanoTime) {
        backend.recordHost(rank, info, startNanoTime, endNanoTime);
    }

    @Override
    public long liveBytes() { return live.get(); }

    /** The call number of the next copy-engine collective on {@code team} (counted, for the tests, in total too). */
    long nextCollective(List<Integer> team) {
        copyEngineCollectives.incrementAndGet();
        return collectiveSequence.merge(team, 1L, Long::sum) - 1;
    }

    long copyEngineCollectives() { return copyEngineCollectives.get(); }

    void countFp8Gemm() { fp8Gemms.incrementAndGet(); }

    long fp8Gemms() { return fp8Gemms.get(); }

    void countGroupedGemm() { groupedGemms.incrementAndGet(); }

    long groupedGemms() { return groupedGemms.get(); }

    @Override
    public long peakBytes() { return peak.get(); }

    void resetPeak() { peak.set(live.get()); }

    /** Runs {@code body} between two CUDA events on {@code s}, one timeline bar. */
    void timed(CudaStream s, OpInfo info, Runnable body) {
        if (!backend.timingEnabled()) {
            body.run();
            return;
        }
        long e0 = recordEvent(s.handle());
        body.run();
        timing.add(new Timing.Bar(s.index(), info, e0, recordEvent(s.handle()), null));
    }

    EventKind kindOf(OpInfo info) { return info.kind(); }
}
