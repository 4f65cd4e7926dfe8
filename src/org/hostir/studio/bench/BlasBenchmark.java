package org.hostir.studio.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Gemm;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.ReferenceInterpreter;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;

/**
 * {@code hirstudio bench blas} (issue 17): float32 GEMM throughput of the reference interpreter, the CPU backend
 * (one device) and the Java fallback kernel beside numpy's on the same machine and shapes, then the CPU backend's
 * 2-device AG+matmul beside numpy's 1024^3 matmul, all in one invocation. numpy is Debian's, run by
 * {@code /usr/bin/python3} with {@code OPENBLAS_CORETYPE} and {@code OPENBLAS_L2_SIZE} removed from its
 * environment (they pin an older, slower kernel on some machines). The machine is shared, so every GEMM figure
 * is the best of its timed repetitions (numpy's as ours), and the AG+matmul line gives the median and the best.
 */
public final class BlasBenchmark {
    private static final String MATMUL = """
            {"format": "hostir-fusion/1", "name": "gemm", "symbols": {"M": 8, "K": 8, "N": 8},
             "tensors": [{"name": "a", "dtype": "float", "axes": ["M", "K"]},
                         {"name": "b", "dtype": "float", "axes": ["K", "N"]},
                         {"name": "c", "dtype": "float", "axes": ["M", "N", {"extent": "K", "iter": "reduction"}]}],
             "ops": [{"op": "matmul", "inputs": ["a", "b"], "output": "c"}], "inputs": ["a", "b"], "outputs": ["c"]}
            """;
    private static final String NUMPY = """
            import sys, time, numpy as np
            for n in map(int, sys.argv[1:]):
                a = np.random.rand(n, n).astype(np.float32); b = np.random.rand(n, n).astype(np.float32)
                a @ b
                ts = []
                for _ in range(5):
                    t = time.perf_counter(); a @ b; ts.append(time.perf_counter() - t)
                print(n, min(ts))
            """;

    private BlasBenchmark() {}

    /**
     * Runs every figure and prints one line each; {@code java} adds the Java kernel even where a BLAS is found.
     * numpy runs just before each of our measurements of the same size, so both see the same machine load.
     */
    public static void run(List<Integer> sizes, Path agMatmul, boolean java, PrintStream out) throws Exception {
        out.println("gemm kernel: " + Gemm.standard().describe() + "; " + Runtime.getRuntime().availableProcessors()
                + " cores; load average " + loadAverage());
        for (int n : sizes) {
            double flops = 2.0 * n * n * n;
            Double np = numpy(List.of(n), out).get(n);
            double ref = reference(n);
            double cpu = cpuBackend(n);
            String line = String.format(Locale.ROOT, "fp32 %d^3: reference %.1f GFLOP/s, cpu backend %.1f GFLOP/s",
                    n, flops / ref / 1e6, flops / cpu / 1e6);
            if (java || Gemm.blas().isEmpty()) line += String.format(Locale.ROOT, ", java kernel %.1f GFLOP/s",
                    flops / javaKernel(n) / 1e6);
            if (np != null) {
                line += String.format(Locale.ROOT, ", numpy %.1f GFLOP/s; reference at %.2f of numpy",
                        flops / np / 1e6, np / ref);
            }
            out.println(line);
        }
        if (agMatmul != null) agMatmul(agMatmul, numpy(List.of(1024), out).get(1024), out);
        out.println("load average after: " + loadAverage());
    }

