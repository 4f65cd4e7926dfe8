package org.hostir.studio.exec.cuda;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;

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
            CudaDevice d = backend.cudaDevice(0);
            d.current();
            CudaStream s = (CudaStream) d.userStream();
            CudaBuffer a = (CudaBuffer) d.allocate(new long[] {256, 256}, org.hostir.studio.ir.DataType.BFLOAT16);
            CudaBuffer b = (CudaBuffer) d.allocate(new long[] {256, 256}, org.hostir.studio.ir.DataType.BFLOAT16);
            CudaBuffer c = (CudaBuffer) d.allocate(new long[] {256, 256}, org.hostir.studio.ir.DataType.BFLOAT16);
            long ev = d.driver.createEvent();
            Map<String, Runnable> calls = new java.util.LinkedHashMap<>();
            calls.put("cuCtxSetCurrent", () -> d.driver.setCurrent(d.context));
            calls.put("cuEventRecord", () -> d.driver.record(ev, s.handle()));
            calls.put("cuStreamQuery", () -> d.driver.streamDone(s.handle()));
            calls.put("cuStreamWaitEvent", () -> d.driver.waitEvent(s.handle(), ev));
            calls.put("Timing.event+record", () -> d.driver.record(d.timing.event(), s.handle()));
            calls.put("fill kernel (NVRTC, launch)", () -> d.ops.fill(a, 1, s));
            calls.put("Ops.matmul 256^3 bf16 (cuBLASLt)", () -> d.ops.matmul(a, b, c, s));
            calls.put("Ops.matmul 256^3 bf16 (GemmEx)", () -> {
                backend.useCublasLt(false);
                d.ops.matmul(a, b, c, s);
                backend.useCublasLt(true);
            });
            FusionOp.Matmul mm = matmulOp();
            OpInfo info = OpInfo.of(1, 0, "matmul", org.hostir.studio.trace.EventKind.MATMUL);
            List<org.hostir.studio.exec.Buffer> ins = List.of(a, b);
            calls.put("Device.compute matmul, events off", () -> {
                backend.setTiming(false);
                d.compute(mm, ins, c, s, info);
            });
            calls.put("Device.compute matmul, events on", () -> {
                backend.setTiming(true);
                d.compute(mm, ins, c, s, info);
                backend.setTiming(false);
            });
            calls.put("allocate+free 128 KiB", () -> d.free(d.allocate(new long[] {256, 256},
                    org.hostir.studio.ir.DataType.BFLOAT16), s));
            for (var e : calls.entrySet()) {
                for (int i = 0; i < 20_000; i++) {
                    e.getValue().run();
                    if (i % 1000 == 999) {
                        d.driver.synchronize(s.handle());
                        backend.resetTimeline();
                        d.current();
                    }
                }
                d.driver.synchronize(s.handle());
                long t0 = System.nanoTime();
                int n = 2000;
                for (int i = 0; i < n; i++) e.getValue().run();
                long t1 = System.nanoTime();
                d.driver.synchronize(s.handle());
                backend.resetTimeline();
                d.current();
                out.printf(Locale.ROOT, "  %-30s %8.2f us per call%n", e.getKey(), (t1 - t0) / 1e3 / n);
            }
            // the calls of the small AG+GEMM schedule at their real size: 50 issued back to back after a warm-up,
            // few enough that the launch queue never fills, so the figure is the host's cost, not the GPU's
            DataType bf16 = DataType.BFLOAT16;
            CudaBuffer ba = (CudaBuffer) d.allocate(new long[] {4096, 4096}, bf16);
            CudaBuffer bb = (CudaBuffer) d.allocate(new long[] {4096, 4096}, bf16);
            CudaBuffer bc = (CudaBuffer) d.allocate(new long[] {4096, 4096}, bf16);
            CudaDevice d1 = backend.cudaDevice(1);
            d1.current();
            CudaBuffer remote = (CudaBuffer) d1.allocate(new long[] {4096, 4096}, bf16);
            d.current();
            d.driver.enablePeerAccess(d1.context);
            Map<String, Runnable> big = new java.util.LinkedHashMap<>();
            big.put("Ops.matmul 4096^3 bf16 (cuBLASLt)", () -> d.ops.matmul(ba, bb, bc, s));
            big.put("Ops.copy 32 MiB on the device", () -> d.ops.copy(bc, ba, s));
            big.put("cuMemcpyPeerAsync 32 MiB from GPU 1", () -> d.driver.copyPeerAsync(ba.address(), d.context,
                    remote.address(), d1.context, ba.bytes(), s.handle()));
            CudaStream other = (CudaStream) d.stream(1);
            long mine = d.driver.createEvent();
            d1.current();
            long theirs = d1.driver.createEvent();
            d1.driver.record(theirs, ((CudaStream) d1.userStream()).handle());
            d.current();
            big.put("matmul after waiting on stream 1's event", () -> {
                d.driver.record(mine, other.handle());
                d.driver.waitEvent(s.handle(), mine);
                d.ops.matmul(ba, bb, bc, s);
            });
            big.put("matmul after waiting on GPU 1's event", () -> {
                d.driver.waitEvent(s.handle(), theirs);
                d.ops.matmul(ba, bb, bc, s);
            });
            big.put("matmul on streams 0 and 1 in turn", () -> {
                d.ops.matmul(ba, bb, bc, s);
                d.ops.matmul(ba, bb, bc, other);
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
            // the same matmuls issued by both ranks' threads at once, and with the other thread polling its stream
            // as a rank waiting in synchronize() does: is the schedule's dispatch cost contention in the driver?
            d1.current();
            CudaBuffer a1 = (CudaBuffer) d1.allocate(new long[] {4096, 4096}, bf16);
            CudaBuffer b1 = (CudaBuffer) d1.allocate(new long[] {4096, 4096}, bf16);
            CudaBuffer c1 = (CudaBuffer) d1.allocate(new long[] {4096, 4096}, bf16);
            CudaStream s1 = (CudaStream) d1.userStream();
            d.current();
            for (String mode : new String[] {"both ranks issue matmuls", "rank 1 polls its stream"}) {
                double[] perCall = new double[2];
                for (int round = 0; round < 5; round++) {
                    java.util.concurrent.CyclicBarrier go = new java.util.concurrent.CyclicBarrier(2);
                    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
                    Thread t = Thread.ofPlatform().start(() -> {
                        d1.current();
                        try {
                            go.await();
                        } catch (Exception ex) {
                            return;
                        }
                        long u0 = System.nanoTime();
                        if (mode.startsWith("both")) {
                            for (int i = 0; i < 50; i++) d1.ops.matmul(a1, b1, c1, s1);
                        } else {
                            while (!done.get()) {
                                d1.driver.streamDone(s1.handle());
                                long until = System.nanoTime() + 3_000;
                                while (System.nanoTime() < until) Thread.onSpinWait();
                            }
                        }
                        perCall[1] = (System.nanoTime() - u0) / 1e3 / 50;
                        d1.synchronize();
                    });
                    go.await();
                    long t0 = System.nanoTime();
                    for (int i = 0; i < 50; i++) d.ops.matmul(ba, bb, bc, s);
                    perCall[0] = (System.nanoTime() - t0) / 1e3 / 50;
                    done.set(true);
                    t.join();
                    d.synchronize();
                }
                out.printf(Locale.ROOT, "  %-36s rank 0 %8.2f us per matmul%s%n", mode, perCall[0],
                        mode.startsWith("both") ? String.format(Locale.ROOT, ", rank 1 %.2f us", perCall[1]) : "");
            }
        }
        return 0;
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
            var loaded = org.hostir.studio.io.FusionLoader.load(org.hostir.studio.io.FusionReader.read(text, "mm"), 1,
                    Map.of());
            return (FusionOp.Matmul) loaded.fusion().ops().get(0);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
