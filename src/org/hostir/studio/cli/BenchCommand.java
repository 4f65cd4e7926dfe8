package org.hostir.studio.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import org.hostir.studio.bench.BlasBenchmark;
import org.hostir.studio.bench.LoweringBenchmark;
import org.hostir.studio.bench.MeasuredLog;
import org.hostir.studio.bench.SimulationCheck;
import org.hostir.studio.bench.SimulationMemory;
import org.hostir.studio.bench.cuda.AgMatmulBench;
import org.hostir.studio.bench.cuda.AgMatmulDispatch;
import org.hostir.studio.bench.cuda.AgMatmulReport;
import org.hostir.studio.bench.cuda.GemmLikeWithLike;
import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.OutputFiles;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.trace.ChromeTraceWriter;

/**
 * {@code hirstudio bench lowering [--ops N] [--devices N] [--repetitions N]}: benchmarks, never timed unit tests.
 * {@code bench agmm} is the AG+GEMM comparison with the PyTorch baseline on the local GPUs ({@code bench.cuda}).
 */
public final class BenchCommand implements Command {
    private static final ArgumentParser PARSER = new ArgumentParser(Set.of("--ops", "--devices", "--repetitions",
            "--warmup", "--torch", "--examples", "--diagnose", "--profile", "--sizes", "--runs", "--rounds",
            "--walked-first-up-to", "--shapes", "--variants", "--measured"),
            Set.of(),
            Set.of("--dispatch", "--gemm", "--java", "--reductions", "--like-with-like"));

    @Override
    public String name() { return "bench"; }

    @Override
    public String usage() {
        return "bench lowering [--ops N] [--devices N] [--repetitions N] [--warmup N]"
                + " | bench blas [--sizes 1024,2048,4096] [--java] [--examples DIR]"
                + " | bench agmm [--devices N] [--repetitions N] [--warmup N] [--torch SCRIPT|none] [--diagnose TRACE_DIR] [--dispatch] [--gemm] [--reductions]"
                + " | bench agmm --like-with-like [--devices N] [--runs 3] [--rounds 6] [--repetitions 30] [--warmup 10] [--shapes 1,2,3,4] [--variants lt1m,gemmex]"
                + " | bench sim-check [--profile NAME|FILE]"
                + " | bench sim-check --profile NAME|FILE --measured LOG --devices N"
                + " | bench sim-memory [--devices 256,1024] [--walked-first-up-to 1024] [--profile NAME|FILE]";
    }

    @Override
    public String summary() { return "benchmarks: lowering speed; GEMM of the reference and CPU backend beside numpy; AG+GEMM on the local GPUs against the PyTorch baseline"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        String which = a.positionals().isEmpty() ? "" : a.positionals().getFirst();
        if (which.equals("agmm")) return agmm(a, out, err);
        if (which.equals("sim-check")) return simCheck(a, out, err);
        if (which.equals("sim-memory")) return simMemory(a, out, err);
        if (which.equals("blas")) return blas(a, out, err);
        if (!which.equals("lowering")) {
            throw new UsageException(which.isEmpty() ? "which benchmark? (lowering, blas, agmm, sim-check, sim-memory)"
                    : "unknown benchmark '" + Texts.printable(which) + "' (available: lowering, blas, agmm,"
                    + " sim-check, sim-memory)");
        }
        int ops = (int) Arguments.integer("--ops", a.value("--ops").orElse("200"), 4, 100_000);
        int devices = a.value("--devices").isPresent() ? a.devices() : 8;
        int reps = (int) Arguments.integer("--repetitions", a.value("--repetitions").orElse("21"), 1, 10_000);
        int warmup = (int) Arguments.integer("--warmup", a.value("--warmup").orElse("5"), 0, 10_000);
        out.println(LoweringBenchmark.run(ops, devices, warmup, reps).format());
        return ExitCode.OK;
    }

