package org.hostir.studio.bench.cuda;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.hostir.studio.exec.cuda.CudaBackend;

/**
 * {@code hirstudio bench agmm}: the PyTorch baseline first (torchrun with the reference script, while the GPUs
 * are still free), then this engine's figures for the same four shapes, printed side by side with the ratios to
 * max(t_allgather, t_gemm).
 */
public final class AgMatmulReport {
    private AgMatmulReport() {}

    /** Traces of the collective (S=4) and P2P schedules of the two bf16 shapes in {@code dir}, no baseline. */
    public static int diagnose(Path examples, Path dir, int devices, PrintStream out) throws Exception {
        try (CudaBackend backend = new CudaBackend(devices, 120_000);
             AgMatmulBench bench = new AgMatmulBench(backend, examples, 1, 3, out)) {
            for (int i : new int[] {1, 3}) {
                out.println("shape " + AgMatmulBench.SHAPES.get(i).label() + ":");
                bench.diagnose(AgMatmulBench.SHAPES.get(i), dir);
            }
        }
        // the copy-engine schedule and the hand-written variants, in a backend with copy-engine transfers
        try (CudaBackend backend = new CudaBackend(devices, 120_000, true);
             AgMatmulBench bench = new AgMatmulBench(backend, examples, 1, 3, out)) {
            for (AgMatmulBench.Shape shape : AgMatmulBench.SHAPES) {
                out.println("shape " + shape.label() + ", copy engine:");
                bench.diagnose(shape, dir);
            }
            if (devices == 2) {
                try (AgMatmulBench probing = new AgMatmulBench(backend, examples, 15, 5, out)) {
                    AgMatmulProbe probe = new AgMatmulProbe(backend, probing);
                    for (AgMatmulBench.Shape shape : AgMatmulBench.SHAPES) {
                        AgMatmulProbe.print(shape, probe.run(shape), out);
                    }
                }
            }
        }
        return 0;
    }

    public static int run(Path examples, Path torchScript, int devices, int iterations, int warmup, PrintStream out)
            throws Exception {
        Map<String, JsonObject> torch = torchScript == null ? Map.of() : torch(torchScript, devices, out);
        Map<String, JsonObject> torchCollective = torchScript == null ? Map.of()
                : torch(torchScript.resolveSibling("torch_matmul_collective_baseline.py"), devices, out);
        Map<MatmulCollectiveBench.Case, Map<String, Double>> reductions = new LinkedHashMap<>();
        Map<AgMatmulBench.Shape, Map<String, Double>> ours = new LinkedHashMap<>();
        Map<AgMatmulBench.Shape, Map<String, Double>> walls = new LinkedHashMap<>();
        try (CudaBackend backend = new CudaBackend(devices, 120_000);
             AgMatmulBench bench = new AgMatmulBench(backend, examples, iterations, warmup, out)) {
            out.println("devices: " + devices + " x " + backend.deviceName(0) + ", NCCL " + backend.ncclVersion());
            for (AgMatmulBench.Shape shape : AgMatmulBench.SHAPES) {
                ours.put(shape, bench.run(shape));
                walls.put(shape, new LinkedHashMap<>(bench.hostWall()));
            }
            measureReductions(backend, bench, false, reductions, out);
            for (boolean events : new boolean[] {true, false}) {
                double[] d = bench.hostDispatchMicros(AgMatmulBench.SHAPES.get(3), events);
                out.printf(Locale.ROOT, "host dispatch: median %.2f us, mean %.2f us per Host IR node (P2P schedule,"
                        + " bf16 8192 4096 4096, per-op CUDA events %s)%n", d[0], d[1], events ? "on" : "off");
            }
        }
        // Host IR's backend=cuda: the P2P schedules with copy-engine transfers, in a backend of their own
        try (CudaBackend backend = new CudaBackend(devices, 120_000, true);
             AgMatmulBench bench = new AgMatmulBench(backend, examples, iterations, warmup, out)) {
            for (AgMatmulBench.Shape shape : AgMatmulBench.SHAPES) {
                ours.get(shape).putAll(bench.copyEngineSchedules(shape));
                walls.get(shape).putAll(bench.hostWall());
            }
            measureReductions(backend, bench, true, reductions, out);
        }
        List<String> table = agmmTable(ours, walls, torch, out);
        out.println();
        table.forEach(out::println);
        out.println();
        printReductions(reductions, torchCollective, out);
        return 0;
    }

