package org.hostir.studio.bench.cuda;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.BackendStream;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.cuda.CudaProbe;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.trace.EventKind;

/**
 * {@code hirstudio bench agmm --dispatch}: the host cost of the native calls a schedule makes, one at a time on
 * rank 0 after a JIT warm-up, then the small AG+GEMM schedule's calls at their real size, and the same issued by
 * both ranks' threads at once, to tell the library's cost from the driver's and from contention.
 */
public final class AgMatmulDispatch {
    private AgMatmulDispatch() {}

    /** Host cost of single native calls on rank 0 (microseconds per call, after a JIT warm-up). */
    public static int dispatchCosts(int devices, PrintStream out) throws Exception {
        try (CudaBackend backend = new CudaBackend(devices, 120_000)) {
            CudaProbe p = CudaProbe.of(backend, 0);
            p.makeCurrent();
            singleCalls(backend, p, out);
            // the calls of the small AG+GEMM schedule at their real size: 50 issued back to back after a warm-up,
            // few enough that the launch queue never fills, so the figure is the host's cost, not the GPU's
            Device d = p.device();
            Buffer[] abc = {d.allocate(new long[] {4096, 4096}, BF16), d.allocate(new long[] {4096, 4096}, BF16),
                d.allocate(new long[] {4096, 4096}, BF16)};
            CudaProbe p1 = CudaProbe.of(backend, 1);
            scheduleCalls(p, p1, abc, out);
            contention(p, p1, abc, out);
        }
        return 0;
    }

    private static final DataType BF16 = DataType.BFLOAT16;

    /** The native calls one at a time, 20,000 as a warm-up then 2,000 timed. */
    private static void singleCalls(CudaBackend backend, CudaProbe p, PrintStream out) {
        Device d = p.device();
        BackendStream s = d.userStream();
        Buffer a = d.allocate(new long[] {256, 256}, DataType.BFLOAT16);
        Buffer b = d.allocate(new long[] {256, 256}, DataType.BFLOAT16);
        Buffer c = d.allocate(new long[] {256, 256}, DataType.BFLOAT16);
        long ev = p.newEvent();
        Map<String, Runnable> calls = new LinkedHashMap<>();
        calls.put("cuCtxSetCurrent", p::setContext);
        calls.put("cuEventRecord", () -> p.record(ev, s));
        calls.put("cuStreamQuery", () -> p.streamDone(s));
        calls.put("cuStreamWaitEvent", () -> p.waitEvent(s, ev));
        calls.put("Timing.event+record", () -> p.record(p.pooledEvent(), s));
        calls.put("fill kernel (NVRTC, launch)", () -> p.fill(a, 1, s));
        calls.put("Ops.matmul 256^3 bf16 (cuBLASLt)", () -> p.matmul(a, b, c, s));
        calls.put("Ops.matmul 256^3 bf16 (GemmEx)", () -> {
            backend.useCublasLt(false);
            p.matmul(a, b, c, s);
            backend.useCublasLt(true);
        });
        FusionOp.Matmul mm = matmulOp();
        OpInfo info = OpInfo.of(1, 0, "matmul", EventKind.MATMUL);
        List<Buffer> ins = List.of(a, b);
        calls.put("Device.compute matmul, events off", () -> {
            backend.setTiming(false);
            d.compute(mm, ins, c, s, info);
        });
        calls.put("Device.compute matmul, events on", () -> {
            backend.setTiming(true);
            d.compute(mm, ins, c, s, info);
            backend.setTiming(false);
        });
        calls.put("allocate+free 128 KiB", () -> d.free(d.allocate(new long[] {256, 256}, DataType.BFLOAT16), s));
        for (var e : calls.entrySet()) {
            for (int i = 0; i < 20_000; i++) {
                e.getValue().run();
                if (i % 1000 == 999) {
                    p.synchronize(s);
                    backend.resetTimeline();
                    p.makeCurrent();
                }
            }
            p.synchronize(s);
            long t0 = System.nanoTime();
            int n = 2000;
            for (int i = 0; i < n; i++) e.getValue().run();
            long t1 = System.nanoTime();
            p.synchronize(s);
            backend.resetTimeline();
            p.makeCurrent();
            out.printf(Locale.ROOT, "  %-30s %8.2f us per call%n", e.getKey(), (t1 - t0) / 1e3 / n);
        }
    }

