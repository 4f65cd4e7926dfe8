package org.hostir.studio.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.launch.LauncherEnv;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.OverlapFigures;

/**
 * {@code hirstudio run FILE.fusion [--backend auto|cpu|cuda] [--devices N] [--set SYM=N ...] [--streams N]
 * [--iterations N] [--warmup N] [--validate] [--trace OUT.json] [--option KEY=VALUE ...] [--timeout SECONDS]
 * [--save-npy DIR] [--launcher]}: lowers for every rank, runs, and prints per-iteration progress, timings, overlap
 * figures, host dispatch per node, peak memory and, with {@code --validate}, the comparison with the unsharded
 * reference (exit 1 when it fails). {@code --save-npy} writes inputs and outputs for an outside check. With
 * {@code --launcher} this process is one rank of several that a launcher started, one per GPU (RANK, WORLD_SIZE,
 * LOCAL_RANK, MASTER_ADDR, MASTER_PORT as torchrun sets them): it runs its rank's program on the CUDA backend and
 * validates its own shard. {@code --host-timing-only} (CUDA) records host dispatch bars but no CUDA events.
 * {@code --share-gpus} runs more ranks than there are GPUs on the CUDA backend, round robin, with point-to-point
 * over the copy engines (lowering option {@code backend=cuda}): for trying a multi-rank program, and measuring
 * its host dispatch, on a machine with one GPU.
 */
public final class RunCommand implements Command {
    private static final ArgumentParser PARSER = new ArgumentParser(Set.of("--backend", "--devices", "--streams",
            "--iterations", "--warmup", "--trace", "--timeout", "--seed", "--save-npy"), Set.of("--set", "--option"),
            Set.of("--validate", "--launcher", "--host-timing-only", "--share-gpus"));

    @Override
    public String name() { return "run"; }

    @Override
    public String usage() {
        return "run FILE.fusion [--backend auto|cpu|cuda] [--devices N] [--set SYM=N ...] [--streams N]"
                + " [--iterations N] [--warmup N] [--validate] [--trace OUT.json] [--option KEY=VALUE ...]"
                + " [--timeout SECONDS] [--save-npy DIR] [--launcher] [--host-timing-only] [--share-gpus]";
    }

