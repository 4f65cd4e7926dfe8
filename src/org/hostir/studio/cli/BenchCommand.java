package org.hostir.studio.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Set;

import org.hostir.studio.bench.LoweringBenchmark;

/**
 * {@code hirstudio bench lowering [--ops N] [--devices N] [--repetitions N]}: benchmarks, never timed unit tests.
 * The AG+GEMM comparison with the PyTorch baseline belongs to the CUDA backend and is not here yet.
 */
public final class BenchCommand implements Command {
    private static final ArgumentParser PARSER = new ArgumentParser(Set.of("--ops", "--devices", "--repetitions",
            "--warmup", "--torch", "--examples", "--diagnose"), Set.of(), Set.of("--dispatch", "--gemm"));

    @Override
    public String name() { return "bench"; }

    @Override
    public String usage() {
        return "bench lowering [--ops N] [--devices N] [--repetitions N] [--warmup N]"
                + " | bench agmm [--devices N] [--repetitions N] [--warmup N] [--torch SCRIPT|none] [--diagnose TRACE_DIR] [--dispatch] [--gemm]";
    }

    @Override
    public String summary() { return "benchmarks: lowering speed; AG+GEMM on the local GPUs against the PyTorch baseline"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        String which = a.positionals().isEmpty() ? "" : a.positionals().getFirst();
        if (which.equals("agmm")) return agmm(a, out, err);
        if (!which.equals("lowering")) {
            throw new UsageException(which.isEmpty() ? "which benchmark? (lowering, agmm)"
                    : "unknown benchmark '" + which + "' (available: lowering, agmm)");
        }
        int ops = (int) Arguments.integer("--ops", a.value("--ops").orElse("200"), 4, 100_000);
        int devices = a.value("--devices").isPresent() ? a.devices() : 8;
        int reps = (int) Arguments.integer("--repetitions", a.value("--repetitions").orElse("21"), 1, 10_000);
        int warmup = (int) Arguments.integer("--warmup", a.value("--warmup").orElse("5"), 0, 10_000);
        out.println(LoweringBenchmark.run(ops, devices, warmup, reps).format());
        return ExitCode.OK;
    }

    /** AG+GEMM on the local GPUs (DESIGN 5's four shapes), with the PyTorch baseline run first in the same call. */
    private static int agmm(Arguments a, PrintStream out, PrintStream err) throws UsageException {
        int devices = a.value("--devices").isPresent() ? a.devices() : 2;
        int reps = (int) Arguments.integer("--repetitions", a.value("--repetitions").orElse("10"), 1, 10_000);
        int warmup = (int) Arguments.integer("--warmup", a.value("--warmup").orElse("3"), 0, 10_000);
        java.nio.file.Path home = java.nio.file.Path.of(System.getProperty("hirstudio.home", "."));
        String torch = a.value("--torch").orElse(home.resolve("scripts/torch_ag_matmul_baseline.py").toString());
        java.nio.file.Path examples = java.nio.file.Path.of(a.value("--examples")
                .orElse(home.resolve("examples").toString()));
        if (!org.hostir.studio.exec.cuda.CudaBackend.available(devices)) {
            err.println("error: bench agmm: needs " + devices + " CUDA devices, found "
                    + org.hostir.studio.exec.cuda.CudaBackend.localDeviceCount());
            return ExitCode.BAD_INPUT;
        }
        try {
            if (a.flag("--gemm")) {
                return org.hostir.studio.exec.cuda.AgMatmulReport.gemm(torch.equals("none") ? null
                        : home.resolve("scripts/torch_gemm.py"), devices, out);
            }
            if (a.flag("--dispatch")) {
                return org.hostir.studio.exec.cuda.AgMatmulDispatch.dispatchCosts(devices, out);
            }
            if (a.value("--diagnose").isPresent()) {
                return org.hostir.studio.exec.cuda.AgMatmulReport.diagnose(examples,
                        java.nio.file.Path.of(a.value("--diagnose").get()), devices, out);
            }
            return org.hostir.studio.exec.cuda.AgMatmulReport.run(examples,
                    torch.equals("none") ? null : java.nio.file.Path.of(torch), devices, reps, warmup, out);
        } catch (Exception e) {
            err.println("error: bench agmm: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }
}
