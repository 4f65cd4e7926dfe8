package org.hostir.studio.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.engine.RunStrategy;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.OverlapFigures;

/**
 * Predicted against measured: the AG+GEMM schedules of {@code bench agmm} (same seeds, symbols and options as
 * {@code AgMatmulBench}) simulated on a profile, beside the device spans measured on 2 x H200 and recorded in
 * docs/benchmarks.md ("Night of 2026-11-26", bench-agmm-2-second.log: the backend as it runs now, collectives at
 * stream priority; the first reference, "Third session of 2026-11-22", is in that file's history), read from the
 * logs themselves ({@link MeasuredLog}). Prints the error per case and, per shape, whether the predicted ranking of
 * the schedules is the measured one.
 */
public final class SimulationCheck {
    /**
     * One schedule of the bench: its label here, its name in the bench's log, its seed, its lowering options, and S
     * for the collective pipeline (else 0).
     */
    record Schedule(String label, String logged, String seed, int streamsS, Map<String, String> options) {}

    public record Shape(String dtype, long m, long k, long n) {
        String label() { return dtype + " " + m + " " + k + " " + n; }
    }

    static final List<Schedule> SCHEDULES = List.of(
            new Schedule("coll. S=2", "collective S=2", "seeds/ag_matmul", 2, Map.of("allgather", "collective")),
            new Schedule("coll. S=4", "collective S=4", "seeds/ag_matmul", 4, Map.of("allgather", "collective")),
            new Schedule("coll. S=8", "collective S=8", "seeds/ag_matmul", 8, Map.of("allgather", "collective")),
            new Schedule("p2p", "p2p", "seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p")),
            new Schedule("p2p offset", "p2p offset-by-rank", "seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p",
                    "offsetStreamIndexingByRank", "true")),
            new Schedule("p2p offset fwd", "p2p offset-by-rank forwarded", "seeds/ag_matmul_p2p", 0, Map.of(
                    "allgather", "p2p", "offsetStreamIndexingByRank", "true", "forwardLocalShard", "true")),
            new Schedule("CE p2p", "p2p copy-engine", "seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p",
                    "backend", "cuda")),
            new Schedule("CE offset", "p2p copy-engine offset-by-rank", "seeds/ag_matmul_p2p", 0, Map.of(
                    "allgather", "p2p", "backend", "cuda", "offsetStreamIndexingByRank", "true")),
            new Schedule("CE offset fwd", "p2p copy-engine offset-by-rank forwarded", "seeds/ag_matmul_p2p", 0,
                    Map.of("allgather", "p2p", "backend", "cuda", "offsetStreamIndexingByRank", "true",
                            "forwardLocalShard", "true")));

    /** The measured spans (ms) of one run of {@code bench agmm}: one row per shape, columns in SCHEDULES' order. */
    public record Measured(int devices, String defaultProfile, String log, Map<Shape, double[]> spans) {}

    /** docs/benchmarks.md, "Night of 2026-11-26", 2 x H200. */
    public static final MeasuredLog MEASURED_2X_H200 = new MeasuredLog(2, "h200x2-measured",
            "docs/data/h200x2-2026-11-26-night/bench-agmm-2-second.log");

    /** docs/benchmarks.md, 2026-11-28, 4 x H200 ({@code bench agmm --devices 4}). */
    public static final MeasuredLog MEASURED_4X_H200 = new MeasuredLog(4, "h200x4-measured",
            "docs/data/h200x4-2026-11-28/bench-agmm-4.log");

    public static final List<MeasuredLog> RUNS = List.of(MEASURED_2X_H200, MEASURED_4X_H200);

    /**
     * Seed 001's matmul+collective pipelines as {@code MatmulCollectiveBench} runs them (K-sharded matmul per Stream
     * iteration, then the collective; S = 2), beside the NCCL pipeline at S = 2 measured on 2 x H200 in the same run
     * (docs/benchmarks.md, "Night of 2026-11-26"; S = 4 is faster there now: 1.097 and 1.906 ms).
     */
    record Pipeline(String label, String seed, Map<String, Long> symbols, double measuredMs) {}

    static final List<Pipeline> PIPELINES = List.of(
            new Pipeline("matmul+Allreduce bf16 rows 8192 K 4096 N 8192, S=2", "seeds/matmul_ar",
                    Map.of("S", 2L, "M", 4096L, "K", 4096L, "N", 8192L), 1.247),
            new Pipeline("matmul+ReduceScatter bf16 rows 16384 K 4096 N 8192, S=2", "seeds/matmul_rs_through_bcast",
                    Map.of("S", 2L, "M", 4096L, "K", 4096L, "N", 8192L), 2.077));

    private SimulationCheck() {}

    /** One case's prediction: span and mean overlap ratio. */
    public record Prediction(double spanMs, double overlap) {}

    /** Simulates one schedule of {@code shape} on {@code devices} ranks of {@code profile}. */
    public static Prediction predict(Path examples, Schedule s, Shape shape, int devices, HardwareProfile profile)
            throws IOException, EngineFailure {
        long rows = shape.m() / devices;
        Map<String, Long> symbols = new HashMap<>(Map.of("K", shape.k(), "N", shape.n()));
        if (s.streamsS() > 0) {
            symbols.put("S", (long) s.streamsS());
            symbols.put("M", rows / s.streamsS());
        } else {
            symbols.put("M", rows);
        }
        return predict(examples, s.seed(), shape.dtype(), symbols, s.options(), devices, profile);
    }

    /** Simulates {@code seed} with every float tensor in {@code dtype}, 4 streams and {@code options}. */
    static Prediction predict(Path examples, String seed, String dtype, Map<String, Long> symbols,
                              Map<String, String> extraOptions, int devices, HardwareProfile profile)
            throws IOException, EngineFailure {
        String text = Files.readString(examples.resolve(seed + ".fusion")).replace("\"float\"", "\"" + dtype + "\"");
        LoadedFusion loaded = Engine.load(new FusionSource.Text(text, seed), devices, symbols);
        Map<String, String> options = new HashMap<>(extraOptions);
        options.put("numberOfStreams", "4");
        LoweringOptions lo = LoweringOptions.parse(options);
        RunConfig config = new RunConfig(devices, loaded.bindings().asMap(), lo.numberOfStreams(), 1, 0, false, 42,
                20_000);
        RunResult r;
        try (RunStrategy sim = RunStrategy.simulated(new SimBackend(devices, profile,
                lo.backend() == CommunicatorBackend.CUDA, rank -> rank < 8))) {
            r = Engine.run(loaded, Engine.compile(loaded, lo), config, sim, line -> { });
        }
        double overlap = OverlapFigures.of(r.timeline()).overlapRatio()
                .map(x -> x.mean()).orElse(0.0);
        return new Prediction(r.medianMillis(), overlap);
    }

    /** One run's comparison: predicted spans beside {@code m}'s, shape by shape (rows as in {@code m.spans()}). */
    public record Comparison(Measured measured, String profile, List<Shape> shapes, List<double[]> predicted) {
        /** Every case's signed error in percent, shape by shape, schedule by schedule. */
        public List<Double> errors() {
            List<Double> e = new ArrayList<>();
            for (int s = 0; s < shapes.size(); s++) {
                double[] m = measured.spans().get(shapes.get(s));
                for (int i = 0; i < m.length; i++) e.add(100 * (predicted.get(s)[i] - m[i]) / m[i]);
            }
            return e;
        }

        public double meanAbsError() { return errors().stream().mapToDouble(Math::abs).average().orElseThrow(); }

        public long within(double percent) { return errors().stream().filter(x -> Math.abs(x) <= percent).count(); }

        /** Per shape: whether the predicted fastest schedule is the measured fastest. */
        public boolean sameBest(int shape) {
            return best(measured.spans().get(shapes.get(shape))) == best(predicted.get(shape));
        }

        /** Per shape: the pairs of schedules the prediction orders as the measurement does. */
        public int pairsAlike(int shape) { return concordant(measured.spans().get(shapes.get(shape)),
                predicted.get(shape)); }
    }

    /** Simulates every schedule of every shape of {@code m} on {@code profile}. */
    public static Comparison compare(Path examples, Measured m, HardwareProfile profile)
            throws IOException, EngineFailure {
        List<Shape> shapes = m.spans().keySet().stream().sorted(Comparator.comparingDouble(
                (Shape x) -> -m.spans().get(x)[0])).toList();
        List<double[]> predicted = new ArrayList<>();
        for (Shape shape : shapes) {
            double[] p = new double[SCHEDULES.size()];
            for (int i = 0; i < p.length; i++) p[i] = predict(examples, SCHEDULES.get(i), shape, m.devices(),
                    profile).spanMs();
            predicted.add(p);
        }
        return new Comparison(m, profile.name(), shapes, predicted);
    }

    /** The table of docs/simulation.md for one run, its mean error and its ranking agreement. */
    public static void print(Comparison c, PrintStream out) {
        out.printf(Locale.ROOT, "D = %d (%s):%n", c.measured().devices(), c.measured().log());
        out.println("| shape | schedule | measured ms | predicted ms | error |");
        out.println("|---|---|---|---|---|");
        List<Double> errors = c.errors();
        for (int s = 0; s < c.shapes().size(); s++) {
            double[] m = c.measured().spans().get(c.shapes().get(s));
            for (int i = 0; i < m.length; i++) {
                out.printf(Locale.ROOT, "| %s | %s | %.3f | %.3f | %+.1f %% |%n", c.shapes().get(s).label(),
                        SCHEDULES.get(i).label(), m[i], c.predicted().get(s)[i], errors.get(s * m.length + i));
            }
        }
        out.printf(Locale.ROOT, "D = %d: mean absolute error %.1f %% over %d cases, %d within 10 %% (profile %s)%n",
                c.measured().devices(), c.meanAbsError(), errors.size(), c.within(10), c.profile());
        for (int s = 0; s < c.shapes().size(); s++) {
            double[] m = c.measured().spans().get(c.shapes().get(s));
            out.println(c.shapes().get(s).label() + ": measured best " + SCHEDULES.get(best(m)).label()
                    + ", predicted best " + SCHEDULES.get(best(c.predicted().get(s))).label() + "; pairs ordered alike "
                    + c.pairsAlike(s) + " of " + m.length * (m.length - 1) / 2);
        }
    }

    /**
     * Prints the tables of docs/simulation.md, D = 2 and D = 4, each on its measured profile unless
     * {@code override} names one for both; returns the comparisons. The measured spans are read from the logs under
     * {@code home}, all of them before anything is printed.
     */
    public static List<Comparison> run(Path home, Path examples, HardwareProfile override, PrintStream out)
            throws IOException, EngineFailure {
        List<Measured> runs = new ArrayList<>();
        for (MeasuredLog log : RUNS) runs.add(log.read(home));
        List<Comparison> all = new ArrayList<>();
        HardwareProfile two = null;
        for (Measured m : runs) {
            HardwareProfile p = override != null ? override : ProfileFiles.builtIn(m.defaultProfile());
            if (m.devices() == 2) two = p;
            Comparison c = compare(examples, m, p);
            print(c, out);
            out.println();
            all.add(c);
        }
        for (Pipeline p : PIPELINES) {
            double predicted = predict(examples, p.seed(), "bfloat16", p.symbols(), Map.of(), 2, two).spanMs();
            out.printf(Locale.ROOT, "| %s | measured %.3f | predicted %.3f | %+.1f %% |%n", p.label(), p.measuredMs(),
                    predicted, 100 * (predicted - p.measuredMs()) / p.measuredMs());
        }
        return all;
    }

    private static int best(double[] v) {
        int b = 0;
        for (int i = 1; i < v.length; i++) if (v[i] < v[b]) b = i;
        return b;
    }

    /** How many pairs of schedules the prediction orders as the measurement does. */
    private static int concordant(double[] a, double[] b) {
        int c = 0;
        for (int i = 0; i < a.length; i++) {
            for (int j = i + 1; j < a.length; j++) if (Math.signum(a[i] - a[j]) == Math.signum(b[i] - b[j])) c++;
        }
        return c;
    }
}
