package org.hostir.studio.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.NpySaver;
import org.hostir.studio.engine.OutputFiles;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.engine.RoutingFiles;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.file.AtomicFiles;
import org.hostir.studio.file.FileErrors;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.trace.ChromeTraceWriter;

/**
 * A run on the console, shared by {@code run} and {@code demo}: load and plan through the {@link Engine}, print
 * the header, run, print the report, save the tensors and the trace when asked, and end with the validation line.
 *
 * @param file     the fusion file as the user named it
 * @param symbols  {@code --set} overrides
 * @param trace    where to write the Chrome trace, if anywhere
 * @param saveNpy  where to save inputs and outputs as {@code .npy}, if anywhere
 * @param force    {@code --force}: the trace and the tensors may replace files this tool did not write
 * @param routing  {@code --routing} and {@code --capacity-factor} of a simulation ({@link RoutingFiles})
 * @param writeRouting where a CPU or CUDA run writes its per-expert token counts, if anywhere
 */
record RunFlow(String file, Map<String, Long> symbols, RunRequest request, Optional<Path> trace,
               Optional<Path> saveNpy, boolean force, Routing routing, Optional<Path> writeRouting) {
    /** {@code --routing} and {@code --capacity-factor} as typed (checked by {@link RoutingFiles#model}). */
    record Routing(String routing, String capacity) {
        static final Routing DEFAULT = new Routing("uniform", "none");
    }


    RunFlow(String file, Map<String, Long> symbols, RunRequest request, Optional<Path> trace, Optional<Path> saveNpy,
            boolean force) {
        this(file, symbols, request, trace, saveNpy, force, Routing.DEFAULT, Optional.empty());
    }

    int run(PrintStream out, PrintStream err) {
        LoadedFusion loaded;
        RunResult result;
        BackendPlan plan;
        try {
            loaded = Engine.load(new FusionSource.File(Path.of(file), file), request.devices(), symbols);
            checkOutputs(loaded);
            plan = BackendPlan.choose(request, file);
            if (plan.kind() == BackendPlan.Kind.SIM) {
                plan = plan.withRouting(RoutingFiles.model(routing.routing(), routing.capacity(), request.seed(),
                        file));
            }
            header(loaded, plan, out);
            result = Engine.run(loaded, plan, out::println);
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        RunReport.print(result, out);
        if (plan.kind() == BackendPlan.Kind.SIM) {
            out.printf(java.util.Locale.ROOT, "predicted: span %.3f ms on %d x %s (simulated, not measured: see"
                    + " docs/simulation.md)%n", result.medianMillis(), request.devices(), plan.profile().name());
        }
        try {
            checkOutputs(loaded); // again: a file may have appeared at the path while the run ran
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        if (saveNpy.isPresent() && !saveNpy(loaded, result, out, err)) return ExitCode.FAILED;
        if (trace.isPresent() && !writeTrace(loaded, result, plan, out, err)) return ExitCode.FAILED;
        if (writeRouting.isPresent() && !writeRouting(loaded, result, out, err)) return ExitCode.FAILED;
        if (result.validation().isPresent()) {
            out.println(result.validation().get().line());
            if (!result.validation().get().passed()) return ExitCode.FAILED;
        }
        return ExitCode.OK;
    }

    /**
     * What the run reads (the fusion, a profile file) and where it writes (the trace, each file of
     * {@code --save-npy}), refused before the run, not after it (see {@link OutputFiles}).
     */
    private void checkOutputs(LoadedFusion loaded) throws EngineFailure {
        OutputFiles plan = OutputFiles.of(file).reads(Path.of(file), "the fusion file being run");
        if (request.backend() == RunRequest.BackendChoice.SIM && !ProfileJson.BUILT_IN.contains(request.profile())) {
            try {
                plan = plan.reads(Path.of(request.profile()), "the profile this run reads (" + RunCommandLine.PROFILE
                        + ")");
            } catch (InvalidPathException e) {
                // no such file: the profile is refused by name when the backend is chosen
            }
        }
        if (trace.isPresent()) {
            plan = plan.writes(RunCommandLine.TRACE, trace.get(), "a trace", ChromeTraceWriter::wroteThis);
        }
        if (writeRouting.isPresent()) {
            plan = plan.writes(RunCommandLine.WRITE_ROUTING, writeRouting.get(), "a routing histogram",
                    RoutingFiles::wroteThis);
        }
        if (saveNpy.isPresent()) {
            OptionalInt rank = request.launcher().map(l -> OptionalInt.of(l.rank())).orElse(OptionalInt.empty());
            plan = NpySaver.plan(plan, saveNpy.get(), loaded.fusion(), rank);
        }
        plan.check(force);
    }

    private void header(LoadedFusion loaded, BackendPlan plan, PrintStream out) {
        int devices = request.devices();
        out.println("fusion " + Texts.printable(loaded.fusion().name()) + ": " + devices + " device"
                + (devices == 1 ? "" : "s") + ", backend " + plan.describe() + ", " + request.options().asMap());
        out.println("symbols: " + new TreeMap<>(loaded.bindings().asMap()));
        request.launcher().ifPresent(l -> out.println("launcher: " + l.describe()));
    }

    private boolean saveNpy(LoadedFusion loaded, RunResult result, PrintStream out, PrintStream err) {
        Path dir = saveNpy.orElseThrow();
        try {
            Path manifest = NpySaver.save(dir, file, loaded.fusion(), loaded.bindings().asMap(), result,
                    request.devices());
            out.println("saved: " + manifest + " (inputs and outputs as .npy; check them with"
                    + " scripts/check_npy_torch.py " + manifest + ")");
            return true;
        } catch (IOException e) {
            return writeFailed(RunCommandLine.SAVE_NPY, "cannot save the tensors in " + dir + ": "
                    + FileErrors.reason(e), err);
        }
    }

    private boolean writeTrace(LoadedFusion loaded, RunResult result, BackendPlan plan, PrintStream out,
                               PrintStream err) {
        Path path = trace.orElseThrow();
        Map<String, String> about = new TreeMap<>(Map.of("fusion", loaded.fusion().name(), "backend",
                result.backend(), "options", request.options().asMap().toString(), "nvfuser",
                request.options().nvFuser().label() + " (" + request.options().nvFuser().revision() + ")"));
        if (plan.kind() == BackendPlan.Kind.SIM) { // a prediction must never pass for a measurement
            about.put("predicted", "true");
            about.put("profile", plan.profile().name());
            about.put("devices", Integer.toString(request.devices()));
        }
        try {
            AtomicFiles.write(path, stream -> ChromeTraceWriter.write(result.timeline(), about, stream));
        } catch (IOException e) {
            return writeFailed(RunCommandLine.TRACE, "cannot write the trace to " + path + ": " + FileErrors.reason(e),
                    err);
        }
        out.println("trace: " + path + " (Chrome trace JSON: open it in Perfetto, ui.perfetto.dev, or"
                + " chrome://tracing)");
        return true;
    }

    /** {@code --write-routing}: the run's per-expert token counts as a histogram a simulation reads back. */
    private boolean writeRouting(LoadedFusion loaded, RunResult result, PrintStream out, PrintStream err) {
        Path path = writeRouting.orElseThrow();
        try {
            long[] counts = RoutingFiles.measured(loaded.fusion(), result);
            RoutingFiles.write(path, counts, Texts.printable(loaded.fusion().name()) + ", " + request.devices()
                    + " device(s), backend " + result.backend() + ", seed " + request.seed() + ", symbols "
                    + new TreeMap<>(loaded.bindings().asMap()));
            out.println("routing: " + path + " (per-expert token counts " + java.util.Arrays.toString(counts)
                    + "; simulate with --backend sim " + RunCommandLine.ROUTING + " histogram:" + path + ")");
            return true;
        } catch (IllegalArgumentException e) {
            return writeFailed(RunCommandLine.WRITE_ROUTING, e.getMessage(), err);
        } catch (IOException e) {
            return writeFailed(RunCommandLine.WRITE_ROUTING, "cannot write " + path + ": " + FileErrors.reason(e),
                    err);
        }
    }

    /** A write that failed after the run (a full disk, say): nothing was replaced; the run failed (exit 1). */
    private boolean writeFailed(String flag, String message, PrintStream err) {
        err.println(new Diagnostic(file, 0, flag, OutputFiles.RULE, message, new Subject.Setting(flag)).format());
        return false;
    }
}
