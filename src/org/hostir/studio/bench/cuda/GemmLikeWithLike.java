package org.hostir.studio.bench.cuda;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.ir.DataType;

/**
 * {@code bench agmm --like-with-like} (issue 38.2): the engine's GEMM and {@code torch.matmul} timed under the same
 * conditions, so that a ratio of the two is a ratio of kernels and not of power states. On every GPU at once (as
 * the AG+GEMM bench's GEMM column runs), per shape, in rounds that alternate which side goes first (ABBA, so a
 * drift over the run falls on both): before each block the same idle pause, then the same warm-up and the same
 * number of timed products, timed the same way (every GPU synchronised, CUDA events around each product, rank 0's
 * median; PyTorch through {@code scripts/torch_gemm.py --serve}, a process kept running so that no start-up sits
 * between the blocks), with each GPU's SM clock, power and temperature read by {@code nvidia-smi} before and after
 * the block. The figure per side is the median of its block medians; the check is |ours / torch - 1| <= 3 %, for
 * each of {@code runs} consecutive runs in one invocation.
 */
public final class GemmLikeWithLike {
    /** The tolerance of the check, as a fraction. */
    static final double TOLERANCE = 0.03;
    /** The idle time before every block: each side starts from the same power state. */
    static final long PAUSE_MS = 1000;

    private final AgMatmulBench bench;
    private final int devices;
    private final int rounds;
    private final long pauseMs;
    private final int warmup;
    private final int iterations;
    private final PrintStream out;

    private GemmLikeWithLike(AgMatmulBench bench, int devices, int rounds, long pauseMs, int warmup, int iterations,
                             PrintStream out) {
        this.bench = bench;
        this.devices = devices;
        this.rounds = rounds;
        this.pauseMs = pauseMs;
        this.warmup = warmup;
        this.iterations = iterations;
        this.out = out;
    }