    @Override
    public String summary() { return "lower and execute a fusion, optionally validating and tracing it"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        String file = a.file();
        String backendName = a.value("--backend").orElse("auto");
        switch (backendName) {
            case "auto", "cpu", "cuda" -> { }
            default -> throw new UsageException("--backend expects auto, cpu or cuda, got '" + backendName + "'");
        }
        boolean launched = a.flag("--launcher");
        LauncherEnv launcher = null;
        if (launched) {
            if (backendName.equals("cpu")) throw new UsageException("--launcher runs on the CUDA backend, not --backend cpu");
            try {
                launcher = LauncherEnv.parse(System.getenv());
            } catch (ExecutionException | IllegalArgumentException e) {
                err.println("error: " + file + ":0: " + e.getMessage());
                return ExitCode.BAD_INPUT;
            }
            if (a.value("--devices").isPresent() && a.devices() != launcher.worldSize()) {
                throw new UsageException("--devices " + a.devices() + " but the launcher's WORLD_SIZE is "
                        + launcher.worldSize());
            }
        }
        int devices = launcher != null ? launcher.worldSize() : a.devices();
        Map<String, String> streams = new LinkedHashMap<>();
        a.value("--streams").ifPresent(s -> streams.put("numberOfStreams", s));
        LoweringOptions options = a.loweringOptions(streams);
        int iterations = (int) Arguments.integer("--iterations", a.value("--iterations").orElse("1"), 1, 100_000);
        int warmup = (int) Arguments.integer("--warmup", a.value("--warmup").orElse("0"), 0, 100_000);
        long timeout = Arguments.integer("--timeout", a.value("--timeout").orElse("20"), 1, 86_400) * 1000;
        long seed = Arguments.integer("--seed", a.value("--seed").orElse("42"), 0, Long.MAX_VALUE);
        var maybe = CheckCommand.loadOrReport(file, devices, a.symbols(), err);
        if (maybe.isEmpty()) return ExitCode.BAD_INPUT;
        LoadedFusion loaded = maybe.get();
        Map<String, Long> symbols = new HashMap<>(loaded.bindings().asMap());
        RunConfig config = new RunConfig(devices, symbols, options, iterations, warmup, a.flag("--validate"), seed,
                timeout);
        // auto takes the GPUs when this machine has enough of them for --devices, else simulates them on the CPU
        int gpus = backendName.equals("cpu") ? 0 : CudaBackend.localDeviceCount();
        boolean share = a.flag("--share-gpus");
        if (share && (launched || backendName.equals("cpu"))) {
            err.println("error: " + file + ":0: --share-gpus: shares GPUs among the ranks of one process on the CUDA"
                    + " backend (not with --launcher or --backend cpu)");
            return ExitCode.BAD_INPUT;
        }
        boolean cuda = share || launched || backendName.equals("cuda") || (backendName.equals("auto") && gpus >= devices);
        if (launched && gpus == 0) {
            err.println("error: " + file + ":0: --launcher: no CUDA device found");
            return ExitCode.BAD_INPUT;
        }
        if (cuda && !launched && (share ? gpus == 0 : gpus < devices)) {
            err.println("error: " + file + ":0: " + (share ? "--share-gpus" : "--backend cuda") + ": " + (gpus == 0 ? "no CUDA device found"
                    : "--devices " + devices + " but this machine has " + gpus + " GPU" + (gpus == 1 ? "" : "s")));
            return ExitCode.BAD_INPUT;
        }
        out.println("fusion " + loaded.fusion().name() + ": " + devices + " device" + (devices == 1 ? "" : "s")
                + ", backend " + (cuda ? "cuda" : "cpu") + (backendName.equals("auto") ? " (auto: " + gpus + " GPU"
                + (gpus == 1 ? "" : "s") + " found)" : "") + ", " + options.asMap());
        out.println("symbols: " + new TreeMap<>(symbols));
        if (launcher != null) out.println("launcher: " + launcher.describe());
        boolean copyEngine = options.backend() == org.hostir.studio.ir.host.CommunicatorBackend.CUDA;
        if (launcher != null && copyEngine && devices > 1) {
            err.println("error: " + file + ":0: --launcher: backend=cuda (copy-engine P2P) needs the ranks in one"
                    + " process; one process per GPU communicates through NCCL (leave the backend option out)");
            return ExitCode.BAD_INPUT;
        }
        if (share && !copyEngine && gpus < devices) {
            err.println("error: " + file + ":0: --share-gpus: ranks that share a GPU cannot communicate through NCCL;"
                    + " add --option backend=cuda (point-to-point over the copy engines)");
            return ExitCode.BAD_INPUT;
        }
        RunResult result;
        try (Backend backend = share ? CudaBackend.sharingGpus(devices, timeout)
                : launcher != null ? CudaBackend.launched(launcher, timeout)
                : cuda ? new CudaBackend(devices, timeout, copyEngine) : new CpuBackend(devices, timeout)) {
            if (a.flag("--host-timing-only") && backend instanceof CudaBackend c) c.setHostTimingOnly();
            result = Runner.run(loaded.fusion(), config, backend, out::println);
        } catch (LoweringException e) {
            LoweringDiagnostics.print(e, loaded, err);
            return ExitCode.BAD_INPUT;
        } catch (ExecutionException e) {
            List<String> lines = e.getMessage().lines().toList();
            err.println("error: " + file + ":0: run failed: " + lines.get(0));
            lines.stream().skip(1).forEach(l -> err.println("  " + l.strip()));
            return ExitCode.FAILED;
        }
        report(result, out);
        if (a.value("--save-npy").isPresent()) {
            Path dir = Path.of(a.value("--save-npy").get());
            try {
                Path manifest = NpySaver.save(dir, file, loaded.fusion(), symbols, result, devices);
                out.println("saved: " + manifest + " (inputs and outputs as .npy; check them with"
                        + " scripts/check_npy_torch.py " + manifest + ")");
            } catch (IOException | RuntimeException e) {
                err.println("error: " + dir + ":0: cannot save the tensors: " + e.getMessage());
                return ExitCode.FAILED;
            }
        }
        if (a.value("--trace").isPresent()) {
            Path trace = Path.of(a.value("--trace").get());
            try {
                if (trace.toAbsolutePath().getParent() != null) {
                    java.nio.file.Files.createDirectories(trace.toAbsolutePath().getParent());
                }
                ChromeTraceWriter.write(result.timeline(), Map.of("fusion", loaded.fusion().name(), "backend",
                        result.backend(), "options", options.asMap().toString()), trace);
            } catch (IOException e) {
                err.println("error: " + trace + ":0: cannot write the trace: " + e.getMessage());
                return ExitCode.FAILED;
            }
            out.println("trace: " + trace + " (Chrome trace JSON: open it in Perfetto, ui.perfetto.dev, or"
                    + " chrome://tracing)");
        }
        if (result.validation().isPresent()) {
            out.println(result.validation().get().line());
            if (!result.validation().get().passed()) return ExitCode.FAILED;
        }
        return ExitCode.OK;
    }