    /**
     * The simulation's predictions of the AG+GEMM schedules against their spans measured on 2 and 4 x H200 (the
     * stored runs), or, with {@code --measured LOG --devices N}, against the spans of any log of {@code bench agmm}
     * (a profile calibrated on a machine checked against that machine's own run).
     */
    private static int simCheck(Arguments a, PrintStream out, PrintStream err) throws UsageException {
        Path home = Path.of(System.getProperty("hirstudio.home", "."));
        Path examples = Path.of(a.value("--examples").orElse(home.resolve("examples").toString()));
        MeasuredLog measured = measuredLog(a);
        try {
            HardwareProfile profile = a.value("--profile").isPresent()
                    ? ProfileFiles.resolve(a.value("--profile").get(), "bench sim-check") : null;
            if (measured != null) {
                SimulationCheck.print(SimulationCheck.compare(examples, measured.read(Path.of("")), profile), out);
            } else {
                SimulationCheck.run(home, examples, profile, out);
            }
            return ExitCode.OK;
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        } catch (Exception e) {
            err.println("error: bench sim-check: " + TerminalText.escape(e.getMessage()));
            return ExitCode.FAILED;
        }
    }

    /** {@code --measured LOG --devices N} (both, with {@code --profile}), or null for the stored runs. */
    private static MeasuredLog measuredLog(Arguments a) throws UsageException {
        if (a.value("--measured").isEmpty()) {
            if (a.value("--devices").isPresent()) {
                throw new UsageException("--devices: the GPUs of the log --measured names; without --measured"
                        + " sim-check compares with its stored runs (D = 2 and 4)");
            }
            return null;
        }
        if (a.value("--profile").isEmpty()) {
            throw new UsageException("--measured: needs --profile NAME|FILE, the profile checked against the log");
        }
        if (a.value("--devices").isEmpty()) {
            throw new UsageException("--measured: needs --devices N, the GPUs the log's run had");
        }
        String log = a.value("--measured").get();
        Arguments.input("--measured", log);
        return new MeasuredLog(a.devices(), a.value("--profile").get(), log);
    }

    /** The live heap of simulations of seed 000 as written (all-pairs P2P) at growing rank counts. */
    private static int simMemory(Arguments a, PrintStream out, PrintStream err) throws UsageException {
        List<Integer> devices = new ArrayList<>();
        for (String s : a.value("--devices").orElse("256,512,1024").split(",")) {
            devices.add((int) Arguments.integer("--devices", s.trim(), 1, 16_384));
        }
        Path home = Path.of(System.getProperty("hirstudio.home", "."));
        Path examples = Path.of(a.value("--examples").orElse(home.resolve("examples").toString()));
        int walkedFirstUpTo = (int) Arguments.integer("--walked-first-up-to",
                a.value("--walked-first-up-to").orElse("1024"), 0, 16_384);
        try {
            SimulationMemory.run(examples, "seeds/ag_matmul_p2p", Map.of(), devices, walkedFirstUpTo,
                    ProfileFiles.resolve(a.value("--profile").orElse("h200x8-nvlink"), "bench sim-memory"), out);
            return ExitCode.OK;
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        } catch (Exception e) {
            err.println("error: bench sim-memory: " + TerminalText.escape(e.getMessage()));
            return ExitCode.FAILED;
        }
    }

    /** The reference's and CPU backend's GEMM beside numpy's, and the 2-device AG+matmul (issue 17). */
    private static int blas(Arguments a, PrintStream out, PrintStream err) throws UsageException {
        List<Integer> sizes = new ArrayList<>();
        for (String s : a.value("--sizes").orElse("1024,2048,4096").split(",")) {
            sizes.add((int) Arguments.integer("--sizes", s.trim(), 1, 16_384));
        }
        Path home = Path.of(System.getProperty("hirstudio.home", "."));
        Path examples = Path.of(a.value("--examples").orElse(home.resolve("examples").toString()));
        try {
            BlasBenchmark.run(sizes, examples.resolve("seeds/ag_matmul.fusion"), a.flag("--java"), out);
            return ExitCode.OK;
        } catch (Exception e) {
            err.println("error: bench blas: " + TerminalText.escape(e.getMessage()));
            return ExitCode.FAILED;
        }
    }

    /**
     * {@code bench agmm --like-with-like}: our GEMM and torch.matmul in interleaved rounds (issue 38.2), its counts
     * read (and refused) before any GPU is touched.
     */
    private static Callable<Integer> likeWithLike(Arguments a, String torch, Path home, int devices, PrintStream out)
            throws UsageException {
        int runs = (int) Arguments.integer("--runs", a.value("--runs").orElse("3"), 1, 100);
        int rounds = (int) Arguments.integer("--rounds", a.value("--rounds").orElse("6"), 2, 1000);
        int warmup = (int) Arguments.integer("--warmup", a.value("--warmup").orElse("10"), 0, 10_000);
        int iterations = (int) Arguments.integer("--repetitions", a.value("--repetitions").orElse("30"), 1, 10_000);
        Path script = torch.endsWith("torch_ag_matmul_baseline.py") ? home.resolve("scripts/torch_gemm.py")
                : Path.of(torch);
        List<Integer> shapes = shapes(a.value("--shapes").orElse("1,2,3,4"));
        String variants = a.value("--variants").orElse("");
        try {
            GemmLikeWithLike.checkVariants(variants);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--variants: " + e.getMessage());
        }
        return () -> GemmLikeWithLike.run(script, devices, runs, rounds, warmup, iterations, shapes, variants, out);
    }

