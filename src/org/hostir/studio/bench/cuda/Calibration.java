package org.hostir.studio.bench.cuda;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

import org.hostir.studio.bench.ProfileFit;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunStrategy;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.CollectiveCall;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.P2PCall;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.cuda.CudaProbe;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;

/**
 * {@code hirstudio calibrate}: measures a profile's constants on this machine's GPUs with the CUDA backend
 * (docs/simulation.md, "Calibration"): a GEMM sweep (square bf16 GEMMs, efficiency against the base profile's
 * peak), device copies (memory bandwidth, launch cost), an Allgather sweep over all GPUs (NVLink alpha-beta), peer
 * copies (copy-engine alpha-beta) and the host's dispatch cost per Host IR node kind (the P2P and collective AG+GEMM
 * seeds at a small size, through the Runner). Times are CUDA-event medians of {@code bench agmm}'s protocol.
 * Contention and the network are not measured: they stay the base profile's, and the written source says so.
 */
public final class Calibration {
    static final long[] MESSAGE_BYTES = {1L << 20, 1L << 23, 1L << 26, 1L << 28, 1L << 30};
    /** The NCCL send/recv timed: a 2-rank P2P chunk of bench agmm's small shape (8192 / 2 rows x 4096, bf16). */
    static final long SEND_RECV_BYTES = 32L << 20;
    /**
     * Warm-up iterations before the dispatch is timed: the bench's host means come after its schedules have run for
     * seconds, and 5 iterations left the JIT cold (2 x H200, 2026-11-26: HostOp 59 us against the bench's 18); 200
     * still gave 53 us where the same session's bench runs had 15.6-30.4 (2 x H200, 2026-11-29).
     */
    static final int DISPATCH_WARMUP = 2000;
    /**
     * Runs whose last iteration's host events make the dispatch sample: a run's timeline keeps only its last
     * iteration (RunResult), so one run gave one iteration's nodes (HostOp n = 4 on one GPU); later runs reuse the
     * warm JIT and warm up {@link #DISPATCH_REWARM} iterations each.
     */
    static final int DISPATCH_RUNS = 20;
    static final int DISPATCH_REWARM = 20;
    /** How many 1 MiB copies the launch series queue: the host enqueues 32 well within the blocker's time. */
    static final int[] LAUNCH_COUNTS = {1, 2, 4, 8, 16, 32};
    /** The copy the queued series wait behind (about 0.65 ms on an H200), so that its events time the device alone. */
    static final long LAUNCH_BLOCKER_BYTES = 1L << 30;
    /**
     * Untimed runs of each probe's body before its timed ones (was 5). The timed interval of the bench's protocol
     * holds the host's launch, and at 5 the host path was still cold: the first 2 x H200 run of 2026-11-29 timed the
     * small GEMM alone at 455 us where the same session's three bench agmm runs had 362-380 us (docs/simulation.md,
     * "Why calibrate's constants differed").
     */
    static final int PROBE_WARMUP = 50;
    /**
     * Untimed runs of the small GEMM, a 1 MiB copy and a 1 MiB Allgather before any probe (about 5 s), so that the
     * host's launch path is compiled: in one process of bench agmm --like-with-like (2 x H200, 2026-11-29) the small
     * GEMM's idle time less its queued one (the host's part) fell from 35-69 us in the first run to 15-30 us in the
     * third, the device's part 0.347 ms throughout; a few thousand launches per thread were not enough.
     */
    static final int PROCESS_WARMUP = 10_000;

    private Calibration() {}