    /** Runs the comparison {@code runs} times on {@code devices} GPUs; prints every block and the check. */
    public static int run(Path torchScript, int devices, int runs, int rounds, int warmup, int iterations,
                          PrintStream out) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("python3", torchScript.toString(), "--serve", Integer.toString(devices))
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        out.println("like-with-like: " + devices + " GPU(s), " + runs + " runs of " + rounds + " rounds per shape,"
                + " sides alternating first; before each block " + PAUSE_MS + " ms idle, " + warmup + " warm-ups, "
                + iterations + " timed products (rank 0's median); torch: python3 " + torchScript.getFileName()
                + " --serve " + devices);
        Process torch = pb.start();
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        try (CudaBackend backend = new CudaBackend(devices, 120_000);
             AgMatmulBench bench = new AgMatmulBench(backend, Path.of("."), iterations, warmup, out);
             Torch side = new Torch(torch)) {
            GemmLikeWithLike b = new GemmLikeWithLike(bench, devices, rounds, PAUSE_MS, warmup, iterations, out);
            for (int run = 1; run <= runs; run++) {
                out.println("run " + run + " of " + runs + ":");
                for (AgMatmulBench.Shape shape : AgMatmulBench.SHAPES) {
                    ratios.computeIfAbsent(shape.label(), k -> new ArrayList<>()).add(b.shape(shape, side));
                }
            }
        }
        summary(ratios, runs, out);
        return 0;
    }

    /** One shape's rounds; returns ours / torch (medians of the block medians). */
    private double shape(AgMatmulBench.Shape shape, Torch torch) throws Exception {
        Buffer[] a = new Buffer[devices], b = new Buffer[devices], c = new Buffer[devices];
        bench.parallel(d -> {
            var dev = bench.probe(d);
            a[d] = dev.device().allocate(new long[] {shape.m(), shape.k()}, shape.dtype());
            b[d] = dev.device().allocate(new long[] {shape.k(), shape.n()}, shape.dtype());
            c[d] = dev.device().allocate(new long[] {shape.m(), shape.n()}, shape.dtype());
            dev.fill(a[d], 11 + d, dev.device().userStream()); // standard normal, as torch.randn
            dev.fill(b[d], 5, dev.device().userStream());
            dev.device().synchronize();
        });
        torch.ask(String.format(Locale.ROOT, "{\"cmd\": \"shape\", \"dtype\": \"%s\", \"M\": %d, \"K\": %d, \"N\": %d}",
                shape.dtype() == DataType.FLOAT ? "float32" : shape.dtype().fileName(),
                shape.m(), shape.k(), shape.n()));
        out.println("| " + shape.label() + " | round | side | ms | clocks before | clocks after |");
        out.println("|---|---|---|---|---|---|");
        List<Double> ours = new ArrayList<>(), theirs = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            boolean oursFirst = round % 4 == 0 || round % 4 == 3; // ABBA
            for (int k = 0; k < 2; k++) {
                boolean engine = oursFirst == (k == 0);
                Thread.sleep(pauseMs);
                String before = Clocks.read();
                double ms = engine ? bench.timeEvents(d -> {
                    var dev = bench.probe(d);
                    dev.matmul(a[d], b[d], c[d], dev.device().userStream());
                }) : torch.round(warmup, iterations);
                String after = Clocks.read();
                (engine ? ours : theirs).add(ms);
                out.println("| | " + (round + 1) + " | " + (engine ? "ours" : "torch") + " | "
                        + AgMatmulBench.fmt(ms) + " | " + before + " | " + after + " |");
            }
        }
        torch.ask("{\"cmd\": \"free\"}");
        bench.parallel(d -> {
            var dev = bench.probe(d);
            for (Buffer x : new Buffer[] {a[d], b[d], c[d]}) dev.device().free(x, dev.device().userStream());
            dev.device().synchronize();
        });
        double o = AgMatmulBench.median(ours), t = AgMatmulBench.median(theirs);
        out.println(String.format(Locale.ROOT, "%s: ours %.3f ms, torch.matmul %.3f ms (medians of %d blocks):"
                + " %+.1f %% -> %s", shape.label(), o, t, rounds, 100 * (o / t - 1), within(o / t) ? "within 3 %"
                : "NOT within 3 %"));
        return o / t;
    }

    static boolean within(double ratio) { return Math.abs(ratio - 1) <= TOLERANCE; }

    /** The three-run check: each run's difference and whether every run is within 3 %. */
    static void summary(Map<String, List<Double>> ratios, int runs, PrintStream out) {
        StringBuilder head = new StringBuilder("| dtype M K N |");
        for (int r = 1; r <= runs; r++) head.append(" run ").append(r).append(" |");
        out.println(head + " within 3 % in every run |");
        out.println("|---|" + "---|".repeat(runs) + "---|");
        for (var e : ratios.entrySet()) {
            StringBuilder row = new StringBuilder("| " + e.getKey() + " |");
            for (double x : e.getValue()) row.append(String.format(Locale.ROOT, " %+.1f %% |", 100 * (x - 1)));
            row.append(e.getValue().stream().allMatch(GemmLikeWithLike::within) ? " yes |" : " **no** |");
            out.println(row);
        }
    }

    /** The PyTorch side: one command a line, one JSON answer a line. */
    private static final class Torch implements AutoCloseable {
        private final Process process;
        private final Writer in;
        private final BufferedReader answers;

        Torch(Process process) {
            this.process = process;
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        JsonObject ask(String command) throws IOException {
            in.write(command + "\n");
            in.flush();
            String line = answers.readLine();
            if (line == null) throw new IOException("the PyTorch side ended (exit " + exitCode() + ") after " + command);
            return JsonParser.parseString(line).getAsJsonObject();
        }

        double round(int warmup, int iterations) throws IOException {
            return ask("{\"cmd\": \"round\", \"warmup\": " + warmup + ", \"iters\": " + iterations + "}")
                    .get("t_ms").getAsDouble();
        }

        private String exitCode() {
            try {
                return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "none yet";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "unknown";
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroy();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroy();
            }
        }
    }
}
