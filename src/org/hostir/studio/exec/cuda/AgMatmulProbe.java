package org.hostir.studio.exec.cuda;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Hand-written variants of the two-GPU AG+GEMM pipeline, timed with CUDA events on both ranks at once, to find
 * where a schedule loses time against max(t_allgather, t_gemm): the GEMM split in halves (one stream, two
 * streams), the peer copy and the local copy alone, a half GEMM alone and beside a peer copy, the schedule the
 * lowering produces (local chunk on one stream, peer chunk on another), and the same with both GEMMs on one
 * stream. {@code hirstudio bench agmm --probe}.
 */
final class AgMatmulProbe {
    private final CudaBackend backend;
    private final AgMatmulBench bench;

    AgMatmulProbe(CudaBackend backend, AgMatmulBench bench) {
        this.backend = backend;
        this.bench = bench;
    }

    Map<String, Double> run(AgMatmulBench.Shape shape) {
        int n = backend.deviceCount();
        if (n != 2) throw new IllegalArgumentException("the probe is written for 2 GPUs");
        long rows = shape.m() / 2;
        CudaBuffer[] aLoc = new CudaBuffer[2], aFull = new CudaBuffer[2], b = new CudaBuffer[2], c = new CudaBuffer[2];
        bench.parallel(d -> {
            CudaDevice dev = backend.cudaDevice(d);
            aLoc[d] = (CudaBuffer) dev.allocate(new long[] {rows, shape.k()}, shape.dtype());
            aFull[d] = (CudaBuffer) dev.allocate(new long[] {2, rows, shape.k()}, shape.dtype());
            b[d] = (CudaBuffer) dev.allocate(new long[] {shape.k(), shape.n()}, shape.dtype());
            c[d] = (CudaBuffer) dev.allocate(new long[] {2, rows, shape.n()}, shape.dtype());
            CudaStream s = (CudaStream) dev.userStream();
            dev.ops.fill(aLoc[d], 11 + d, s);
            dev.ops.fill(aFull[d], 3 + d, s);
            dev.ops.fill(b[d], 5, s);
            dev.stream(1);
            dev.synchronize();
        });
        Map<String, Double> r = new LinkedHashMap<>();
        CudaBuffer[] full = {aFull[0].reshape(new long[] {shape.m(), shape.k()}),
            aFull[1].reshape(new long[] {shape.m(), shape.k()})};
        CudaBuffer[] cFull = {c[0].reshape(new long[] {shape.m(), shape.n()}),
            c[1].reshape(new long[] {shape.m(), shape.n()})};
        r.put("gemm full", time(d -> mm(d, full[d], b[d], cFull[d], 0)));
        r.put("gemm half", time(d -> mm(d, aLoc[d], b[d], c[d].select(0, d), 0)));
        r.put("2 half gemms, one stream", time(d -> {
            mm(d, aFull[d].select(0, 0), b[d], c[d].select(0, 0), 0);
            mm(d, aFull[d].select(0, 1), b[d], c[d].select(0, 1), 0);
        }));
        r.put("2 half gemms, two streams", time(d -> {
            fork(d);
            mm(d, aFull[d].select(0, 0), b[d], c[d].select(0, 0), 0);
            mm(d, aFull[d].select(0, 1), b[d], c[d].select(0, 1), 1);
            join(d);
        }));
        r.put("peer copy", time(d -> {
            fork(d);
            peer(d, aFull, aLoc, 1);
            join(d);
        }));
        r.put("local copy", time(d -> local(d, aFull, aLoc, 0)));
        r.put("gemm half + peer copy beside", time(d -> {
            fork(d);
            peer(d, aFull, aLoc, 1);
            mm(d, aLoc[d], b[d], c[d].select(0, d), 0);
            join(d);
        }));
        r.put("lowered: local copy+gemm | peer copy+gemm", time(d -> {
            fork(d);
            local(d, aFull, aLoc, 0);
            mm(d, aFull[d].select(0, d), b[d], c[d].select(0, d), 0);
            peer(d, aFull, aLoc, 1);
            mm(d, aFull[d].select(0, 1 - d), b[d], c[d].select(0, 1 - d), 1);
            join(d);
        }));
        r.put("one gemm stream: gemm(local input) | peer copy, then gemm", time(d -> {
            fork(d);
            peer(d, aFull, aLoc, 1);
            mm(d, aLoc[d], b[d], c[d].select(0, d), 0);
            join(d);
            mm(d, aFull[d].select(0, 1 - d), b[d], c[d].select(0, 1 - d), 0);
        }));
        r.put("one gemm stream, local copy on the copy stream", time(d -> {
            fork(d);
            peer(d, aFull, aLoc, 1);
            mm(d, aLoc[d], b[d], c[d].select(0, d), 0);
            local(d, aFull, aLoc, 1);
            join(d);
            mm(d, aFull[d].select(0, 1 - d), b[d], c[d].select(0, 1 - d), 0);
        }));
        bench.parallel(d -> {
            CudaDevice dev = backend.cudaDevice(d);
            for (CudaBuffer x : new CudaBuffer[] {aLoc[d], aFull[d], b[d], c[d]}) dev.free(x, dev.userStream());
            dev.synchronize();
        });
        return r;
    }

    static void print(AgMatmulBench.Shape shape, Map<String, Double> r, PrintStream out) {
        out.println("probe " + shape.label() + " (ms, CUDA events on rank 0, median):");
        r.forEach((k, v) -> out.printf(Locale.ROOT, "  %-62s %8.3f%n", k, v));
    }

    private double time(IntConsumer body) { return bench.timeEvents(body); }

    private CudaStream stream(int d, int i) { return (CudaStream) backend.cudaDevice(d).stream(i); }

    private void mm(int d, CudaBuffer a, CudaBuffer b, CudaBuffer c, int s) {
        backend.cudaDevice(d).ops.matmul(a, b, c, stream(d, s));
    }

    /** Stream 1 starts after what stream 0 has issued. */
    private void fork(int d) { order(d, 0, 1); }

    /** Stream 0 continues after what stream 1 has issued. */
    private void join(int d) { order(d, 1, 0); }

    private void order(int d, int from, int to) {
        CudaDevice dev = backend.cudaDevice(d);
        long e = dev.timing.event();
        dev.driver.record(e, stream(d, from).handle());
        dev.driver.waitEvent(stream(d, to).handle(), e);
    }

    /** Pulls the other rank's local rows into this rank's gathered buffer with the copy engine. */
    private void peer(int d, CudaBuffer[] aFull, CudaBuffer[] aLoc, int s) {
        CudaDevice dev = backend.cudaDevice(d), other = backend.cudaDevice(1 - d);
        CudaBuffer dst = aFull[d].select(0, 1 - d);
        dev.driver.copyPeerAsync(dst.address(), dev.context, aLoc[1 - d].address(), other.context, dst.bytes(),
                stream(d, s).handle());
    }

    private void local(int d, CudaBuffer[] aFull, CudaBuffer[] aLoc, int s) {
        backend.cudaDevice(d).ops.copy(aFull[d].select(0, d), aLoc[d], stream(d, s));
    }
}
