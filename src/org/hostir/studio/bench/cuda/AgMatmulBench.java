package org.hostir.studio.bench.cuda;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.BackendStream;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.Evaluator;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.RankThreads;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.cuda.CudaProbe;
import org.hostir.studio.file.AtomicFiles;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.OverlapFigures;
import org.hostir.studio.trace.TimelineEvent;

/**
 * AG+GEMM on the local GPUs (DESIGN 5): the allgather alone, the GEMM alone, both in sequence, and the pipelined
 * schedules the lowering produces from the seeds' fusions (collective-based with S in {2, 4, 8}; P2P over NCCL,
 * with and without offset-by-rank), each as a ratio to max(t_allgather, t_gemm). Every figure follows the
 * PyTorch script's protocol (a few warm-ups, then iterations separated by a barrier and a synchronisation, CUDA
 * events): direct figures on rank 0, schedules as the longest rank's device span from before its first dispatch
 * (host dispatch included) to the end of its last stream; the schedules' host wall times are kept beside them.
 * Per-op timing events are off.
 */
public final class AgMatmulBench implements AutoCloseable {
    public record Shape(DataType dtype, long m, long k, long n) {
        String label() { return dtype.fileName() + " " + m + " " + k + " " + n; }
    }

    public static final List<Shape> SHAPES = List.of(new Shape(DataType.FLOAT, 32768, 32768, 1024),
            new Shape(DataType.BFLOAT16, 32768, 8192, 8192), new Shape(DataType.BFLOAT16, 16384, 8192, 4096),
            new Shape(DataType.BFLOAT16, 8192, 4096, 4096));

    private final CudaBackend backend;
    private final int devices;
    private final int iterations, warmup;
    private final Path examples;
    private final PrintStream out;
    /** The ranks' host threads, kept across iterations as the Runner keeps them. */
    private final RankThreads hosts;
    private final List<CudaProbe> probes;

    public AgMatmulBench(CudaBackend backend, Path examples, int iterations, int warmup, PrintStream out) {
        this.backend = backend;
        this.devices = backend.deviceCount();
        this.examples = examples;
        this.iterations = iterations;
        this.warmup = warmup;
        this.out = out;
        this.hosts = new RankThreads(IntStream.range(0, devices).boxed().toList());
        this.probes = IntStream.range(0, devices).mapToObj(d -> CudaProbe.of(backend, d)).toList();
    }

    /** Rank {@code d}'s GPU below the Device interface. */
    CudaProbe probe(int d) { return probes.get(d); }

    @Override
    public void close() { hosts.close(); }