    /** The 2-device AG+matmul of issue 17 on the CPU backend (M=512 K=1024 N=1024, 5 iterations after 1). */
    private static void agMatmul(Path file, Double numpy1024, PrintStream out) throws EngineFailure {
        LoadedFusion loaded = Engine.load(new FusionSource.File(file, "ag_matmul"), 2, Map.of("M", 512L, "K", 1024L,
                "N", 1024L));
        Map<String, Long> symbols = loaded.bindings().asMap();
        RunResult r = onCpu(loaded, new RunConfig(2, symbols, STREAMS, 5, 1, false, 42, 600_000));
        // the output is replicated: each rank multiplies all S * D * M rows of A by B
        double rows = symbols.get("S") * 2 * symbols.get("M");
        double flops = 2 * rows * symbols.get("K") * symbols.get("N");
        double times1024 = 2 * flops / (2.0 * 1024 * 1024 * 1024);
        double best = r.iterationMillis().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        String line = String.format(Locale.ROOT, "ag_matmul 2 devices %s: median %.1f ms, best %.1f ms (%.1f GFLOP"
                + " of matmul per rank, both ranks on this machine's cores: %.0f times a 1024^3 matmul in all)",
                symbols, r.medianMillis(), best, flops / 1e9, times1024);
        if (numpy1024 != null) line += String.format(Locale.ROOT, "; numpy 1024^3 best %.1f ms: median %.1f x,"
                + " best %.1f x numpy", numpy1024, r.medianMillis() / numpy1024, best / numpy1024);
        out.println(line);
    }

    private static double reference(int n) throws EngineFailure {
        LoadedFusion f = matmul(n);
        Map<Integer, DenseTensor> in = Inputs.generate(f.fusion(), f.bindings().asMap(), 1);
        return best(() -> ReferenceInterpreter.run(f.fusion(), in));
    }

    private static double cpuBackend(int n) throws EngineFailure {
        LoadedFusion f = matmul(n);
        RunConfig config = new RunConfig(1, f.bindings().asMap(), STREAMS, 3, 1, false, 1, 600_000);
        return onCpu(f, config).iterationMillis().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    private static final int STREAMS = LoweringOptions.DEFAULTS.numberOfStreams();

    /** {@code loaded} lowered with the default options and run on the CPU backend, through the engine. */
    private static RunResult onCpu(LoadedFusion loaded, RunConfig config) throws EngineFailure {
        try (RunStrategy cpu = RunStrategy.on(new CpuBackend(config.devices(), config.timeoutMillis()))) {
            return Engine.run(loaded, Engine.compile(loaded, LoweringOptions.DEFAULTS), config, cpu, s -> { });
        }
    }

    private static double javaKernel(int n) {
        float[] a = new float[n * n];
        float[] b = new float[n * n];
        float[] c = new float[n * n];
        Arrays.fill(a, 0.5f);
        Arrays.fill(b, 0.25f);
        return best(() -> Gemm.java().sgemm(n, n, n, a, 0, n, b, 0, n, c, 0, n));
    }

    private static LoadedFusion matmul(int n) throws EngineFailure {
        return Engine.load(new FusionSource.Text(MATMUL, "gemm.fusion"), 1,
                Map.of("M", (long) n, "K", (long) n, "N", (long) n));
    }

    /** The first three fields of /proc/loadavg (other work on the machine skews every figure), or "unknown". */
    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : "unknown";
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Milliseconds: the best of 3 runs after one warm-up. */
    private static double best(Runnable r) {
        r.run();
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            r.run();
            best = Math.min(best, (System.nanoTime() - t0) / 1e6);
        }
        return best;
    }

    /** Milliseconds per matmul by size; empty when numpy cannot be run (said on {@code out}). */
    private static Map<Integer, Double> numpy(List<Integer> sizes, PrintStream out) throws InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/python3", "-c", NUMPY));
        sizes.forEach(n -> cmd.add(Integer.toString(n)));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("OPENBLAS_CORETYPE");
        pb.environment().remove("OPENBLAS_L2_SIZE");
        Map<Integer, Double> times = new HashMap<>();
        try {
            Process p = pb.start();
            List<String> lines = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8)).lines().toList();
            int rc = p.waitFor();
            for (String l : lines) {
                String[] w = l.trim().split(" ");
                if (rc == 0 && w.length == 2) times.put(Integer.parseInt(w[0]), Double.parseDouble(w[1]) * 1e3);
            }
            if (rc != 0) out.println("numpy: /usr/bin/python3 failed (" + rc + "): " + String.join(" | ", lines));
        } catch (IOException e) {
            out.println("numpy: cannot run /usr/bin/python3: " + e.getMessage());
        }
        return times;
    }

}