    /** The small schedule's calls at their real size on rank 0, with buffers {@code abc}. */
    private static void scheduleCalls(CudaProbe p, CudaProbe p1, Buffer[] abc, PrintStream out) {
        Buffer ba = abc[0], bb = abc[1], bc = abc[2];
        BackendStream s = p.device().userStream();
        Device d = p.device();
        Device d1 = p1.device();
        p1.makeCurrent();
        Buffer remote = d1.allocate(new long[] {4096, 4096}, BF16);
        p.makeCurrent();
        p.enablePeerAccess(p1);
        Map<String, Runnable> big = new LinkedHashMap<>();
        big.put("Ops.matmul 4096^3 bf16 (cuBLASLt)", () -> p.matmul(ba, bb, bc, s));
        big.put("Ops.copy 32 MiB on the device", () -> p.copy(bc, ba, s));
        big.put("cuMemcpyPeerAsync 32 MiB from GPU 1", () -> p.copyFromPeer(ba, p1, remote, s));
        BackendStream other = d.stream(1);
        long mine = p.newEvent();
        p1.makeCurrent();
        long theirs = p1.newEvent();
        p1.record(theirs, d1.userStream());
        p.makeCurrent();
        big.put("matmul after waiting on stream 1's event", () -> {
            p.record(mine, other);
            p.waitEvent(s, mine);
            p.matmul(ba, bb, bc, s);
        });
        big.put("matmul after waiting on GPU 1's event", () -> {
            p.waitEvent(s, theirs);
            p.matmul(ba, bb, bc, s);
        });
        big.put("matmul on streams 0 and 1 in turn", () -> {
            p.matmul(ba, bb, bc, s);
            p.matmul(ba, bb, bc, other);
        });
        for (var e : big.entrySet()) {
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < 50; i++) e.getValue().run();
                d.synchronize();
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < 50; i++) e.getValue().run();
            long t1 = System.nanoTime();
            d.synchronize();
            out.printf(Locale.ROOT, "  %-36s %8.2f us per call%n", e.getKey(), (t1 - t0) / 1e3 / 50);
        }
    }

    /**
     * The same matmuls issued by both ranks' threads at once, and with the other thread polling its stream as a
     * rank waiting in synchronize() does: is the schedule's dispatch cost contention in the driver?
     */
    private static void contention(CudaProbe p, CudaProbe p1, Buffer[] abc, PrintStream out) throws Exception {
        Device d1 = p1.device();
        p1.makeCurrent();
        Buffer[] abc1 = {d1.allocate(new long[] {4096, 4096}, BF16), d1.allocate(new long[] {4096, 4096}, BF16),
            d1.allocate(new long[] {4096, 4096}, BF16)};
        BackendStream s1 = d1.userStream();
        BackendStream s = p.device().userStream();
        p.makeCurrent();
        for (String mode : new String[] {"both ranks issue matmuls", "rank 1 polls its stream"}) {
            boolean both = mode.startsWith("both");
            double[] perCall = new double[2];
            for (int round = 0; round < 5; round++) {
                CyclicBarrier go = new CyclicBarrier(2);
                AtomicBoolean done = new AtomicBoolean();
                Thread t = Thread.ofPlatform().start(() -> rankOne(p1, abc1, s1, both, go, done, perCall));
                go.await();
                long t0 = System.nanoTime();
                for (int i = 0; i < 50; i++) p.matmul(abc[0], abc[1], abc[2], s);
                perCall[0] = (System.nanoTime() - t0) / 1e3 / 50;
                done.set(true);
                t.join();
                p.device().synchronize();
            }
            out.printf(Locale.ROOT, "  %-36s rank 0 %8.2f us per matmul%s%n", mode, perCall[0],
                    both ? String.format(Locale.ROOT, ", rank 1 %.2f us", perCall[1]) : "");
        }
    }

    /** Rank 1's thread: 50 matmuls ({@code both}) or polling its stream until {@code done}. */
    private static void rankOne(CudaProbe p1, Buffer[] abc1, BackendStream s1, boolean both, CyclicBarrier go,
                                AtomicBoolean done, double[] perCall) {
        p1.makeCurrent();
        try {
            go.await();
        } catch (Exception ex) {
            return;
        }
        long u0 = System.nanoTime();
        if (both) {
            for (int i = 0; i < 50; i++) p1.matmul(abc1[0], abc1[1], abc1[2], s1);
        } else {
            while (!done.get()) {
                p1.streamDone(s1);
                long until = System.nanoTime() + 3_000;
                while (System.nanoTime() < until) Thread.onSpinWait();
            }
        }
        perCall[1] = (System.nanoTime() - u0) / 1e3 / 50;
        p1.device().synchronize();
    }

    /** A [256, 256] x [256, 256] bf16 matmul op, for timing the compute path of one node. */
    private static FusionOp.Matmul matmulOp() {
        String text = """
                {"format": "hostir-fusion/1", "name": "mm", "symbols": {"M": 256},
                 "tensors": [{"name": "a", "dtype": "bfloat16", "axes": ["M", "M"]},
                   {"name": "b", "dtype": "bfloat16", "axes": ["M", "M"]},
                   {"name": "c", "dtype": "bfloat16", "axes": ["M", "M", {"extent": "M", "iter": "reduction"}]}],
                 "ops": [{"op": "matmul", "inputs": ["a", "b"], "output": "c"}], "inputs": ["a", "b"], "outputs": ["c"]}
                """;
        try {
            var loaded = Engine.load(new FusionSource.Text(text, "mm"), 1, Map.of());
            return (FusionOp.Matmul) loaded.fusion().ops().get(0);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