    /** name -> milliseconds (median), in print order. */
    public Map<String, Double> run(Shape shape) throws Exception {
        Map<String, Double> r = new LinkedHashMap<>();
        hostWall.clear();
        backend.setTiming(false);
        long rowsPerRank = shape.m() / devices;
        Buffer[] aLoc = new Buffer[devices], b = new Buffer[devices], aFull = new Buffer[devices],
                c = new Buffer[devices];
        parallel(d -> {
            CudaProbe dev = probe(d);
            aLoc[d] = dev.device().allocate(new long[] {rowsPerRank, shape.k()}, shape.dtype());
            b[d] = dev.device().allocate(new long[] {shape.k(), shape.n()}, shape.dtype());
            aFull[d] = dev.device().allocate(new long[] {shape.m(), shape.k()}, shape.dtype());
            c[d] = dev.device().allocate(new long[] {shape.m(), shape.n()}, shape.dtype());
            BackendStream s = dev.device().userStream();
            dev.fill(aLoc[d], 11 + d, s);
            dev.fill(b[d], 5, s);
            dev.device().synchronize();
        });
        List<Integer> team = IntStream.range(0, devices).boxed().toList();
        IntConsumer ag = d -> probe(d).device().collective(new CollectiveCall(CommunicationType.ALLGATHER, team, -1,
                team, team, aLoc[d], aFull[d], null), probe(d).device().userStream(),
                OpInfo.of(-1, -1, "allgather", EventKind.COMMUNICATION));
        IntConsumer mm = d -> {
            CudaProbe dev = probe(d);
            dev.makeCurrent();
            dev.matmul(aFull[d], b[d], c[d], dev.device().userStream());
        };
        r.put("t_allgather", timeEvents(ag));
        r.put("t_gemm", timeEvents(mm));
        r.put("t_sequential", timeEvents(d -> {
            ag.accept(d);
            mm.accept(d);
        }));
        parallel(d -> {
            CudaProbe dev = probe(d);
            for (Buffer x : new Buffer[] {aLoc[d], b[d], aFull[d], c[d]}) dev.device().free(x, dev.device().userStream());
            dev.device().synchronize();
        });
        for (int s : new int[] {2, 4, 8}) {
            if (rowsPerRank % s != 0) continue;
            put(r, "collective S=" + s, schedule("seeds/ag_matmul", shape, Map.of("S", (long) s, "M",
                    rowsPerRank / s), Map.of("allgather", "collective", "numberOfStreams", "4")));
        }
        put(r, "p2p", schedule("seeds/ag_matmul_p2p", shape, Map.of("M", rowsPerRank),
                Map.of("allgather", "p2p", "numberOfStreams", "4")));
        put(r, "p2p offset-by-rank", schedule("seeds/ag_matmul_p2p", shape, Map.of("M", rowsPerRank),
                Map.of("allgather", "p2p", "numberOfStreams", "4", "offsetStreamIndexingByRank", "true")));
        put(r, "p2p offset-by-rank forwarded", schedule("seeds/ag_matmul_p2p", shape, Map.of("M", rowsPerRank),
                Map.of("allgather", "p2p", "numberOfStreams", "4", "offsetStreamIndexingByRank", "true",
                        "forwardLocalShard", "true")));
        return r;
    }

    /**
     * GEMM alone on GPU 0, C[M, N] = A[M, K] B[K, N] of {@code shape}, through cuBLASLt (heuristic, 32 MiB
     * workspace) and through cublasGemmEx, each with the protocol of {@code scripts/torch_gemm.py}: a second's
     * pause, 10 warm-ups, then three rounds of CUDA-event medians of 30 products. The pause makes each series
     * start from the same power state, as the script's do: an earlier version alternated the two paths without
     * pauses, ran the GPU about two and a half times as long as the script per shape, and its later rounds read up
     * to 7 % slower than its first on the same kernel (cuBLASLt's log shows PyTorch and the engine launching the
     * same algorithm).
     */
    public Map<String, List<Double>> gemmOnly(Shape shape) throws InterruptedException {
        Map<String, List<Double>> r = new LinkedHashMap<>();
        CudaProbe dev = probe(0);
        dev.makeCurrent();
        backend.setTiming(false);
        Buffer a = dev.device().allocate(new long[] {shape.m(), shape.k()}, shape.dtype());
        Buffer b = dev.device().allocate(new long[] {shape.k(), shape.n()}, shape.dtype());
        Buffer c = dev.device().allocate(new long[] {shape.m(), shape.n()}, shape.dtype());
        BackendStream s = dev.device().userStream();
        dev.fill(a, 11, s);
        dev.fill(b, 5, s);
        dev.synchronize(s);
        long e0 = dev.pooledEvent(), e1 = dev.pooledEvent();
        for (boolean lt : new boolean[] {true, false}) {
            backend.useCublasLt(lt);
            Thread.sleep(1000);
            for (int i = 0; i < 10; i++) dev.matmul(a, b, c, s);
            for (int round = 0; round < 3; round++) {
                List<Double> times = new ArrayList<>();
                for (int i = 0; i < 30; i++) {
                    dev.record(e0, s);
                    dev.matmul(a, b, c, s);
                    dev.record(e1, s);
                    dev.synchronize(s);
                    times.add((double) dev.elapsedMillis(e0, e1));
                }
                r.computeIfAbsent(lt ? "cublasLt" : "cublasGemmEx", k -> new ArrayList<>()).add(median(times));
            }
        }
        backend.useCublasLt(true);
        for (Buffer x : new Buffer[] {a, b, c}) dev.device().free(x, s);
        dev.device().synchronize();
        return r;
    }