    public static HardwareProfile run(Path examples, int devices, HardwareProfile base, String name, PrintStream out)
            throws Exception {
        List<ProfileFit.GemmTime> gemm = new ArrayList<>();
        List<Double> queued = new ArrayList<>();
        double[] memory;
        HardwareProfile.Link nvlink = null, copyEngine = null, sendRecv = null;
        Map<String, Double> dispatch;
        try (CudaBackend backend = new CudaBackend(devices, 120_000);
             AgMatmulBench bench = new AgMatmulBench(backend, examples, 20, PROBE_WARMUP, out)) {
            backend.setTiming(false);
            warmProcess(bench, devices, out);
            for (AgMatmulBench.Shape s : AgMatmulBench.SHAPES) {
                double[] ms = gemmMs(bench, devices, s);
                gemm.add(new ProfileFit.GemmTime(s.dtype(), s.m(), s.k(), s.n(), 1000 * ms[0]));
                queued.add(1000 * ms[1]);
            }
            out.println("gemm alone (dtype m k n: us): " + gemm.stream().map(t -> String.format(Locale.ROOT,
                    "%s %d %d %d: %.1f", t.dtype().fileName(), t.m(), t.k(), t.n(), t.us())).toList()
                    + " from an idle GPU (fitted: the bench's t_gemm protocol); queued behind a spin (the device"
                    + " alone): " + queued.stream().map(us -> String.format(Locale.ROOT, "%.1f", us)).toList());
            memory = memory(bench, devices, out);
            if (devices > 1) {
                HardwareProfile.Link perStep = allgather(bench, devices, out);
                sendRecv = ProfileFit.sendRecv(SEND_RECV_BYTES, sendRecvUs(bench, out), perStep);
                nvlink = ProfileFit.ncclRing(perStep, devices - 1);
            }
            dispatch = dispatch(examples, devices, backend, out);
        }
        if (devices > 1) {
            try (CudaBackend backend = new CudaBackend(devices, 120_000, true);
                 AgMatmulBench bench = new AgMatmulBench(backend, examples, 20, PROBE_WARMUP, out)) {
                backend.setTiming(false);
                copyEngine = peerCopies(bench, out);
            }
        }
        double peak = base.gemm().peakTflops().get(DataType.BFLOAT16);
        return ProfileFit.apply(base, new ProfileFit.Measured(name, "measured by hirstudio calibrate on " + devices
                + " GPU" + (devices == 1 ? "" : "s"), ProfileFit.gemm(base.gemm(), gemm, memory[1], memory[0]),
                nvlink, copyEngine, sendRecv, dispatch, "hirstudio calibrate: GEMMs alone at bench agmm's shapes"
                + " (bf16 efficiency against " + peak + " TF/s after the launch, effective peaks of the other dtypes"
                + " on that curve), device copies," + (devices > 1 ? " Allgather sweep (relative least squares), an"
                + " NCCL send/recv of " + (SEND_RECV_BYTES >> 20) + " MiB, peer copies," : "")
                + " dispatch of the AG+GEMM seeds after " + DISPATCH_WARMUP + " warm-up iterations"));
    }

    /**
     * One GEMM of the bench's shape alone, in ms: {from an idle GPU, queued behind a spin}, medians over the bench's
     * iterations. The idle one is {@code bench agmm}'s t_gemm protocol, from which the built-in profiles' curves come;
     * the queued one is printed beside it (their difference is the host's launch inside the idle interval).
     */
    private static double[] gemmMs(AgMatmulBench bench, int devices, AgMatmulBench.Shape s) {
        Buffer[][] abc = new Buffer[devices][];
        bench.parallel(d -> {
            CudaProbe p = bench.probe(d);
            abc[d] = new Buffer[] {p.device().allocate(new long[] {s.m(), s.k()}, s.dtype()),
                    p.device().allocate(new long[] {s.k(), s.n()}, s.dtype()),
                    p.device().allocate(new long[] {s.m(), s.n()}, s.dtype())};
            p.fill(abc[d][0], 1 + d, p.device().userStream());
            p.fill(abc[d][1], 2 + d, p.device().userStream());
            p.device().synchronize();
        });
        double[] ms = bench.timeIdleAndQueued(d -> bench.probe(d).matmul(abc[d][0], abc[d][1], abc[d][2],
                bench.probe(d).device().userStream()), GemmLikeWithLike.SPIN_CYCLES);
        free(bench, abc);
        return ms;
    }

