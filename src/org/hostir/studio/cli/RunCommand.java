package org.hostir.studio.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.engine.RunRequest.BackendChoice;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.launch.LauncherEnv;
import org.hostir.studio.lower.LoweringOption;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.OptionType;
import org.hostir.studio.lower.StreamParallelTypePass;

/**
 * {@code hirstudio run FILE.fusion [--backend auto|cpu|cuda] [--devices N] [--set SYM=N ...] [--streams N]
 * [--iterations N] [--warmup N] [--validate[=full] | --no-validate] [--trace OUT.json] [--option KEY=VALUE ...]
 * [--timeout SECONDS] [--save-npy DIR] [--launcher]}: lowers for every rank, runs, and prints per-iteration
 * progress, timings, overlap figures, host dispatch per node, peak memory and, unless {@code --no-validate} (or
 * {@code --backend sim} without {@code --validate}: a prediction is not validated by default), the
 * comparison with the unsharded reference (exit 1 when it fails): every element up to a size, a sample beyond,
 * every element whatever the size with {@code --validate=full} (docs/validation.md). {@code --save-npy} writes inputs and outputs for an outside check. The trace
 * and the tensors replace only files this tool wrote, never the fusion itself, unless {@code --force}. With
 * {@code --launcher} this process is one rank of several that a launcher started, one per GPU (RANK, WORLD_SIZE,
 * LOCAL_RANK, MASTER_ADDR, MASTER_PORT as torchrun sets them): it runs its rank's program on the CUDA backend and
 * validates its own shard. {@code --host-timing-only} (CUDA) records host dispatch bars but no CUDA events.
 * {@code --share-gpus} runs more ranks than there are GPUs on the CUDA backend, round robin, with point-to-point
 * over the copy engines (lowering option {@code backend=cuda}): for trying a multi-rank program, and measuring
 * its host dispatch, on a machine with one GPU. The run itself is the {@link RunFlow} that {@code demo} shares.
 */
public final class RunCommand implements Command {
    /** Without {@code --iterations}: timing stops before the timed iterations would pass this. */
    static final long DEFAULT_TIMED_MILLIS = 5_000;
    private static final ArgumentParser PARSER = new ArgumentParser(RunCommandLine.VALUED, RunCommandLine.REPEATED,
            RunCommandLine.SWITCHES, RunCommandLine.VALUED_SWITCHES);

    @Override
    public String name() { return "run"; }

    @Override
    public String usage() {
        return "run FILE.fusion [--backend auto|cpu|cuda|sim] [--profile NAME|FILE] [--devices N] [--set SYM=N ...]"
                + " [--streams N] " + Arguments.NVFUSER_USAGE
                + " [--iterations N] [--warmup N] [--validate[=full]|--no-validate] [--trace OUT.json] [--option KEY=VALUE ...]"
                + " [--timeout SECONDS] [--save-npy DIR] [--force] [--launcher] [--host-timing-only] [--share-gpus]"
                + " [--routing uniform|zipf:S|histogram:FILE] [--capacity-factor F|none] [--write-routing FILE]";
    }