    /** {@code --shapes 3,4}: 1-based indices into the four AG+GEMM shapes, each once, in the order given. */
    static List<Integer> shapes(String list) throws UsageException {
        List<Integer> out = new ArrayList<>();
        for (String s : list.split(",", -1)) {
            int i = (int) Arguments.integer("--shapes", s.strip(), 1, 4) - 1;
            if (out.contains(i)) throw new UsageException("--shapes: shape " + (i + 1) + " given twice");
            out.add(i);
        }
        return out;
    }

    /** What {@code bench agmm --diagnose DIR} reads (the examples) and writes (a trace per schedule in DIR). */
    private static OutputFiles diagnosePlan(Path examples, Path dir) {
        OutputFiles plan = OutputFiles.of("bench agmm").readsUnder(examples, "the examples the benchmark runs")
                .writesInto("--diagnose", dir, "the traces");
        for (String name : AgMatmulBench.diagnoseFiles()) {
            plan = plan.writes("--diagnose", dir.resolve(name), "a trace", ChromeTraceWriter::wroteThis);
        }
        return plan;
    }

    /** AG+GEMM on the local GPUs (DESIGN 5's four shapes), with the PyTorch baseline run first in the same call. */
    private static int agmm(Arguments a, PrintStream out, PrintStream err) throws UsageException {
        int devices = a.value("--devices").isPresent() ? a.devices() : 2;
        int reps = (int) Arguments.integer("--repetitions", a.value("--repetitions").orElse("10"), 1, 10_000);
        int warmup = (int) Arguments.integer("--warmup", a.value("--warmup").orElse("3"), 0, 10_000);
        Path home = Path.of(System.getProperty("hirstudio.home", "."));
        String torch = a.value("--torch").orElse(home.resolve("scripts/torch_ag_matmul_baseline.py").toString());
        Path examples = Path.of(a.value("--examples")
                .orElse(home.resolve("examples").toString()));
        if (a.value("--diagnose").isPresent()) {
            try {
                diagnosePlan(examples, Arguments.path("--diagnose", a.value("--diagnose").get())).check(false);
            } catch (EngineFailure e) {
                return Failures.report(e, err);
            }
        }
        Callable<Integer> likeWithLike = a.flag("--like-with-like")
                ? likeWithLike(a, torch, home, devices, out) : null;
        if (likeWithLike != null && torch.equals("none")) {
            err.println("error: bench agmm: --like-with-like compares with torch.matmul; --torch none leaves nothing"
                    + " to compare with");
            return ExitCode.BAD_INPUT;
        }
        if (!CudaBackend.available(devices)) {
            err.println("error: bench agmm: needs " + devices + " CUDA devices, found "
                    + CudaBackend.localDeviceCount());
            return ExitCode.BAD_INPUT;
        }
        try {
            if (likeWithLike != null) return likeWithLike.call();
            if (a.flag("--gemm")) {
                return AgMatmulReport.gemm(torch.equals("none") ? null
                        : home.resolve("scripts/torch_gemm.py"), devices, out);
            }
            if (a.flag("--reductions")) {
                return AgMatmulReport.reductions(examples, torch.equals("none") ? null : Path.of(torch), devices,
                        reps, warmup, out);
            }
            if (a.flag("--dispatch")) {
                return AgMatmulDispatch.dispatchCosts(devices, out);
            }
            if (a.value("--diagnose").isPresent()) {
                return AgMatmulReport.diagnose(examples, Path.of(a.value("--diagnose").get()), devices, out);
            }
            return AgMatmulReport.run(examples,
                    torch.equals("none") ? null : Path.of(torch), devices, reps, warmup, out);
        } catch (Exception e) {
            err.println("error: bench agmm: " + TerminalText.escape(e.getMessage()));
            return ExitCode.FAILED;
        }
    }
}