    static void report(RunResult result, PrintStream out) {
        for (var e : new TreeMap<>(result.programs()).entrySet()) {
            out.println("rank " + e.getKey() + " program: " + shape(e.getValue()));
        }
        List<Double> sorted = result.iterationMillis().stream().sorted().toList();
        out.printf(Locale.ROOT, "time: median %.3f ms over %d iteration%s (min %.3f, max %.3f)%n",
                result.medianMillis(), sorted.size(), sorted.size() == 1 ? "" : "s", sorted.getFirst(),
                sorted.getLast());
        out.print(OverlapFigures.of(result.timeline()).format().lines().map(l -> "overlap: " + l + "\n")
                .reduce("", String::concat));
        List<Long> host = result.timeline().events().stream().filter(e -> e.kind() == EventKind.HOST)
                .map(e -> e.endNs() - e.startNs()).sorted().toList();
        if (!host.isEmpty()) {
            out.printf(Locale.ROOT, "host dispatch: median %.2f us, mean %.2f us per Host IR node (%d nodes of the last"
                    + " iteration)%n", host.get(host.size() / 2) / 1000.0,
                    host.stream().mapToLong(Long::longValue).average().orElse(0) / 1000.0, host.size());
            Map<String, List<Long>> byKind = new TreeMap<>();
            result.timeline().events().stream().filter(e -> e.kind() == EventKind.HOST).forEach(e -> byKind
                    .computeIfAbsent(e.name().replace("dispatch ", ""), k -> new java.util.ArrayList<>())
                    .add(e.endNs() - e.startNs()));
            StringBuilder sb = new StringBuilder("host dispatch by node (median us):");
            byKind.forEach((k, v) -> {
                List<Long> ns = v.stream().sorted().toList();
                sb.append(String.format(Locale.ROOT, " %s %.2f (n=%d);", k, ns.get(ns.size() / 2) / 1000.0,
                        ns.size()));
            });
            out.println(sb.substring(0, sb.length() - 1));
        }
        StringBuilder mem = new StringBuilder("peak memory:");
        new TreeMap<>(result.peakBytes()).forEach((rank, bytes) -> mem.append(String.format(Locale.ROOT,
                " rank %d %.1f KiB;", rank, bytes / 1024.0)));
        out.println(mem.substring(0, mem.length() - 1));
    }

    /** Node counts by kind, e.g. {@code 21 nodes: 2 ForLoop, 4 HirAliasSelect, 1 Communication, ...}. */
    private static String shape(HostIrContainer program) {
        Map<String, Integer> counts = new TreeMap<>();
        List<HostNode> all = program.allNodes();
        for (HostNode n : all) counts.merge(n.getClass().getSimpleName(), 1, Integer::sum);
        StringBuilder sb = new StringBuilder(all.size() + " nodes (");
        counts.forEach((k, v) -> sb.append(v).append(' ').append(k).append(", "));
        return sb.substring(0, sb.length() - 2) + ")";
    }
}