    /** The schedules {@link #diagnose} traces, each a file {@code DTYPE_M_SCHEDULE.json}. */
    private static final String COPY_ENGINE = "p2p_copy_engine_offset", COLLECTIVE = "collective_S4",
            P2P = "p2p_offset";

    /** Every file {@link #diagnose} may write into its folder (which of them depends on the GPUs found). */
    public static List<String> diagnoseFiles() {
        return SHAPES.stream().flatMap(shape -> List.of(COPY_ENGINE, COLLECTIVE, P2P).stream()
                .map(schedule -> diagnoseFile(shape, schedule))).toList();
    }

    private static String diagnoseFile(Shape shape, String schedule) {
        return shape.dtype().fileName() + "_" + shape.m() + "_" + schedule + ".json";
    }

    /** Traces one iteration of each schedule of {@code shape} into {@code dir} (per-op events on), with summaries. */
    public void diagnose(Shape shape, Path dir) throws Exception {
        Files.createDirectories(dir);
        long rowsPerRank = shape.m() / devices;
        if (probe(0).copyEngineP2p()) {
            schedule("seeds/ag_matmul_p2p", shape, Map.of("M", rowsPerRank), Map.of("allgather", "p2p", "backend",
                    "cuda", "numberOfStreams", "4", "offsetStreamIndexingByRank", "true"), warmup, 1,
                    dir.resolve(diagnoseFile(shape, COPY_ENGINE)));
            return;
        }
        schedule("seeds/ag_matmul", shape, Map.of("S", 4L, "M", rowsPerRank / 4),
                Map.of("allgather", "collective", "numberOfStreams", "4"), warmup, 1,
                dir.resolve(diagnoseFile(shape, COLLECTIVE)));
        schedule("seeds/ag_matmul_p2p", shape, Map.of("M", rowsPerRank),
                Map.of("allgather", "p2p", "numberOfStreams", "4", "offsetStreamIndexingByRank", "true"), warmup, 1,
                dir.resolve(diagnoseFile(shape, P2P)));
    }

    /**
     * The P2P schedules with Host IR's backend=cuda (copy-engine transfers; needs a copy-engine backend), with
     * and without offset-by-rank, and with the local shard forwarded (no copy before the first GEMM).
     */
    public Map<String, Double> copyEngineSchedules(Shape shape) throws Exception {
        backend.setTiming(false);
        Map<String, Double> r = new LinkedHashMap<>();
        hostWall.clear();
        long rows = shape.m() / devices;
        for (String[] v : new String[][] {{"false", "false"}, {"true", "false"}, {"true", "true"}}) {
            String name = "p2p copy-engine" + (v[0].equals("true") ? " offset-by-rank" : "")
                    + (v[1].equals("true") ? " forwarded" : "");
            put(r, name, schedule("seeds/ag_matmul_p2p", shape, Map.of("M", rows), Map.of("allgather", "p2p",
                    "backend", "cuda", "numberOfStreams", "4", "offsetStreamIndexingByRank", v[0],
                    "forwardLocalShard", v[1])));
        }
        return r;
    }

    /**
     * Host time per dispatched Host IR node of the P2P schedule (one traced iteration after the JIT warm-up):
     * {median, mean} in microseconds, with per-op CUDA events on ({@code events}) or host bars only.
     */
    public double[] hostDispatchMicros(Shape shape, boolean events) throws Exception {
        Path trace = Files.createTempFile("dispatch", ".json"); // traced for its host bars, then deleted
        try {
            schedule("seeds/ag_matmul_p2p", shape, Map.of("M", shape.m() / devices), Map.of("allgather", "p2p"), 3, 1,
                    trace, events);
            List<Long> host = backend.timeline().events().stream().filter(e -> e.kind() == EventKind.HOST)
                    .map(e -> e.endNs() - e.startNs()).sorted().toList();
            return new double[] {host.get(host.size() / 2) / 1000.0,
                    host.stream().mapToLong(Long::longValue).average().orElse(0) / 1000.0};
        } finally {
            backend.setTiming(false);
            Files.deleteIfExists(trace);
        }
    }

    double schedule(String example, Shape shape, Map<String, Long> symbols, Map<String, String> options)
            throws Exception {
        return schedule(example, shape, symbols, options, warmup, iterations);
    }