    /**
     * Runs the small shape's GEMM, a 1 MiB device copy and (on more than one GPU) a 1 MiB Allgather
     * {@link #PROCESS_WARMUP} times each, untimed, before any probe: {@code bench agmm}'s figures, which the built-in
     * profiles hold, were taken in a process that had run its schedules for seconds, and calibrate's probes come first
     * in a fresh one. Prints how long it took: the log is then the evidence that it ran (at about 0.4 ms a run,
     * 4-5 s).
     */
    private static void warmProcess(AgMatmulBench bench, int devices, PrintStream out) {
        long start = System.nanoTime();
        AgMatmulBench.Shape s = AgMatmulBench.SHAPES.getLast();
        Buffer[][] abc = new Buffer[devices][];
        bench.parallel(d -> {
            CudaProbe p = bench.probe(d);
            abc[d] = new Buffer[] {p.device().allocate(new long[] {s.m(), s.k()}, s.dtype()),
                    p.device().allocate(new long[] {s.k(), s.n()}, s.dtype()),
                    p.device().allocate(new long[] {s.m(), s.n()}, s.dtype()),
                    p.device().allocate(new long[] {1L << 19}, DataType.BFLOAT16),
                    p.device().allocate(new long[] {(1L << 19) * devices}, DataType.BFLOAT16),
                    p.device().allocate(new long[] {1L << 19}, DataType.BFLOAT16)};
            p.device().synchronize();
        });
        List<Integer> team = IntStream.range(0, devices).boxed().toList();
        bench.timeEvents(d -> {
            CudaProbe p = bench.probe(d);
            p.matmul(abc[d][0], abc[d][1], abc[d][2], p.device().userStream());
            p.copy(abc[d][5], abc[d][3], p.device().userStream());
            if (devices > 1) p.device().collective(new CollectiveCall(CommunicationType.ALLGATHER, team, -1, team,
                    team, abc[d][3], abc[d][4], null), p.device().userStream(),
                    OpInfo.of(-1, -1, "allgather", EventKind.COMMUNICATION));
        }, PROCESS_WARMUP, 0);
        out.printf(Locale.ROOT, "warm-up: %d untimed runs of the small GEMM, a 1 MiB copy%s in %.1f s%n",
                PROCESS_WARMUP, devices > 1 ? " and a 1 MiB Allgather" : "", (System.nanoTime() - start) / 1e9);
        free(bench, abc);
    }

    /**
     * {memory GB/s, launch us}: the bandwidth from device copies of 256 MiB and 1 MiB (their difference: a fixed cost
     * of the timed call cancels), the launch from series of 1 MiB copies ({@link ProfileFit#launch}). One 1 MiB copy
     * timed alone (before 2026-11-29: 17.3 us on 4 x H200) also holds the host's launch latency and the
     * synchronisation, which the simulator counts as the node's dispatch: the slope of copies queued behind a long
     * one is what the device adds per kernel.
     */
    private static double[] memory(AgMatmulBench bench, int devices, PrintStream out) {
        double[] us = new double[2];
        long[] bytes = {1L << 28, 1L << 20};
        for (int i = 0; i < 2; i++) {
            Buffer[][] buf = pairs(bench, devices, bytes[i]);
            us[i] = 1000 * bench.timeEvents(d -> bench.probe(d).copy(buf[d][1], buf[d][0],
                    bench.probe(d).device().userStream()));
            free(bench, buf);
        }
        double gbps = 2.0 * (bytes[0] - bytes[1]) / (us[0] - us[1]) / 1e3;
        Buffer[][] small = pairs(bench, devices, bytes[1]), blocker = pairs(bench, devices, LAUNCH_BLOCKER_BYTES);
        List<ProfileFit.Point> idle = new ArrayList<>(), queued = new ArrayList<>();
        for (int n : LAUNCH_COUNTS) {
            IntConsumer copies = d -> {
                for (int c = 0; c < n; c++) {
                    bench.probe(d).copy(small[d][1], small[d][0], bench.probe(d).device().userStream());
                }
            };
            idle.add(new ProfileFit.Point(n, 1000 * bench.timeEvents(copies)));
            queued.add(new ProfileFit.Point(n, 1000 * bench.timeEvents(d -> {
                bench.probe(d).copy(blocker[d][1], blocker[d][0], bench.probe(d).device().userStream());
                copies.accept(d);
            })));
        }
        free(bench, small);
        free(bench, blocker);
        ProfileFit.LaunchFit fit = ProfileFit.launch(idle, queued, bytes[1], gbps);
        out.printf(Locale.ROOT, "launch: 1 MiB copies (N, us) from an idle stream %s, queued behind a %d MiB copy %s;"
                + " host launch + sync %.1f us (intercept), %.2f us per queued copy, launch %.2f us (at %.0f GB/s)%n",
                describe(idle), LAUNCH_BLOCKER_BYTES >> 20, describe(queued), fit.hostUs(), fit.perCopyUs(),
                fit.launchUs(), gbps);
        return new double[] {gbps, fit.launchUs()};
    }

    /** Two bf16 buffers of {@code bytes} on every device. */
    private static Buffer[][] pairs(AgMatmulBench bench, int devices, long bytes) {
        Buffer[][] buf = new Buffer[devices][];
        bench.parallel(d -> {
            CudaProbe p = bench.probe(d);
            buf[d] = new Buffer[] {p.device().allocate(new long[] {bytes / 2}, DataType.BFLOAT16),
                    p.device().allocate(new long[] {bytes / 2}, DataType.BFLOAT16)};
            p.device().synchronize();
        });
        return buf;
    }

