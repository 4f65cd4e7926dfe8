package org.hostir.studio.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.diff.Canonical;
import org.hostir.studio.diff.ProgramComparison;
import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.debug.StopRule;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.debug.Breakpoint;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.export.CppTestExporter;
import org.hostir.studio.export.ExportException;
import org.hostir.studio.export.LegacyPythonExporter;
import org.hostir.studio.export.PythonExporter;
import org.hostir.studio.file.FileErrors;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.Limits;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.ParsedFusion;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.file.Utf8Text;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.NotExecutable;
import org.hostir.studio.ir.parse.DumpLog;
import org.hostir.studio.ir.parse.DumpWarning;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.lower.LoweringError;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.rules.FusionBindings;

/**
 * The one service every front end (command line, editor, Lowering view, Run on CPU, launch, benchmarks) goes
 * through: load a fusion and bind its symbols, compile it ({@link Compilation}: lowered once, read by check, the
 * pass traces, the run's checks and every backend), run it on the strategy its {@link BackendPlan} chose,
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

    /**
     * The editor's view of a fusion's shardings (issue 34): per tensor and axis, written or inferred and where an
     * inferred one came from, plus the conflicts and every other load problem as diagnostics. Never throws: a
     * document that does not load gives its diagnostics and no tensors.
     */
    public static ShardingReport shardings(ParsedFusion parsed, int devices, Map<String, Long> overrides) {
        try {
            return ShardingReport.of(FusionLoader.load(parsed, devices, overrides));
        } catch (FusionFileException e) {
            return ShardingReport.refused(e.diagnostics());
        }
    }

    /** As above for a fusion already loaded ({@code check} prints its {@link ShardingReport#lines()}). */
    public static ShardingReport shardings(LoadedFusion loaded) { return ShardingReport.of(loaded); }

    /** As above for a fusion source (a file, or the editor's text). */
    public static ShardingReport shardings(FusionSource source, int devices) {
        try {
            return shardings(parse(source), devices, Map.of());
        } catch (EngineFailure e) {
            return ShardingReport.refused(e.diagnostics());
        }
    }

    /** As above for a fusion built in memory (diagnostics name IR tensors, without file lines). */
    public static ShardingReport shardings(Fusion fusion) { return ShardingReport.of(fusion); }

    /**
     * The device count a command uses when {@code --devices} is not given: what the file's explicit meshes need
     * (the highest device id + 1, so an example on mesh [3, 1] runs on 4), at least the default 2. A file that
     * does not parse gets the default; loading it reports why.
     */
    public static int defaultDevices(FusionSource source) {
        int needed = FusionBindings.DEFAULT_DEVICES;
        try {
            for (TensorSpec t : parse(source).document().tensors()) {
                if (t.mesh() instanceof MeshSpec.Devices(List<Integer> ids, List<Integer> shape)) {
                    for (int id : ids) needed = Math.max(needed, Math.min(id + 1, Limits.MAX_DEVICES));
                }
            }
        } catch (EngineFailure unreadable) {
            return FusionBindings.DEFAULT_DEVICES;
        }
        return needed;
    }

    /**
     * The lowering of {@code loaded} with {@code options} that every later step reads: the fusion passes run once,
     * each rank is lowered when first asked for and kept; the ranks in {@code traced} keep their pass trace.
     */
    public static Compilation compile(LoadedFusion loaded, LoweringOptions options, Collection<Integer> traced) {
        return compile(loaded.written(), loaded.bindings().devices(), options, traced);
    }

    /** As above for a fusion built in memory (a benchmark's generated one). */
    public static Compilation compile(Fusion fusion, int devices, LoweringOptions options,
                                      Collection<Integer> traced) {
        return Compilation.of(fusion, devices, options, Set.copyOf(traced));
    }

    public static Compilation compile(LoadedFusion loaded, LoweringOptions options) {
        return compile(loaded, options, List.of());
    }

    /** Every pass's snapshot for each rank in {@code ranks}; {@code proceed} is asked before each rank. */
    public static PassTrace lower(LoadedFusion loaded, LoweringOptions options, List<Integer> ranks,
                                  IntPredicate proceed) throws EngineFailure {
        return lower(loaded, compile(loaded, options, ranks), ranks, proceed);
    }

    public static PassTrace lower(LoadedFusion loaded, LoweringOptions options, List<Integer> ranks)
            throws EngineFailure {
        return lower(loaded, options, ranks, rank -> true);
    }

    /** The pass traces of {@code ranks} from {@code compilation} (kept there for its traced ranks). */
    public static PassTrace lower(LoadedFusion loaded, Compilation compilation, List<Integer> ranks,
                                  IntPredicate proceed) throws EngineFailure {
        List<PassTrace.RankTrace> traces = new ArrayList<>();
        try {
            for (int rank : ranks) {
                if (!proceed.test(rank)) return null;
                traces.add(of(loaded, compilation).trace(rank));
            }
        } catch (LoweringException e) {
            throw located(e, loaded);
        }
        return new PassTrace(compilation.devices(), compilation.options(), traces);
    }

    public static void check(LoadedFusion loaded, LoweringOptions options) throws EngineFailure {
        check(loaded, compile(loaded, options));
    }

    /**
     * Lowers every rank (each once, from one run of the fusion passes): what {@code check} and {@code lower}
     * refuse is exactly what the lowering refuses on some rank (nvFuser lowers per rank, and a rank outside a mesh
     * skips the ops there), plus what {@link #admitted} decides from the file's extents, which a run decides the
     * same way for the ranks it runs; the decisions live in the passes and here only.
     */
    public static void check(LoadedFusion loaded, Compilation compilation) throws EngineFailure {
        try {
            for (int rank = 0; rank < compilation.devices(); rank++) admitted(loaded, compilation, rank);
        } catch (LoweringException e) {
            throw located(e, loaded);
        }
        RunBudget.elementCounts(loaded, compilation);
    }

    /** The final program of one rank. */
    public static HostIrContainer lowerRank(LoadedFusion loaded, LoweringOptions options, int rank)
            throws EngineFailure {
        return lowerRank(loaded, compile(loaded, options), rank);
    }

    public static HostIrContainer lowerRank(LoadedFusion loaded, Compilation compilation, int rank)
            throws EngineFailure {
        try {
            return of(loaded, compilation).program(rank);
        } catch (LoweringException e) {
            throw located(e, loaded);
        }
    }

    /**
     * A rank's program as {@code check} and a run both accept it: lowered, and each AllToAll's layout evaluated on
     * the file's extents ({@link AllToAllLayouts}), which the lowering cannot decide without symbol values.
     */
    private static HostIrContainer admitted(LoadedFusion loaded, Compilation compilation, int rank) {
        HostIrContainer program = of(loaded, compilation).program(rank);
        AllToAllLayouts.check(program, loaded, rank, compilation.options());
        return program;
    }

    /** {@code compilation}, checked to be of {@code loaded}'s fusion and device count. */
    private static Compilation of(LoadedFusion loaded, Compilation compilation) {
        if (compilation.fusion() != loaded.written() || compilation.devices() != loaded.bindings().devices()) {
            throw new IllegalArgumentException("the compilation is of another fusion or device count");
        }
        return compilation;
    }

    /** Compiles {@code loaded} with the plan's options and runs it as below. */
    public static RunResult run(LoadedFusion loaded, BackendPlan plan, Consumer<String> progress)
            throws EngineFailure {
        return run(loaded, compile(loaded, plan.request().options()), plan, progress);
    }

    /**
     * Runs a loaded fusion on the strategy {@code plan} chose, with the programs of {@code compilation} (its
     * options must be the plan's). What the run needs (symbol values, sizes, the Java heap: {@link RunBudget}) is
     * refused before anything is allocated; a heap that runs out all the same ends the run as a failure, not as a
     * bug.
     */
    public static RunResult run(LoadedFusion loaded, Compilation compilation, BackendPlan plan,
                                Consumer<String> progress) throws EngineFailure {
        if (!compilation.options().equals(plan.request().options())) {
            throw new IllegalArgumentException("the compilation's options are not the run's");
        }
        RunBudget.check(loaded, compilation, plan, Runtime.getRuntime().maxMemory());
        UpFrontCheck.all(loaded, compilation, plan);
        RunRequest r = plan.request();
        RunConfig config = new RunConfig(r.devices(), loaded.bindings().asMap(), r.options().numberOfStreams(),
                r.iterations(), r.warmup(), r.validation(), r.seed(), r.timeoutMillis(), r.timedBudgetMillis());
        return asRun(loaded, () -> {
            try (RunStrategy strategy = plan.open()) {
                return strategy.run(loaded.fusion(), rank -> admitted(loaded, compilation, rank), config, progress);
            }
        });
    }

    /**
     * Runs {@code compilation}'s programs on a strategy the caller opened and closes (a benchmark's own backend),
     * without the up-front checks of a planned run.
     */
    public static RunResult run(LoadedFusion loaded, Compilation compilation, RunConfig config, RunStrategy strategy,
                                Consumer<String> progress) throws EngineFailure {
        return asRun(loaded, () -> strategy.run(loaded.fusion(), rank -> admitted(loaded, compilation, rank), config,
                progress));
    }

    /**
     * Starts a debugged run of {@code compilation}'s programs (every rank, one iteration, the inputs of
     * {@code seed}, validated at the end) on the CPU backend: the backend that is deterministic and can tell when
     * the run is at rest, which every stop waits for. Its watchdog is off: the debugger holds ranks on purpose
     * and names a deadlock itself ({@link DebugStop#stuck()}). A refusal of a rank's program is located as
     * {@link #check} locates it.
     */
    public static DebugSession debug(LoadedFusion loaded, Compilation compilation, List<Breakpoint> breakpoints,
                                     boolean suspendAtStart, long seed) throws EngineFailure {
        return debug(loaded, compilation, breakpoints, suspendAtStart, seed, RunRequest.BackendChoice.CPU);
    }

    /** As above on {@code backend} (one {@link DebugBackends#refusal} accepts; CUDA takes stops as it says). */
    public static DebugSession debug(LoadedFusion loaded, Compilation compilation, List<Breakpoint> breakpoints,
                                     boolean suspendAtStart, long seed, RunRequest.BackendChoice backend)
            throws EngineFailure {
        Map<Integer, HostIrContainer> programs = new TreeMap<>();
        try {
            for (int rank = 0; rank < compilation.devices(); rank++) {
                programs.put(rank, admitted(loaded, compilation, rank));
            }
        } catch (LoweringException e) {
            throw located(e, loaded);
        }
        return debug(loaded, programs, compilation.options().numberOfStreams(), breakpoints, suspendAtStart, seed,
                backend);
    }

    /**
     * A debugged run of given programs of {@code loaded}'s fusion, one per rank (a hand-edited dump, read by
     * {@link #dumpPrograms}): their symbols are the file's under nvFuser's names ({@code i3}) as well as the
     * user's, as a dump names them.
     */
    public static DebugSession debug(LoadedFusion loaded, Map<Integer, HostIrContainer> programs, int streams,
                                     List<Breakpoint> breakpoints, boolean suspendAtStart, long seed) {
        return DebugSession.start(loaded.fusion(), programs, debugConfig(loaded, streams, seed),
                new CpuBackend(loaded.bindings().devices(), CpuBackend.NO_TIMEOUT), breakpoints, suspendAtStart);
    }

    /**
     * As above on {@code backend}: refused in one line where this machine lacks its devices or, on CUDA with
     * several ranks, where a rank's communications cannot be known before the run ({@link DebugSession#refusal}).
     */
    public static DebugSession debug(LoadedFusion loaded, Map<Integer, HostIrContainer> programs, int streams,
                                     List<Breakpoint> breakpoints, boolean suspendAtStart, long seed,
                                     RunRequest.BackendChoice backend) throws EngineFailure {
        int devices = loaded.bindings().devices();
        RunConfig config = debugConfig(loaded, streams, seed);
        StopRule rule = DebugBackends.rule(backend);
        Optional<String> refused = DebugBackends.unavailable(backend, devices)
                .or(() -> DebugSession.refusal(programs, config, rule));
        if (refused.isPresent()) {
            throw new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(loaded.source().file(), 0,
                    "debug", "debug.backend", refused.get())));
        }
        return DebugSession.start(loaded.fusion(), programs, config, DebugBackends.open(backend, devices),
                breakpoints, suspendAtStart, rule);
    }

    /** One iteration of the inputs of {@code seed}; the file's symbols also under nvFuser's names, as a dump uses. */
    private static RunConfig debugConfig(LoadedFusion loaded, int streams, long seed) {
        Map<String, Long> symbols = new HashMap<>(loaded.bindings().asMap());
        loaded.bindings().asMap().forEach((name, value) -> loaded.fusion().symbol(name)
                .ifPresent(sym -> symbols.putIfAbsent("i" + sym.id(), value)));
        return new RunConfig(loaded.bindings().devices(), symbols, streams, 1, 0, ValidationMode.AUTO, seed,
                CpuBackend.NO_TIMEOUT);
    }

    /**
     * Each rank's program from a dump or log ({@link #readDumps(Path)}): the container the log gives that rank,
     * else the first readable one; refused when none is readable.
     */
    public static Map<Integer, HostIrContainer> dumpPrograms(Path dump, int devices) throws EngineFailure {
        List<LogProgram> read = readDumps(dump).stream().filter(LogProgram::readable).toList();
        if (read.isEmpty()) throw dumpRead(dump.toString(), 0, "no container of the dump can be read", "dump.none");
        Map<Integer, HostIrContainer> programs = new TreeMap<>();
        for (int rank = 0; rank < devices; rank++) {
            int r = rank;
            LogProgram chosen = read.stream().filter(p -> p.rank() == r).findFirst().orElse(read.getFirst());
            refuseNotExecutable(dump.toString(), chosen);
            programs.put(rank, chosen.dump().program());
        }
        return programs;
    }

    /**
     * A program with a node no backend runs (a statement kept as text, a LaunchKernel...) is refused before the run,
     * at the line of the dump's first warning (where the reader kept it), not failed on a rank halfway through.
     */
    private static void refuseNotExecutable(String file, LogProgram program) throws EngineFailure {
        for (HostNode node : program.dump().program().allNodes()) {
            Optional<String> why = NotExecutable.reason(node);
            if (why.isEmpty()) continue;
            int line = program.dump().warnings().stream().mapToInt(DumpWarning::line).findFirst()
                    .orElse(program.firstLine());
            throw dumpRead(file, line, program.label() + ": cannot run '" + HostIrPrinter.headline(node, program.dump().generation()) + "': "
                    + why.get(), "dump.not-executable");
        }
    }

    /** A run whose failures are located diagnostics: a refusal at its line, a run failure at its op's. */
    private static RunResult asRun(LoadedFusion loaded, Supplier<RunResult> run) throws EngineFailure {
        try {
            return run.get();
        } catch (LoweringException e) {
            throw located(e, loaded);
        } catch (OutOfMemoryError e) {
            throw new EngineFailure(EngineFailure.Kind.RUN_FAILED, List.of(new Diagnostic(loaded.source().file(), 0,
                    "run failed", RunBudget.RULE_MEMORY, "the Java heap (" + RunBudget.bytes(Runtime.getRuntime()
                    .maxMemory()) + ") ran out: lower the sizes (--set) or --devices, or raise -Xmx"
                    + " (HIRSTUDIO_JAVA_OPTS)", new Subject.Setting("run"))));
        } catch (RunFailure e) {
            List<String> lines = e.getMessage().lines().toList();
            Diagnostic d = RunFailures.located(e, lines.getFirst(), loaded);
            throw new EngineFailure(EngineFailure.Kind.RUN_FAILED, List.of(d),
                    lines.stream().skip(1).map(String::strip).toList());
        }
    }

    /** The hardware profiles {@code --backend sim} knows by name (a profile file's path is taken as well). */
    public static List<String> builtInProfiles() { return ProfileJson.BUILT_IN; }

    /** Runs a schedule sweep of {@code source} (every point simulated as {@link #run} does), telling each point. */
    public static List<ScheduleSweep.Point> sweep(ScheduleSweep sweep, FusionSource source, String file,
                                                  Consumer<ScheduleSweep.Point> each) {
        return sweep.run(source, file, each);
    }

    /**
     * The Host IR programs of an {@code NVFUSER_DUMP=host_ir} dump or a whole log holding several (per rank, per
     * pass), each labelled by what the log says before it (docs/nvfuser-interop.md). A container that cannot be
     * read is listed with its error; text with no container at all is bad input.
     */
    public static List<LogProgram> readDumps(String text, String label) throws EngineFailure {
        List<LogProgram> programs = DumpLog.split(text);
        if (programs.isEmpty()) {
            throw badInput(List.of(new Diagnostic(label, 0, "dump", "dump.none",
                    "no %HostIrContainer in the text: not an NVFUSER_DUMP=host_ir dump or log",
                    new Subject.Setting("dump"))));
        }
        return programs;
    }

    /**
     * {@link #readDumps(String, String)} of a file, refused (not thrown) when it cannot be read as text: missing, a
     * folder, a pipe or device ({@code dump.read}), or not UTF-8 ({@code dump.encoding}, at the line of the byte).
     */
    public static List<LogProgram> readDumps(Path file) throws EngineFailure {
        String label = file.toString();
        try {
            if (Files.isDirectory(file)) throw dumpRead(label, 0, "is a folder, not a dump", "dump.read");
            if (Files.exists(file) && !Files.isRegularFile(file)) {
                throw dumpRead(label, 0, "is not a regular file (a pipe or a device?)", "dump.read");
            }
            return readDumps(Utf8Text.decode(Files.readAllBytes(file)), label);
        } catch (NoSuchFileException e) {
            throw dumpRead(label, 0, "no such file", "dump.read");
        } catch (Utf8Text.NotUtf8Exception e) {
            throw dumpRead(label, e.line(), "the file is not UTF-8 text (byte offset " + e.offset() + "): an"
                    + " NVFUSER_DUMP=host_ir dump or log is", "dump.encoding");
        } catch (IOException e) {
            throw dumpRead(label, 0, "cannot read the dump: " + FileErrors.reason(e), "dump.read");
        }
    }

    private static EngineFailure dumpRead(String file, int line, String message, String rule) {
        return badInput(List.of(new Diagnostic(file, line, "dump", rule, message, new Subject.Setting("dump"))));
    }

    /**
     * A dump's program as it is compared: its index definitions, if it printed them (#5327), in place of the
     * indices they define, and canonical ({@code diff.Canonical.withIndexDefinitions}).
     */
    public static HostIrContainer comparable(ParsedDump dump) {
        return Canonical.withIndexDefinitions(dump.program(), dump.indices());
    }

    /** Two programs compared by structure: numbering (ids, symbols) is not a difference. */
    public static ProgramComparison compare(HostIrContainer a, HostIrContainer b, String labelA, String labelB) {
        return ProgramComparison.compare(a, b, labelA, labelB);
    }

    /** The devices a program's tensors are placed on, as a device count (largest id + 1); 1 when it has no mesh. */
    public static int deviceCount(HostIrContainer program) {
        int max = 0;
        for (List<TensorView> tvs : List.of(program.inputs(), program.outputs())) {
            for (TensorView t : tvs) {
                if (t.mesh() != null) {
                    for (int d : t.mesh().deviceIds()) max = Math.max(max, d);
                }
            }
        }
        return max + 1;
    }

    /** The languages a fusion exports to (docs/nvfuser-interop.md). */
    public enum ExportLanguage { CPP, PYTHON }

    /**
     * A loaded fusion as nvFuser code: the body of a C++ test in the seeds' style, or a script for nvFuser's Python
     * frontend. What the target cannot spell (an int64 tensor in Python, a mesh other than {0 .. n-1}) is refused.
     */
    public static String export(LoadedFusion loaded, ExportLanguage language) throws EngineFailure {
        return export(loaded, language, NvFuserGeneration.newest());
    }

    /**
     * As above, for the Python frontend of nvFuser {@code generation}: 2026-04's {@code nvfuser_direct}, or 2025-06's
     * {@code nvfuser} FusionDefinition subclass ({@code LegacyPythonExporter}). The C++ test body is the seeds'
     * style for both.
     */
    public static String export(LoadedFusion loaded, ExportLanguage language, NvFuserGeneration generation)
            throws EngineFailure {
        String file = loaded.source().file();
        String source = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
        int devices = loaded.bindings().devices();
        Map<String, Long> symbols = loaded.bindings().asMap();
        String description = loaded.document().description();
        try {
            return switch (language) {
                case CPP -> CppTestExporter.export(loaded.fusion(), description, devices, symbols, source);
                case PYTHON -> generation == NvFuserGeneration.V2025_06
                        ? LegacyPythonExporter.export(loaded.fusion(), description, devices, symbols, source)
                        : PythonExporter.export(loaded.fusion(), description, devices, symbols, source);
            };
        } catch (ExportException e) {
            // at the element that cannot be spelled, as the loader's diagnostics are
            FusionLocator.Location at = loaded.locator().locate(e.subject());
            throw badInput(List.of(new Diagnostic(loaded.source().file(), at.line(), at.path(), "export.unsupported",
                    e.getMessage(), e.subject())));
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
