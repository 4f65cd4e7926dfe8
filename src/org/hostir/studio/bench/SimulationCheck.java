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
 * stream priority; the first reference, "Third session of 2026-11-22", is in that file's history). Prints the error
 * per case and, per shape, whether the predicted ranking of the schedules is the measured one.
 */
public final class SimulationCheck {
    /** One schedule of the bench: its seed, its lowering options, and S for the collective pipeline (else 0). */
    record Schedule(String label, String seed, int streamsS, Map<String, String> options) {}

    record Shape(String dtype, long m, long k, long n) {
        String label() { return dtype + " " + m + " " + k + " " + n; }
    }

    static final List<Schedule> SCHEDULES = List.of(
            new Schedule("coll. S=2", "seeds/ag_matmul", 2, Map.of("allgather", "collective")),
            new Schedule("coll. S=4", "seeds/ag_matmul", 4, Map.of("allgather", "collective")),
            new Schedule("coll. S=8", "seeds/ag_matmul", 8, Map.of("allgather", "collective")),
            new Schedule("p2p", "seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p")),
            new Schedule("p2p offset", "seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p",
                    "offsetStreamIndexingByRank", "true")),
            new Schedule("p2p offset fwd", "seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p",
                    "offsetStreamIndexingByRank", "true", "forwardLocalShard", "true")),
            new Schedule("CE p2p", "seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p", "backend", "cuda")),
            new Schedule("CE offset", "seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p", "backend", "cuda",
                    "offsetStreamIndexingByRank", "true")),
            new Schedule("CE offset fwd", "seeds/ag_matmul_p2p", 0, Map.of("allgather", "p2p", "backend", "cuda",
                    "offsetStreamIndexingByRank", "true", "forwardLocalShard", "true")));

    /** The measured spans (ms) of docs/benchmarks.md, one row per shape, columns in {@link #SCHEDULES}' order. */
    static final Map<Shape, double[]> MEASURED_2X_H200 = Map.of(
            new Shape("float", 32768, 32768, 1024),
            new double[] {46.985, 47.976, 47.005, 44.523, 44.196, 48.088, 43.473, 43.094, 41.915},
            new Shape("bfloat16", 32768, 8192, 8192),
            new double[] {6.792, 6.766, 6.867, 6.781, 7.007, 6.938, 6.492, 6.556, 6.330},
            new Shape("bfloat16", 16384, 8192, 4096),
            new double[] {1.873, 1.745, 1.828, 1.996, 1.972, 1.926, 1.582, 1.515, 1.442},
            new Shape("bfloat16", 8192, 4096, 4096),
            new double[] {0.547, 0.592, 0.603, 0.566, 0.576, 0.552, 0.483, 0.415, 0.397});

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

    /** Prints the table of docs/simulation.md; returns the mean absolute error in percent. */
    public static double run(Path examples, HardwareProfile profile, PrintStream out)
            throws IOException, EngineFailure {
        out.println("| shape | schedule | measured ms | predicted ms | error |");
        out.println("|---|---|---|---|---|");
        double sum = 0;
        int n = 0;
        List<Shape> shapes = MEASURED_2X_H200.keySet().stream().sorted(Comparator.comparingDouble(
                (Shape x) -> -MEASURED_2X_H200.get(x)[0])).toList();
        List<String> rankings = new ArrayList<>();
        for (Shape shape : shapes) {
            double[] measured = MEASURED_2X_H200.get(shape);
            double[] predicted = new double[measured.length];
            for (int i = 0; i < SCHEDULES.size(); i++) {
                predicted[i] = predict(examples, SCHEDULES.get(i), shape, 2, profile).spanMs();
                double error = 100 * (predicted[i] - measured[i]) / measured[i];
                sum += Math.abs(error);
                n++;
                out.printf(Locale.ROOT, "| %s | %s | %.3f | %.3f | %+.1f %% |%n", shape.label(),
                        SCHEDULES.get(i).label(), measured[i], predicted[i], error);
            }
            rankings.add(shape.label() + ": measured best " + SCHEDULES.get(best(measured)).label()
                    + ", predicted best " + SCHEDULES.get(best(predicted)).label() + "; pairs ordered alike "
                    + concordant(measured, predicted) + " of " + measured.length * (measured.length - 1) / 2);
        }
        out.printf(Locale.ROOT, "mean absolute error %.1f %% over %d cases (profile %s)%n", sum / n, n,
                profile.name());
        rankings.forEach(out::println);
        for (Pipeline p : PIPELINES) {
            double predicted = predict(examples, p.seed(), "bfloat16", p.symbols(), Map.of(), 2, profile).spanMs();
            out.printf(Locale.ROOT, "| %s | measured %.3f | predicted %.3f | %+.1f %% |%n", p.label(), p.measuredMs(),
                    predicted, 100 * (predicted - p.measuredMs()) / p.measuredMs());
        }
        return sum / n;
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