    private static HardwareProfile.Link allgather(AgMatmulBench bench, int devices, PrintStream out) {
        List<Integer> team = IntStream.range(0, devices).boxed().toList();
        List<ProfileFit.Point> points = new ArrayList<>();
        for (long total : MESSAGE_BYTES) {
            long out1 = total / 2, in1 = out1 / devices;
            Buffer[][] buf = new Buffer[devices][];
            bench.parallel(d -> {
                CudaProbe p = bench.probe(d);
                buf[d] = new Buffer[] {p.device().allocate(new long[] {in1}, DataType.BFLOAT16),
                        p.device().allocate(new long[] {in1 * devices}, DataType.BFLOAT16)};
                p.device().synchronize();
            });
            double us = 1000 * bench.timeEvents(d -> bench.probe(d).device().collective(new CollectiveCall(
                    CommunicationType.ALLGATHER, team, -1, team, team, buf[d][0], buf[d][1], null),
                    bench.probe(d).device().userStream(), OpInfo.of(-1, -1, "allgather", EventKind.COMMUNICATION)));
            points.add(new ProfileFit.Point(in1 * devices * 2.0, us));
            free(bench, buf);
        }
        out.println("allgather (bytes, us): " + describe(points));
        return ProfileFit.alphaBeta(points, devices - 1, (devices - 1.0) / devices);
    }

    /**
     * Ranks 0 and 1 exchange {@link #SEND_RECV_BYTES} over NCCL, each sending to and receiving from the other in one
     * group, as a step of the P2P schedule does and as the traced receive bars the built-in profiles took their rate
     * from (rank 0's recv from 1 beside its send to 1); the others idle; in us. A send in one direction alone is
     * printed beside it: on 2 x H200 (2026-11-29) it took 196 us, 275 GB/s after the latency, where the exchange's
     * traced receive bars moved at 152-183 GB/s (2026-11-26, 2026-11-29).
     */
    private static double sendRecvUs(AgMatmulBench bench, PrintStream out) {
        Buffer[][] buf = new Buffer[2][];
        bench.parallel(d -> {
            if (d > 1) return;
            buf[d] = new Buffer[] {bench.probe(d).device().allocate(new long[] {SEND_RECV_BYTES / 2},
                    DataType.BFLOAT16), bench.probe(d).device().allocate(new long[] {SEND_RECV_BYTES / 2},
                    DataType.BFLOAT16)};
            bench.probe(d).device().synchronize();
        });
        double oneWay = 1000 * bench.timeEvents(d -> {
            if (d > 1) return;
            CudaProbe p = bench.probe(d);
            p.device().pointToPoint(List.of(new P2PCall(d == 0 ? P2PCommunication.Type.SEND
                    : P2PCommunication.Type.RECV, buf[d][0], 1 - d)), p.device().userStream(),
                    OpInfo.of(-1, -1, "send/recv", EventKind.COMMUNICATION));
        });
        double exchange = 1000 * bench.timeEvents(d -> {
            if (d > 1) return;
            CudaProbe p = bench.probe(d);
            p.device().pointToPoint(List.of(new P2PCall(P2PCommunication.Type.SEND, buf[d][0], 1 - d),
                    new P2PCall(P2PCommunication.Type.RECV, buf[d][1], 1 - d)), p.device().userStream(),
                    OpInfo.of(-1, -1, "send/recv", EventKind.COMMUNICATION));
        });
        bench.parallel(d -> {
            if (d > 1) return;
            for (Buffer b : buf[d]) bench.probe(d).device().free(b, bench.probe(d).device().userStream());
            bench.probe(d).device().synchronize();
        });
        out.printf(Locale.ROOT, "nccl send/recv of %d bytes: %.1f us exchanged both ways in one group (fitted), %.1f us"
                + " one way alone%n", SEND_RECV_BYTES, exchange, oneWay);
        return exchange;
    }