    private double schedule(String example, Shape shape, Map<String, Long> symbols, Map<String, String> options,
                            int warm, int iters) throws Exception {
        return schedule(example, shape, symbols, options, warm, iters, null, true);
    }

    /** With {@code traceTo}, the timed iterations record per-op events, written there as a Chrome trace. */
    double schedule(String example, Shape shape, Map<String, Long> symbols, Map<String, String> options,
                    int warm, int iters, Path traceTo) throws Exception {
        return schedule(example, shape, symbols, options, warm, iters, traceTo, true);
    }

    /** The lowered programs of one schedule with their inputs on the devices. */
    private record Prepared(HostIrContainer[] programs, List<Map<Integer, Buffer>> inputs, Map<String, Long> bindings,
                            LoweringOptions options) {}

    private Prepared prepare(String example, Shape shape, Map<String, Long> symbols, Map<String, String> options)
            throws Exception {
        String text = Files.readString(examples.resolve(example + ".fusion"))
                .replace("\"float\"", "\"" + shape.dtype().fileName() + "\"");
        Map<String, Long> overrides = new HashMap<>(symbols);
        overrides.put("K", shape.k());
        overrides.put("N", shape.n());
        LoadedFusion loaded = Engine.load(new FusionSource.Text(text, example), devices, overrides);
        Map<String, Long> bindings = new HashMap<>(loaded.bindings().asMap());
        LoweringOptions lo = LoweringOptions.parse(options);
        HostIrContainer[] programs = new HostIrContainer[devices];
        List<Map<Integer, Buffer>> inputs = new ArrayList<>();
        Compilation compilation = Engine.compile(loaded, lo);
        for (int d = 0; d < devices; d++) {
            programs[d] = Engine.lowerRank(loaded, compilation, d);
            inputs.add(new HashMap<>());
        }
        parallel(d -> {
            CudaProbe dev = probe(d);
            ScalarEnv env = new ScalarEnv(bindings, d, lo.numberOfStreams());
            for (TensorView tv : programs[d].inputs()) {
                Buffer buf = dev.device().allocate(env.localShape(tv), tv.dtype());
                dev.fill(buf, tv.id() * 31L + d, dev.device().userStream());
                inputs.get(d).put(tv.id(), buf);
            }
            dev.device().synchronize();
        });
        return new Prepared(programs, inputs, bindings, lo);
    }

    private void release(Prepared p) {
        parallel(d -> {
            CudaProbe dev = probe(d);
            p.inputs().get(d).values().forEach(x -> dev.device().free(x, dev.device().userStream()));
            dev.device().synchronize();
        });
    }

    private void put(Map<String, Double> r, String name, double deviceMs) {
        r.put(name, deviceMs);
        hostWall.put(name, lastHostWall);
    }

    /** Host wall time (ms, median) of each schedule of the last {@link #run} or {@link #copyEngineSchedules}. */
    public Map<String, Double> hostWall() { return hostWall; }

    private final Map<String, Double> hostWall = new LinkedHashMap<>();
    private double lastHostWall;