    /**
     * {@code bench agmm --reductions}: only the matmul+Allreduce and matmul+ReduceScatter cases (the P2P
     * ReduceScatter on NCCL and by copy engine included), with PyTorch's sequential baseline first.
     */
    public static int reductions(Path examples, Path torchScript, int devices, int iterations, int warmup,
                                 PrintStream out) throws Exception {
        Map<String, JsonObject> torchCollective = torchScript == null ? Map.of()
                : torch(torchScript.resolveSibling("torch_matmul_collective_baseline.py"), devices, out);
        Map<MatmulCollectiveBench.Case, Map<String, Double>> reductions = new LinkedHashMap<>();
        for (boolean copyEngine : new boolean[] {false, true}) {
            try (CudaBackend backend = new CudaBackend(devices, 120_000, copyEngine);
                 AgMatmulBench bench = new AgMatmulBench(backend, examples, iterations, warmup, out)) {
                if (!copyEngine) out.println("devices: " + devices + " x " + backend.deviceName(0) + ", NCCL "
                        + backend.ncclVersion());
                measureReductions(backend, bench, copyEngine, reductions, out);
            }
        }
        printReductions(reductions, torchCollective, out);
        return 0;
    }

    /**
     * The matmul+collective cases: without {@code copyEngine} the direct figures, seed 001's pipelines and the
     * P2P ReduceScatter on NCCL; with it (a backend with copy-engine transfers) the copy-engine collective, seed
     * 001's pipelines with it and the P2P ReduceScatter with backend=cuda, added to the rows measured before.
     */
    private static void measureReductions(CudaBackend backend, AgMatmulBench bench, boolean copyEngine,
                                          Map<MatmulCollectiveBench.Case, Map<String, Double>> reductions,
                                          PrintStream out) throws Exception {
        MatmulCollectiveBench mc = new MatmulCollectiveBench(backend, bench);
        for (MatmulCollectiveBench.Case c : MatmulCollectiveBench.CASES) {
            Map<String, Double> rows = copyEngine ? mc.copyEngineRows(c) : mc.run(c);
            if (!copyEngine) rows.putAll(mc.p2pSchedules(c, false));
            out.println(c.label() + (copyEngine ? ", copy engine:" : ":"));
            rows.forEach((k, v) -> out.printf(Locale.ROOT, "  %-42s %9.3f ms%n", k, v));
            reductions.computeIfAbsent(c, k -> new LinkedHashMap<>()).putAll(rows);
        }
    }

    private static void printReductions(Map<MatmulCollectiveBench.Case, Map<String, Double>> reductions,
                                        Map<String, JsonObject> torchCollective, PrintStream out) {
        out.println();
        reductionTable(reductions, torchCollective).forEach(out::println);
        out.println();
        pipelineRows(reductions).forEach(out::println);
    }

    /** One row per shape: ours (each figure printed as it is read) beside PyTorch's of the same run. */
    private static List<String> agmmTable(Map<AgMatmulBench.Shape, Map<String, Double>> ours,
                                          Map<AgMatmulBench.Shape, Map<String, Double>> walls,
                                          Map<String, JsonObject> torch, PrintStream out) {
        List<String> table = new ArrayList<>();
        table.add("| dtype M K N | allgather | gemm | limit | sequential | best schedule | torch allgather | torch gemm"
                + " | torch sequential | torch best pipeline | torch async-TP |");
        table.add("|---|---|---|---|---|---|---|---|---|---|---|");
        for (var entry : ours.entrySet()) {
            AgMatmulBench.Shape shape = entry.getKey();
            Map<String, Double> r = entry.getValue();
            double limit = Math.max(r.get("t_allgather"), r.get("t_gemm"));
            out.println("shape " + shape.label() + " (schedules: longest rank's device span; host wall beside):");
            String best = null;
            for (var e : r.entrySet()) {
                boolean schedule = !e.getKey().startsWith("t_");
                Double wall = walls.get(shape).get(e.getKey());
                out.printf(Locale.ROOT, "  %-42s %9.3f ms  %5.2f x limit%s%n", e.getKey(), e.getValue(),
                        e.getValue() / limit, wall == null ? "" : String.format(Locale.ROOT,
                                "   (host wall %.3f ms, %.2f x)", wall, wall / limit));
                if (schedule && (best == null || e.getValue() < r.get(best))) best = e.getKey();
            }
            String torchCols = torchColumns(torch.get(shape.label()), out);
            table.add("| " + shape.label() + " | " + AgMatmulBench.fmt(r.get("t_allgather")) + " | "
                    + AgMatmulBench.fmt(r.get("t_gemm")) + " | " + AgMatmulBench.fmt(limit) + " | "
                    + ratio(r.get("t_sequential"), limit) + " | " + best + ": " + ratio(r.get(best), limit) + " |"
                    + torchCols);
        }
        return table;
    }