    @Override
    public String summary() { return "lower and execute a fusion, optionally validating and tracing it"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        String file = a.file();
        BackendChoice backend = FusionArguments.backend(a.value("--backend").orElse("auto"));
        Optional<LauncherEnv> launcher = Optional.empty();
        if (a.flag("--launcher")) {
            if (backend == BackendChoice.CPU || backend == BackendChoice.SIM) {
                throw new UsageException("--launcher runs on the CUDA backend, not --backend " + a.value("--backend")
                        .orElseThrow());
            }
            try {
                launcher = Optional.of(LauncherEnv.parse(System.getenv()));
            } catch (ExecutionException | IllegalArgumentException e) {
                err.println(TerminalText.escape("error: " + file + ": --launcher: " + e.getMessage()
                        + " [run.launcher]"));
                return ExitCode.BAD_INPUT;
            }
            if (a.value("--devices").isPresent() && a.devices() != launcher.get().worldSize()) {
                throw new UsageException("--devices " + a.devices() + " but the launcher's WORLD_SIZE is "
                        + launcher.get().worldSize());
            }
        }
        int devices = launcher.isPresent() ? launcher.get().worldSize() : a.devicesFor(file);
        // by default one warm-up, then up to 5 timed iterations within 5 s: a median that means something, and a
        // run of 1,024 devices that is not repeated five times
        boolean timedByDefault = a.value("--iterations").isEmpty();
        RunRequest request = new RunRequest(backend, devices, options(a), integer(a, "--iterations", "5", 1, 100_000),
                integer(a, "--warmup", "1", 0, 100_000), validation(a, a.value("--backend").orElse("auto")),
                Arguments.integer("--seed", a.value("--seed").orElse("42"), 0, Long.MAX_VALUE),
                Arguments.integer("--timeout", a.value("--timeout").orElse("20"), 1, 86_400) * 1000,
                a.flag("--share-gpus"), launcher, a.flag("--host-timing-only"),
                a.value(RunCommandLine.PROFILE).orElse(RunRequest.DEFAULT_PROFILE),
                timedByDefault ? DEFAULT_TIMED_MILLIS : 0);
        if (a.value(RunCommandLine.PROFILE).isPresent() && backend != BackendChoice.SIM) {
            throw new UsageException("--profile names the machine a simulation predicts for: add --backend sim");
        }
        return new RunFlow(file, a.symbols(), request, path(a, RunCommandLine.TRACE), path(a, RunCommandLine.SAVE_NPY),
                a.flag(RunCommandLine.FORCE), routing(a, backend), path(a, RunCommandLine.WRITE_ROUTING)).run(out, err);
    }

    /**
     * {@code --routing} and {@code --capacity-factor}, a simulation's (checked when the backend is chosen);
     * {@code --write-routing} needs the data of a CPU or CUDA run.
     */
    private static RunFlow.Routing routing(Arguments a, BackendChoice backend) throws UsageException {
        for (String flag : List.of(RunCommandLine.ROUTING, RunCommandLine.CAPACITY_FACTOR)) {
            if (a.value(flag).isPresent() && backend != BackendChoice.SIM) {
                throw new UsageException(flag + " declares how a simulation routes MoE tokens: add --backend sim"
                        + " (a CPU or CUDA run routes by its data; --write-routing FILE keeps its counts)");
            }
        }
        if (a.value(RunCommandLine.WRITE_ROUTING).isPresent() && backend == BackendChoice.SIM) {
            throw new UsageException(RunCommandLine.WRITE_ROUTING + " writes the per-expert counts of a run with data:"
                    + " use --backend cpu or cuda (a simulation routes by --routing)");
        }
        return new RunFlow.Routing(a.value(RunCommandLine.ROUTING).orElse(RunFlow.Routing.DEFAULT.routing()),
                a.value(RunCommandLine.CAPACITY_FACTOR).orElse(RunFlow.Routing.DEFAULT.capacity()));
    }

    private static ValidationMode validation(Arguments a, String backend) throws UsageException {
        try {
            return RunCommandLine.validation(backend, a.flag(RunCommandLine.VALIDATE), a.value(RunCommandLine.VALIDATE),
                    a.flag(RunCommandLine.NO_VALIDATE), a.value(RunCommandLine.SAVE_NPY).isPresent());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static Optional<Path> path(Arguments a, String flag) throws UsageException {
        Optional<String> text = a.value(flag);
        return text.isEmpty() ? Optional.empty() : Optional.of(Arguments.path(flag, text.get()));
    }


    /**
     * {@code --option}s, with {@code --streams N} as {@code numberOfStreams}; a bad {@code --streams} is reported as
     * {@code --streams}, with the option's range, not as the option the user did not type.
     */
    private static LoweringOptions options(Arguments a) throws UsageException {
        Map<String, String> streams = new LinkedHashMap<>();
        Optional<String> value = a.value(RunCommandLine.STREAMS);
        if (value.isPresent()) {
            LoweringOption<Integer> option = StreamParallelTypePass.NUMBER_OF_STREAMS;
            if (a.options().containsKey(option.key())) {
                throw new UsageException(RunCommandLine.STREAMS + " and --option " + option.key() + " both set the"
                        + " number of streams; give one");
            }
            if (option.type() instanceof OptionType.IntRange range) {
                Arguments.integer(RunCommandLine.STREAMS, value.get(), range.min(), range.max());
            }
            streams.put(option.key(), value.get());
        }
        return a.loweringOptions(streams);
    }

    private static int integer(Arguments a, String flag, String fallback, int min, int max) throws UsageException {
        return (int) Arguments.integer(flag, a.value(flag).orElse(fallback), min, max);
    }
}