    /**
     * One schedule's time: the median over {@code iters} iterations of the longest rank's device span (CUDA
     * events from before the rank's first dispatch to the end of its last stream), after {@code warm} iterations.
     * This is the protocol of the direct figures and of the PyTorch script (a few warm-ups, then iterations
     * separated by a barrier and a synchronisation), so that every row meets the GPU in the same power state:
     * a bf16 GEMM runs into the 700 W power cap within a second of sustained load, and its clock then drops from
     * 1980 MHz to about 1500 MHz. The host path is made hot first by up to 1.5 s (at most 300 iterations) of the
     * same schedule on a small problem (256 rows, K = N = 256), which leaves the GPU cool.
     */
    private double schedule(String example, Shape shape, Map<String, Long> symbols, Map<String, String> options,
                            int warm, int iters, Path traceTo, boolean events) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(devices);
        if (warm > 0) {
            Map<String, Long> small = new HashMap<>(symbols);
            long streams = symbols.getOrDefault("S", 1L);
            small.put("M", Math.max(1, 256 / streams));
            Prepared jit = prepare(example, new Shape(shape.dtype(), 256L * devices, 256, 256), small, options);
            long warmStart = System.nanoTime();
            for (int i = 0; i < 300 && System.nanoTime() - warmStart < 1_500_000_000L; i++) iteration(jit, barrier);
            release(jit);
        }
        Prepared p = prepare(example, shape, symbols, options);
        for (int i = 0; i < warm; i++) iteration(p, barrier);
        if (traceTo != null && events) backend.setTiming(true);
        if (traceTo != null && !events) backend.setHostTimingOnly();
        // the warm-up ran without events: one more iteration fills each device's event pool, so the traced one
        // records events instead of creating them (cuEventCreate inside the traced iteration inflated the host
        // bars of the first runs of this benchmark several times over)
        if (traceTo != null) iteration(p, barrier);
        List<Double> times = new ArrayList<>(), walls = new ArrayList<>(), dispatches = new ArrayList<>();
        for (int it = 0; it < iters; it++) {
            double[] t = iteration(p, barrier);
            times.add(t[0]);
            walls.add(t[1]);
            dispatches.add(t[2]);
        }
        // a schedule whose host dispatch nears its device span is dispatch-bound (issue 21)
        if (iters > 0) out.printf(Locale.ROOT, "  %s %s: device %.3f ms, host dispatch %.3f ms (medians, slowest"
                + " rank)%n", example, options, median(times), median(dispatches));
        if (traceTo != null) {
            backend.setTiming(false);
            var timeline = backend.timeline();
            AtomicFiles.write(traceTo, stream -> ChromeTraceWriter.write(timeline, Map.of("example", example,
                    "options", options.toString(), "shape", shape.label()), stream));
            out.println("  trace " + traceTo.getFileName() + ": " + example + " " + options);
            timeline.events().stream().filter(e -> e.kind() == EventKind.HOST)
                    .collect(Collectors.groupingBy(TimelineEvent::name,
                            TreeMap::new, Collectors.summarizingLong(e -> e.endNs() - e.startNs())))
                    .forEach((k, v) -> out.printf(Locale.ROOT, "    host %-32s n=%3d mean %7.2f us max %8.2f us%n", k,
                            v.getCount(), v.getAverage() / 1000, v.getMax() / 1000.0));
            OverlapFigures.of(timeline).format().lines().forEach(l -> out.println("    " + l));
            long t0 = timeline.events().stream().filter(e -> e.kind() != EventKind.HOST)
                    .mapToLong(TimelineEvent::startNs).min().orElse(0);
            timeline.events().stream().filter(e -> e.kind() != EventKind.HOST)
                    .sorted(Comparator.comparingInt(TimelineEvent::rank).thenComparingLong(TimelineEvent::startNs))
                    .forEach(e -> out.printf(Locale.ROOT, "    bar rank %d stream %d %-24s %8.3f .. %8.3f ms (%7.3f)%n",
                            e.rank(), e.stream(), e.name(), (e.startNs() - t0) / 1e6, (e.endNs() - t0) / 1e6,
                            e.durationNs() / 1e6));
        }
        release(p);
        lastHostWall = median(walls);
        return median(times);
    }

    /**
     * One iteration of every rank's evaluator: {device span of the longest rank (ms), host wall time from the
     * barrier to the last rank's end (ms), the slowest rank's host time in {@code dispatch} (ms)}.
     */
    private double[] iteration(Prepared p, CyclicBarrier barrier) {
        // every rank is synchronised here: the events of the last iteration go back to the pool
        backend.resetTimeline();
        long[] start = new long[1];
        long[] end = new long[devices];
        double[] span = new double[devices], dispatch = new double[devices];
        parallel(d -> {
            CudaProbe dev = probe(d);
            Evaluator ev = new Evaluator(p.programs()[d], dev.device(), new ScalarEnv(p.bindings(), d,
                    p.options().numberOfStreams()), p.inputs().get(d));
            long e0 = dev.pooledEvent();
            await(barrier);
            if (d == 0) start[0] = System.nanoTime();
            dev.record(e0, dev.device().userStream());
            long h0 = System.nanoTime();
            ev.dispatch();
            dispatch[d] = (System.nanoTime() - h0) / 1e6;
            List<Long> ends = new ArrayList<>();
            for (BackendStream s : dev.streams()) {
                long e = dev.pooledEvent();
                dev.record(e, s);
                ends.add(e);
            }
            dev.device().synchronize();
            end[d] = System.nanoTime();
            for (long e : ends) span[d] = Math.max(span[d], dev.elapsedMillis(e0, e));
            ev.release();
        });
        long last = 0;
        double longest = 0;
        for (int d = 0; d < devices; d++) {
            last = Math.max(last, end[d]);
            longest = Math.max(longest, span[d]);
        }
        return new double[] {longest, (last - start[0]) / 1e6, Arrays.stream(dispatch).max().orElse(0)};
    }

    double timeEvents(IntConsumer body) { return timeEvents(body, warmup, 0); }

    /**
     * The median of {@code iterations} timed runs of {@code body} on every GPU at once (after {@code warmups}
     * untimed ones), rank 0's CUDA-event time; {@code spinCycles} as in {@link #once}.
     */
    double timeEvents(IntConsumer body, int warmups, long spinCycles) {
        List<Double> times = new ArrayList<>();
        CyclicBarrier barrier = new CyclicBarrier(devices);
        for (int it = 0; it < warmups + iterations; it++) {
            double ms = once(body, spinCycles, barrier);
            if (it >= warmups) times.add(ms);
        }
        return median(times);
    }

    /**
     * {@code warmup} untimed runs of {@code body}, then {@code iterations} pairs of timed runs, the first with the
     * GPU idle and the second queued behind {@code spinCycles} (see {@link #once}), so that both series go through
     * the same power state; their medians, {idle, queued}.
     */
    double[] timeIdleAndQueued(IntConsumer body, long spinCycles) {
        List<Double> idle = new ArrayList<>(), queued = new ArrayList<>();
        CyclicBarrier barrier = new CyclicBarrier(devices);
        for (int it = 0; it < warmup; it++) once(body, 0, barrier);
        for (int it = 0; it < iterations; it++) {
            idle.add(once(body, 0, barrier));
            queued.add(once(body, spinCycles, barrier));
        }
        return new double[] {median(idle), median(queued)};
    }

    /**
     * One run of {@code body} on every GPU at once, every GPU synchronised first, CUDA events around it; rank 0's
     * time. With {@code spinCycles} > 0 each GPU first spins that many clocks ({@link CudaProbe#spin}), so the
     * events and the body queue behind it and the time is the device's alone; with 0 the GPU is idle when the
     * first event is recorded and the time includes the host's launch.
     */
    private double once(IntConsumer body, long spinCycles, CyclicBarrier barrier) {
        double[] ms = new double[1];
        backend.resetTimeline();
        parallel(d -> {
            CudaProbe dev = probe(d);
            dev.makeCurrent();
            dev.device().synchronize();
            await(barrier);
            BackendStream s = dev.device().userStream();
            long e0 = dev.pooledEvent(), e1 = dev.pooledEvent();
            if (spinCycles > 0) dev.spin(spinCycles, s);
            dev.record(e0, s);
            body.accept(d);
            dev.record(e1, s);
            dev.device().synchronize();
            if (d == 0) ms[0] = dev.elapsedMillis(e0, e1);
        });
        return ms[0];
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await();
        } catch (Exception e) {
            throw new ExecutionException("benchmark barrier: " + e);
        }
    }

    /** Runs {@code body} for every rank on its host thread, as the Runner does. */
    void parallel(IntConsumer body) {
        Map<Integer, Throwable> errors = hosts.onEveryRank(d -> {
            probe(d).makeCurrent();
            body.accept(d);
        });
        if (!errors.isEmpty()) {
            Throwable first = errors.values().iterator().next();
            throw new ExecutionException("benchmark rank failed: " + first, first);
        }
    }

    static double median(List<Double> xs) {
        List<Double> s = xs.stream().sorted().toList();
        return s.get(s.size() / 2);
    }

    static String fmt(double v) { return String.format(Locale.ROOT, "%.3f", v); }
}