    /** PyTorch's columns of one shape ({@code t} null: not measured). */
    private static String torchColumns(JsonObject t, PrintStream out) {
        if (t == null) return " - | - | - | - | - |";
        double tl = t.get("limit_ms").getAsDouble();
        double bestPipe = Double.MAX_VALUE;
        for (var e : t.getAsJsonObject("t_pipe_ms").entrySet()) {
            if (e.getValue().getAsJsonPrimitive().isNumber()) bestPipe = Math.min(bestPipe, e.getValue().getAsDouble());
        }
        bestPipe = Math.min(bestPipe, t.get("t_p2p_ms").getAsDouble());
        String async = t.get("t_async_tp_ms").isJsonNull() ? "n/a" : ratio(t.get("t_async_tp_ms").getAsDouble(), tl);
        out.println("  torch (same run): " + t);
        return " " + AgMatmulBench.fmt(t.get("t_ag_ms").getAsDouble()) + " | "
                + AgMatmulBench.fmt(t.get("t_mm_ms").getAsDouble()) + " | "
                + ratio(t.get("t_seq_ms").getAsDouble(), tl) + " | " + ratio(bestPipe, tl) + " | " + async + " |";
    }

    /** matmul+Allreduce and matmul+ReduceScatter: ours against PyTorch's sequential matmul + collective. */
    private static List<String> reductionTable(Map<MatmulCollectiveBench.Case, Map<String, Double>> reductions,
                                               Map<String, JsonObject> torch) {
        List<String> table = new ArrayList<>();
        table.add("| collective dtype rows K N | gemm | collective | sequential | best pipeline (x sequential) |"
                + " torch gemm | torch collective | torch sequential | best pipeline / torch sequential |"
                + " torch fused async-TP | best pipeline / torch fused |");
        table.add("|---|---|---|---|---|---|---|---|---|---|---|");
        for (var e : reductions.entrySet()) {
            Map<String, Double> r = e.getValue();
            String best = r.keySet().stream().filter(k -> !k.startsWith("t_"))
                    .min(Comparator.comparingDouble(r::get)).orElseThrow();
            JsonObject t = torch.get(e.getKey().label());
            String torchCols = t == null ? " - | - | - | - | - | - |" : " " + AgMatmulBench.fmt(t.get("t_mm_ms").getAsDouble())
                    + " | " + AgMatmulBench.fmt(t.get("t_coll_ms").getAsDouble()) + " | "
                    + AgMatmulBench.fmt(t.get("t_seq_ms").getAsDouble()) + " | "
                    + String.format(Locale.ROOT, "%.2f x", r.get(best) / t.get("t_seq_ms").getAsDouble()) + " |"
                    + fusedColumns(t, r.get(best));
            table.add("| " + e.getKey().label() + " | " + AgMatmulBench.fmt(r.get("t_gemm")) + " | "
                    + AgMatmulBench.fmt(r.get("t_collective")) + " | " + AgMatmulBench.fmt(r.get("t_sequential"))
                    + " | " + best + ": " + ratio(r.get(best), r.get("t_sequential")) + " |" + torchCols);
        }
        return table;
    }

    /** PyTorch's fused async-TP op for the case (ReduceScatter only), or why it is missing. */
    private static String fusedColumns(JsonObject t, double best) {
        var fused = t.get("t_fused_ms");
        if (fused == null || fused.isJsonNull()) {
            var err = t.get("fused_err");
            return " " + (err == null || err.isJsonNull() ? "-" : "missing (" + err.getAsString().replace('|', '/')
                    + ")") + " | - |";
        }
        return " " + AgMatmulBench.fmt(fused.getAsDouble()) + " | "
                + String.format(Locale.ROOT, "%.2f x", best / fused.getAsDouble()) + " |";
    }

    /** Every pipeline row of the matmul+collective cases as a ratio to their sequential GEMM then collective. */
    private static List<String> pipelineRows(Map<MatmulCollectiveBench.Case, Map<String, Double>> reductions) {
        List<String> table = new ArrayList<>();
        table.add("| collective dtype rows K N | pipeline | ms | x sequential |");
        table.add("|---|---|---|---|");
        for (var e : reductions.entrySet()) {
            double sequential = e.getValue().get("t_sequential");
            e.getValue().forEach((k, v) -> {
                if (!k.startsWith("t_")) {
                    table.add("| " + e.getKey().label() + " | " + k + " | " + AgMatmulBench.fmt(v) + " | "
                            + String.format(Locale.ROOT, "%.3f x", v / sequential) + " |");
                }
            });
        }
        return table;
    }

