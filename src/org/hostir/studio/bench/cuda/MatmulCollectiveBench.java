package org.hostir.studio.bench.cuda;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

import org.hostir.studio.exec.BackendStream;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.cuda.CudaProbe;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.trace.EventKind;

/**
 * Seed 001's other two pipelines on the local GPUs: a K-sharded matmul whose partial products are summed by an
 * Allreduce (seeds/matmul_ar) or a ReduceScatter (seeds/matmul_rs_through_bcast). Measured like
 * {@link AgMatmulBench}: the local GEMM alone, the collective alone, both in sequence, and the lowered
 * collective-based pipeline for S in {2, 4, 8}, each as a ratio to the sequential time; PyTorch's sequential
 * matmul + collective comes from {@code scripts/torch_matmul_collective_baseline.py} in the same invocation. The
 * ReduceScatter case adds the P2P pipeline ({@link #p2pSchedules}: examples/parallelism/matmul_rs_p2p, nvFuser's
 * newest MM + RS p2p lowering), whose transfers take no SMs from the GEMM with backend=cuda.
 */
final class MatmulCollectiveBench {
    /**
     * One case: {@code shape.m()} rows of the local product (S*M for the Allreduce, S*D*M for the ReduceScatter),
     * {@code shape.k()} the local K, {@code shape.n()} N.
     */
    record Case(String seed, CommunicationType collective, AgMatmulBench.Shape shape) {
        String label() { return collective.name().toLowerCase(Locale.ROOT) + " " + shape.label(); }
    }

    static final List<Case> CASES = List.of(
            new Case("seeds/matmul_ar", CommunicationType.ALLREDUCE,
                    new AgMatmulBench.Shape(DataType.BFLOAT16, 8192, 4096, 8192)),
            new Case("seeds/matmul_rs_through_bcast", CommunicationType.REDUCE_SCATTER,
                    new AgMatmulBench.Shape(DataType.BFLOAT16, 16384, 4096, 8192)));

    private final CudaBackend backend;
    private final AgMatmulBench bench;
    private final int devices;

    MatmulCollectiveBench(CudaBackend backend, AgMatmulBench bench) {
        this.backend = backend;
        this.bench = bench;
        this.devices = backend.deviceCount();
    }

    /** name -> milliseconds (median), in print order: the direct figures and seed 001's pipelines on NCCL. */
    Map<String, Double> run(Case c) throws Exception {
        Map<String, Double> r = direct(c, true);
        r.putAll(pipelines(c, "", Map.of("numberOfStreams", "4")));
        return r;
    }

    /**
     * On a backend with copy-engine transfers: the collective alone and seed 001's pipelines with backend=cuda, whose
     * Allreduce and ReduceScatter are then copy-engine collectives (CopyEngineCollectives), and the P2P
     * ReduceScatter; the collective alone is a {@code t_} row (not a pipeline).
     */
    Map<String, Double> copyEngineRows(Case c) throws Exception {
        Map<String, Double> r = new LinkedHashMap<>();
        r.put("t_collective copy-engine", direct(c, false).get("t_collective"));
        r.putAll(pipelines(c, " copy-engine", Map.of("numberOfStreams", "4", "backend", "cuda")));
        r.putAll(p2pSchedules(c, true));
        return r;
    }

