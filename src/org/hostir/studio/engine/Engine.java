package org.hostir.studio.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.io.Diagnostic;
import org.hostir.studio.io.FusionFileException;
import org.hostir.studio.io.FusionLoader;
import org.hostir.studio.io.FusionLocator;
import org.hostir.studio.io.FusionReader;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.io.ParsedFusion;
import org.hostir.studio.io.Subject;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.LoweringError;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.Pipeline;

/**
 * The one service every front end (command line, editor, Lowering view, Run on CPU, launch) goes through: load
 * a fusion and bind its symbols, lower it with options keeping the pass trace, choose a backend and run it,
 * validating against the unsharded reference. Every failure is an {@link EngineFailure} with located
 * diagnostics; front ends only print or mark them.
 */
public final class Engine {
    private Engine() {}

    /** Reads a fusion without binding it (an editor's document may not load yet). */
    public static ParsedFusion parse(FusionSource source) throws EngineFailure {
        try {
            return switch (source) {
                case FusionSource.File f -> FusionReader.read(f.path(), f.label());
                case FusionSource.Text t -> FusionReader.read(t.text(), t.label());
            };
        } catch (FusionFileException e) {
            throw badInput(e.diagnostics());
        }
    }

    /** Reads, binds ({@code overrides} over the file's defaults, unknown symbols refused) and validates. */
    public static LoadedFusion load(FusionSource source, int devices, Map<String, Long> overrides)
            throws EngineFailure {
        return load(parse(source), devices, overrides);
    }

    public static LoadedFusion load(ParsedFusion parsed, int devices, Map<String, Long> overrides)
            throws EngineFailure {
        try {
            return FusionLoader.load(parsed, devices, overrides);
        } catch (FusionFileException e) {
            throw badInput(e.diagnostics());
        }
    }

    /** Every pass's snapshot for each rank in {@code ranks}; {@code proceed} is asked before each rank. */
    public static PassTrace lower(LoadedFusion loaded, LoweringOptions options, List<Integer> ranks,
                                  IntPredicate proceed) throws EngineFailure {
        int devices = loaded.bindings().devices();
        List<PassTrace.RankTrace> traces = new ArrayList<>();
        try {
            for (int rank : ranks) {
                if (!proceed.test(rank)) return null;
                traces.addAll(Pipeline.standard().trace(loaded.fusion(), devices, options, List.of(rank)).ranks());
            }
        } catch (LoweringException e) {
            throw located(e, loaded);
        }
        return new PassTrace(devices, options, traces);
    }

    public static PassTrace lower(LoadedFusion loaded, LoweringOptions options, List<Integer> ranks)
            throws EngineFailure {
        return lower(loaded, options, ranks, rank -> true);
    }

    /**
     * Lowers every rank and keeps nothing: what {@code check} and {@code lower} refuse is exactly what the
     * lowering refuses on some rank (nvFuser lowers per rank, and a rank outside a mesh skips the ops there), so
     * the decisions live in the passes only and no check repeats them.
     */
    public static void check(LoadedFusion loaded, LoweringOptions options) throws EngineFailure {
        int devices = loaded.bindings().devices();
        try {
            for (int rank = 0; rank < devices; rank++) {
                Pipeline.standard().lower(loaded.fusion(), new LoweringContext(rank, devices, options));
            }
        } catch (LoweringException e) {
            throw located(e, loaded);
        }
    }

    /** The final program of one rank. */
    public static HostIrContainer lowerRank(LoadedFusion loaded, LoweringOptions options, int rank)
            throws EngineFailure {
        try {
            return Pipeline.standard().lower(loaded.fusion(),
                    new LoweringContext(rank, loaded.bindings().devices(), options));
        } catch (LoweringException e) {
            throw located(e, loaded);
        }
    }

    /**
     * Runs a loaded fusion on the backend {@code plan} chose, lowering every rank first. What the run needs (symbol
     * values, sizes, the Java heap: {@link RunBudget}) is refused before anything is allocated; a heap that runs
     * out all the same ends the run as a failure, not as a bug.
     */
    public static RunResult run(LoadedFusion loaded, BackendPlan plan, Consumer<String> progress)
            throws EngineFailure {
        RunBudget.check(loaded, plan, Runtime.getRuntime().maxMemory());
        RunRequest r = plan.request();
        RunConfig config = new RunConfig(r.devices(), loaded.bindings().asMap(), r.options(), r.iterations(),
                r.warmup(), r.validate(), r.seed(), r.timeoutMillis());
        try (Backend backend = plan.open()) {
            return Runner.run(loaded.fusion(), config, backend, progress);
        } catch (LoweringException e) {
            throw located(e, loaded);
        } catch (OutOfMemoryError e) {
            throw new EngineFailure(EngineFailure.Kind.RUN_FAILED, List.of(new Diagnostic(loaded.source().file(), 0,
                    "run failed", RunBudget.RULE_MEMORY, "the Java heap (" + RunBudget.bytes(Runtime.getRuntime()
                    .maxMemory()) + ") ran out: lower the sizes (--set) or --devices, or raise -Xmx"
                    + " (HIRSTUDIO_JAVA_OPTS)", new Subject.Setting("run"))));
        } catch (ExecutionException e) {
            List<String> lines = e.getMessage().lines().toList();
            Diagnostic d = new Diagnostic(loaded.source().file(), 0, "run failed", "run", lines.getFirst(),
                    new Subject.Setting("run"));
            throw new EngineFailure(EngineFailure.Kind.RUN_FAILED, List.of(d),
                    lines.stream().skip(1).map(String::strip).toList());
        }
    }

    /** A lowering error as a diagnostic at the place in the file its subject resolves to. */
    public static Diagnostic diagnostic(LoweringError error, LoadedFusion loaded) {
        FusionLocator.Location at = loaded.locator().locate(error.subject());
        return new Diagnostic(loaded.source().file(), at.line(), error.where(), error.rule(), error.message(),
                error.subject());
    }

    private static EngineFailure located(LoweringException e, LoadedFusion loaded) {
        return badInput(e.errors().stream().map(err -> diagnostic(err, loaded)).toList());
    }

    private static EngineFailure badInput(List<Diagnostic> diagnostics) {
        return new EngineFailure(EngineFailure.Kind.BAD_INPUT, diagnostics);
    }
}