    /** {@code bench agmm --gemm}: GEMM alone, cuBLASLt and GemmEx against PyTorch's matmul on GPU 0. */
    public static int gemm(Path torchScript, int devices, PrintStream out) throws Exception {
        Map<String, String> torch = new HashMap<>();
        torchGemm(torchScript, torch, out);
        Map<String, String> torchAfter = new HashMap<>();
        Map<String, List<List<Double>>> ours = new LinkedHashMap<>();
        try (CudaBackend backend = new CudaBackend(1, 120_000);
             AgMatmulBench bench = new AgMatmulBench(backend, Path.of("."), 1, 0, out)) {
            for (AgMatmulBench.Shape shape : AgMatmulBench.SHAPES) {
                Map<String, List<Double>> r = bench.gemmOnly(shape);
                ours.put(shape.label(), List.of(r.get("cublasLt"), r.get("cublasGemmEx")));
            }
        }
        torchGemm(torchScript, torchAfter, out);
        out.println("| dtype M K N | cuBLASLt (3 rounds, ms) | cublasGemmEx (3 rounds, ms) | torch.matmul before | torch.matmul"
                + " after |");
        out.println("|---|---|---|---|---|");
        for (var e : ours.entrySet()) {
            out.println("| " + e.getKey() + " | " + rounds(e.getValue().get(0)) + " | " + rounds(e.getValue().get(1))
                    + " | " + torch.getOrDefault(e.getKey(), "-") + " | " + torchAfter.getOrDefault(e.getKey(), "-") + " |");
        }
        return 0;
    }

    /** Runs scripts/torch_gemm.py and keys its rounds (printed as a list) by "dtype M K N". */
    private static void torchGemm(Path torchScript, Map<String, String> torch, PrintStream out) throws Exception {
        if (torchScript != null && Files.isRegularFile(torchScript)) {
            ProcessBuilder pb = new ProcessBuilder("python3", torchScript.toString()).redirectErrorStream(true);
            out.println("torch: " + String.join(" ", pb.command()));
            Process p = pb.start();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    out.println("torch: " + line);
                    if (line.startsWith("{")) {
                        JsonObject o = JsonParser.parseString(line).getAsJsonObject();
                        torch.put(o.get("dtype").getAsString().replace("float32", "float") + " " + o.get("M").getAsLong()
                                + " " + o.get("K").getAsLong() + " " + o.get("N").getAsLong(),
                                o.getAsJsonArray("t_mm_ms").asList().stream()
                                        .map(x -> AgMatmulBench.fmt(x.getAsDouble())).reduce((x, y) -> x + ", " + y)
                                        .orElse(""));
                    }
                }
            }
            p.waitFor();
        }
    }

    private static String rounds(List<Double> xs) {
        return xs.stream().map(AgMatmulBench::fmt).reduce((x, y) -> x + ", " + y).orElse("");
    }

    private static String ratio(double ms, double limit) {
        return String.format(Locale.ROOT, "%.3f (%.2f x)", ms, ms / limit);
    }

    /** Runs a PyTorch script under torchrun and keys its JSON lines by "[collective ]dtype M K N". */
    private static Map<String, JsonObject> torch(Path script, int devices, PrintStream out) throws Exception {
        if (!Files.isRegularFile(script)) {
            out.println("torch baseline: " + script + " not found, skipped");
            return Map.of();
        }
        ProcessBuilder pb = new ProcessBuilder("python3", "-m", "torch.distributed.run", "--standalone",
                "--nproc_per_node=" + devices, script.toString()).redirectErrorStream(true);
        // the script as the user would type it from the working folder: logs kept in docs/ name no machine's paths
        Path cwd = Path.of("").toAbsolutePath();
        Path shown = script.toAbsolutePath().startsWith(cwd) ? cwd.relativize(script.toAbsolutePath()) : script;
        out.println("torch baseline: " + String.join(" ", pb.command().subList(0, pb.command().size() - 1)) + " "
                + shown);
        Map<String, JsonObject> rows = new HashMap<>();
        Process p = pb.start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("{")) {
                    JsonObject o = JsonParser.parseString(line).getAsJsonObject();
                    String collective = o.has("collective") ? o.get("collective").getAsString() + " " : "";
                    rows.put(collective + o.get("dtype").getAsString().replace("float32", "float") + " " + o.get("M").getAsLong()
                            + " " + o.get("K").getAsLong() + " " + o.get("N").getAsLong(), o);
                    out.println("torch: " + line);
                } else if (line.contains("Error") || line.contains("error")) {
                    out.println("torch: " + line);
                }
            }
        }
        out.println("torch baseline exit code " + p.waitFor());
        return rows;
    }
}