    /** Rank 0 copies from rank 1 over the copy engines. */
    private static HardwareProfile.Link peerCopies(AgMatmulBench bench, PrintStream out) {
        List<ProfileFit.Point> points = new ArrayList<>();
        CudaProbe p0 = bench.probe(0), p1 = bench.probe(1);
        for (long bytes : MESSAGE_BYTES) {
            Buffer[] buf = new Buffer[2];
            bench.parallel(d -> {
                if (d > 1) return;
                buf[d] = bench.probe(d).device().allocate(new long[] {bytes / 2}, DataType.BFLOAT16);
                bench.probe(d).device().synchronize();
            });
            double us = 1000 * bench.timeEvents(d -> {
                if (d == 0) p0.copyFromPeer(buf[0], p1, buf[1], p0.device().userStream());
            });
            points.add(new ProfileFit.Point(bytes, us));
            bench.parallel(d -> {
                if (d > 1) return;
                bench.probe(d).device().free(buf[d], bench.probe(d).device().userStream());
                bench.probe(d).device().synchronize();
            });
        }
        out.println("peer copy (bytes, us): " + describe(points));
        return ProfileFit.alphaBeta(points, 1, 1);
    }

    /** Median host time per node kind of both AG+GEMM seeds at bench agmm's small shape (bf16 8192 4096 4096). */
    private static Map<String, Double> dispatch(Path examples, int devices, CudaBackend backend, PrintStream out)
            throws Exception {
        backend.setHostTimingOnly();   // the host's cost per node without the timing events around each op
        Map<String, List<Double>> byKind = new TreeMap<>();
        for (String[] seed : new String[][] {{"seeds/ag_matmul_p2p", "p2p"}, {"seeds/ag_matmul", "collective"}}) {
            String text = Files.readString(examples.resolve(seed[0] + ".fusion")).replace("\"float\"",
                    "\"bfloat16\"");
            // bench agmm's small shape, bf16 8192 4096 4096, whose P2P schedule's host means the built-in profiles hold
            long rows = 8192L / devices;
            Map<String, Long> symbols = new HashMap<>(Map.of("M", rows, "K", 4096L, "N", 4096L));
            if (seed[1].equals("collective")) symbols.putAll(Map.of("S", 2L, "M", rows / 2));
            LoadedFusion loaded = Engine.load(new FusionSource.Text(text, seed[0]), devices, symbols);
            LoweringOptions options = LoweringOptions.parse(Map.of("allgather", seed[1]));
            var compiled = Engine.compile(loaded, options);
            for (int run = 0; run < DISPATCH_RUNS; run++) {
                RunConfig config = new RunConfig(devices, loaded.bindings().asMap(), options.numberOfStreams(), 1,
                        run == 0 ? DISPATCH_WARMUP : DISPATCH_REWARM, false, 42, 60_000);
                RunResult r = Engine.run(loaded, compiled, config, RunStrategy.on(backend), line -> { });
                for (TimelineEvent e : r.timeline().events()) {   // the backend stays open: the caller's
                    if (e.kind() == EventKind.HOST) byKind.computeIfAbsent(e.name().replace("dispatch ", ""),
                            k -> new ArrayList<>()).add(e.durationNs() / 1000.0);
                }
            }
        }
        Map<String, Double> medians = new TreeMap<>();
        List<Double> all = new ArrayList<>();
        byKind.forEach((k, v) -> {
            medians.put(k, median(v));
            all.addAll(v);
        });
        medians.put("default", median(all));
        out.println("dispatch medians (us): " + medians);
        Map<String, String> spread = new TreeMap<>(); // why a median differs from the bench's mean of one iteration
        byKind.forEach((k, v) -> spread.put(k, String.format(Locale.ROOT, "n %d mean %.2f min %.2f max %.2f", v.size(),
                v.stream().mapToDouble(Double::doubleValue).average().orElse(0), v.stream().mapToDouble(
                Double::doubleValue).min().orElse(0), v.stream().mapToDouble(Double::doubleValue).max().orElse(0))));
        out.println("dispatch spread (us): " + spread);
        return medians;
    }

    private static double median(List<Double> v) {
        List<Double> sorted = v.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static String describe(List<ProfileFit.Point> points) {
        StringBuilder sb = new StringBuilder();
        for (ProfileFit.Point p : points) sb.append(String.format(Locale.ROOT, "(%.0f, %.1f) ", p.x(), p.us()));
        return sb.toString().strip();
    }

    private static void free(AgMatmulBench bench, Buffer[][] buffers) {
        bench.parallel(d -> {
            CudaProbe p = bench.probe(d);
            for (Buffer b : buffers[d]) p.device().free(b, p.device().userStream());
            p.device().synchronize();
        });
    }
}