    /** The collective alone and, with {@code all}, the GEMM alone and both in sequence, on bench-filled buffers. */
    private Map<String, Double> direct(Case c, boolean all) throws Exception {
        AgMatmulBench.Shape shape = c.shape();
        boolean scatter = c.collective() == CommunicationType.REDUCE_SCATTER;
        Buffer[] a = new Buffer[devices], b = new Buffer[devices], p = new Buffer[devices], out = new Buffer[devices];
        backend.setTiming(false);
        bench.parallel(d -> {
            CudaProbe probe = bench.probe(d);
            Device dev = probe.device();
            a[d] = dev.allocate(new long[] {shape.m(), shape.k()}, shape.dtype());
            b[d] = dev.allocate(new long[] {shape.k(), shape.n()}, shape.dtype());
            p[d] = dev.allocate(new long[] {shape.m(), shape.n()}, shape.dtype());
            out[d] = dev.allocate(new long[] {scatter ? shape.m() / devices : shape.m(), shape.n()}, shape.dtype());
            BackendStream s = dev.userStream();
            probe.fill(a[d], 21 + d, s);
            probe.fill(b[d], 7 + d, s);
            dev.synchronize();
        });
        List<Integer> team = IntStream.range(0, devices).boxed().toList();
        IntConsumer gemm = d -> bench.probe(d).matmul(a[d], b[d], p[d], bench.probe(d).device().userStream());
        IntConsumer collective = d -> bench.probe(d).device().collective(new CollectiveCall(c.collective(), team, -1,
                team, team, p[d], out[d], ReductionOpType.SUM), bench.probe(d).device().userStream(),
                OpInfo.of(-1, -1, c.collective().name(), EventKind.COMMUNICATION));
        Map<String, Double> r = new LinkedHashMap<>();
        if (all) r.put("t_gemm", bench.timeEvents(gemm));
        r.put("t_collective", bench.timeEvents(collective));
        if (all) {
            r.put("t_sequential", bench.timeEvents(d -> {
                gemm.accept(d);
                collective.accept(d);
            }));
        }
        bench.parallel(d -> {
            Device dev = bench.probe(d).device();
            for (Buffer x : new Buffer[] {a[d], b[d], p[d], out[d]}) dev.free(x, dev.userStream());
            dev.synchronize();
        });
        return r;
    }

    /** Seed 001's lowered pipeline for S in {2, 4, 8}, named "pipeline S=s" + {@code suffix}. */
    private Map<String, Double> pipelines(Case c, String suffix, Map<String, String> options) throws Exception {
        AgMatmulBench.Shape shape = c.shape();
        long perStream = c.collective() == CommunicationType.REDUCE_SCATTER ? shape.m() / devices : shape.m();
        Map<String, Double> r = new LinkedHashMap<>();
        for (long s : new long[] {2, 4, 8}) {
            if (perStream % s != 0) continue;
            r.put("pipeline S=" + s + suffix, bench.schedule(c.seed(), shape, Map.of("S", s, "M", perStream / s),
                    options));
        }
        return r;
    }

    /**
     * The P2P ReduceScatter pipeline on the same shape (a local GEMM of {@code shape.m()} rows, D chunks of
     * {@code m / D}), offset by rank as nvFuser requires (the option set as its test sets it), in nvFuser's order and with the own slice last (the
     * project's p2pOwnSliceLast): NCCL send/recv, or, with {@code copyEngine} (a backend built with copy-engine
     * transfers), Host IR's backend=cuda. Empty for the Allreduce case.
     */
    Map<String, Double> p2pSchedules(Case c, boolean copyEngine) throws Exception {
        Map<String, Double> r = new LinkedHashMap<>();
        if (c.collective() != CommunicationType.REDUCE_SCATTER || c.shape().m() % devices != 0) return r;
        backend.setTiming(false);
        for (String ownLast : new String[] {"false", "true"}) {
            String name = "p2p " + (copyEngine ? "copy-engine " : "") + "offset-by-rank"
                    + (ownLast.equals("true") ? " own-slice-last" : "");
            r.put(name, bench.schedule(P2P_EXAMPLE, c.shape(), Map.of("M", c.shape().m() / devices), Map.of(
                    "numberOfStreams", "4", "offsetStreamIndexingByRank", "true", "backend",
                    copyEngine ? "cuda" : "nccl", "p2pOwnSliceLast", ownLast)));
        }
        return r;
    }

    static final String P2P_EXAMPLE = "parallelism/matmul_rs_p2p";
}
