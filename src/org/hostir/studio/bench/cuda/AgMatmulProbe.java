package org.hostir.studio.bench.cuda;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;

import org.hostir.studio.exec.BackendStream;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.cuda.CudaProbe;

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
        Buffer[] aLoc = new Buffer[2], aFull = new Buffer[2], b = new Buffer[2], c = new Buffer[2];
        allocate(shape, aLoc, aFull, b, c);
        Map<String, Double> r = variants(shape, aLoc, aFull, b, c);
        bench.parallel(d -> {
            Device dev = bench.probe(d).device();
            for (Buffer x : new Buffer[] {aLoc[d], aFull[d], b[d], c[d]}) dev.free(x, dev.userStream());
            dev.synchronize();
        });
        return r;
    }

    /** Per rank: its local rows, the gathered [2, rows, K] buffer, B and the [2, rows, N] product, filled. */
    private void allocate(AgMatmulBench.Shape shape, Buffer[] aLoc, Buffer[] aFull, Buffer[] b, Buffer[] c) {
        long rows = shape.m() / 2;
        bench.parallel(d -> {
            CudaProbe p = bench.probe(d);
            Device dev = p.device();
            aLoc[d] = dev.allocate(new long[] {rows, shape.k()}, shape.dtype());
            aFull[d] = dev.allocate(new long[] {2, rows, shape.k()}, shape.dtype());
            b[d] = dev.allocate(new long[] {shape.k(), shape.n()}, shape.dtype());
            c[d] = dev.allocate(new long[] {2, rows, shape.n()}, shape.dtype());
            BackendStream s = dev.userStream();
            p.fill(aLoc[d], 11 + d, s);
            p.fill(aFull[d], 3 + d, s);
            p.fill(b[d], 5, s);
            dev.stream(1);
            dev.synchronize();
        });
    }

    /** Every variant's time, in print order. */
    private Map<String, Double> variants(AgMatmulBench.Shape shape, Buffer[] aLoc, Buffer[] aFull, Buffer[] b,
                                         Buffer[] c) {
        Map<String, Double> r = new LinkedHashMap<>();
        Buffer[] full = {CudaProbe.reshape(aFull[0], new long[] {shape.m(), shape.k()}),
            CudaProbe.reshape(aFull[1], new long[] {shape.m(), shape.k()})};
        Buffer[] cFull = {CudaProbe.reshape(c[0], new long[] {shape.m(), shape.n()}),
            CudaProbe.reshape(c[1], new long[] {shape.m(), shape.n()})};
        r.put("gemm full", time(d -> mm(d, full[d], b[d], cFull[d], 0)));
        r.put("gemm half", time(d -> mm(d, aLoc[d], b[d], select(d, c[d], d), 0)));
        r.put("2 half gemms, one stream", time(d -> {
            mm(d, select(d, aFull[d], 0), b[d], select(d, c[d], 0), 0);
            mm(d, select(d, aFull[d], 1), b[d], select(d, c[d], 1), 0);
        }));
        r.put("2 half gemms, two streams", time(d -> {
            fork(d);
            mm(d, select(d, aFull[d], 0), b[d], select(d, c[d], 0), 0);
            mm(d, select(d, aFull[d], 1), b[d], select(d, c[d], 1), 1);
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
            mm(d, aLoc[d], b[d], select(d, c[d], d), 0);
            join(d);
        }));
        r.put("lowered: local copy+gemm | peer copy+gemm", time(d -> {
            fork(d);
            local(d, aFull, aLoc, 0);
            mm(d, select(d, aFull[d], d), b[d], select(d, c[d], d), 0);
            peer(d, aFull, aLoc, 1);
            mm(d, select(d, aFull[d], 1 - d), b[d], select(d, c[d], 1 - d), 1);
            join(d);
        }));
        r.put("one gemm stream: gemm(local input) | peer copy, then gemm", time(d -> {
            fork(d);
            peer(d, aFull, aLoc, 1);
            mm(d, aLoc[d], b[d], select(d, c[d], d), 0);
            join(d);
            mm(d, select(d, aFull[d], 1 - d), b[d], select(d, c[d], 1 - d), 0);
        }));
        r.put("one gemm stream, local copy on the copy stream", time(d -> {
            fork(d);
            peer(d, aFull, aLoc, 1);
            mm(d, aLoc[d], b[d], select(d, c[d], d), 0);
            local(d, aFull, aLoc, 1);
            join(d);
            mm(d, select(d, aFull[d], 1 - d), b[d], select(d, c[d], 1 - d), 0);
        }));
        return r;
    }

    static void print(AgMatmulBench.Shape shape, Map<String, Double> r, PrintStream out) {
        out.println("probe " + shape.label() + " (ms, CUDA events on rank 0, median):");
        r.forEach((k, v) -> out.printf(Locale.ROOT, "  %-62s %8.3f%n", k, v));
    }

    private double time(IntConsumer body) { return bench.timeEvents(body); }

    private BackendStream stream(int d, int i) { return bench.probe(d).device().stream(i); }

    /** Slice {@code i} of the outermost axis of rank {@code d}'s buffer {@code b}. */
    private Buffer select(int d, Buffer b, long i) { return bench.probe(d).device().select(b, 0, i); }

    private void mm(int d, Buffer a, Buffer b, Buffer c, int s) { bench.probe(d).matmul(a, b, c, stream(d, s)); }

    /** Stream 1 starts after what stream 0 has issued. */
    private void fork(int d) { order(d, 0, 1); }

    /** Stream 0 continues after what stream 1 has issued. */
    private void join(int d) { order(d, 1, 0); }

    private void order(int d, int from, int to) {
        CudaProbe p = bench.probe(d);
        long e = p.pooledEvent();
        p.record(e, stream(d, from));
        p.waitEvent(stream(d, to), e);
    }

    /** Pulls the other rank's local rows into this rank's gathered buffer with the copy engine. */
    private void peer(int d, Buffer[] aFull, Buffer[] aLoc, int s) {
        bench.probe(d).copyFromPeer(select(d, aFull[d], 1 - d), bench.probe(1 - d), aLoc[1 - d], stream(d, s));
    }

    private void local(int d, Buffer[] aFull, Buffer[] aLoc, int s) {
        bench.probe(d).copy(select(d, aFull[d], d), aLoc[d], stream(d, s));
    }
}
