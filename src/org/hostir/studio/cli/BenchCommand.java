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
            "--warmup"), Set.of(), Set.of());

    @Override
    public String name() { return "bench"; }

    @Override
    public String usage() { return "bench lowering [--ops N] [--devices N] [--repetitions N] [--warmup N]"; }

    @Override
    public String summary() { return "benchmarks: lowering speed (AG+GEMM against PyTorch comes with the CUDA backend)"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        String which = a.positionals().isEmpty() ? "" : a.positionals().getFirst();
        if (!which.equals("lowering")) {
            throw new UsageException(which.isEmpty() ? "which benchmark? (lowering)"
                    : "unknown benchmark '" + which + "' (available: lowering; AG+GEMM needs the CUDA backend)");
        }
        int ops = (int) Arguments.integer("--ops", a.value("--ops").orElse("200"), 4, 100_000);
        int devices = a.value("--devices").isPresent() ? a.devices() : 8;
        int reps = (int) Arguments.integer("--repetitions", a.value("--repetitions").orElse("21"), 1, 10_000);
        int warmup = (int) Arguments.integer("--warmup", a.value("--warmup").orElse("5"), 0, 10_000);
        out.println(LoweringBenchmark.run(ops, devices, warmup, reps).format());
        return ExitCode.OK;
    }
}
