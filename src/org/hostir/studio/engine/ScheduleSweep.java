package org.hostir.studio.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import java.util.function.Function;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.RoutingModel;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.file.ParsedFusion;
import org.hostir.studio.lower.LoweringError;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.OverlapFigures;

/**
 * A schedule sweep: one fusion simulated on a hardware profile for every device count and every combination of
 * the varied lowering options, each point through {@link Engine#run} as {@code run --backend sim} does. The
 * command line's {@code sweep} prints it as a table; the Studio's Schedule Sweep shows it as a table and a plot.
 * What all points share (the file, the profile, every option value) is checked before the first point
 * ({@link #check}); a point that fails all the same (a device count the meshes do not fit, ranks that do not
 * match) carries its diagnostic and the sweep goes on.
 *
 * @param vary    lowering option key to the values tried, in order (the first key varies slowest)
 * @param fixed   lowering options every point gets
 * @param profile a built-in profile's name or a profile file
 * @param flags   the flag a fixed key was given by where it has one of its own ({@code routing -> --routing}), for
 *                its errors to name what the user typed; the others are named {@code --option KEY}
 */
public record ScheduleSweep(List<Integer> devices, Map<String, List<String>> vary, Map<String, String> fixed,
                            Map<String, Long> symbols, String profile, Map<String, String> flags) {
    /** Every fixed key given as {@code --option KEY=VALUE}. */
    public ScheduleSweep(List<Integer> devices, Map<String, List<String>> vary, Map<String, String> fixed,
                         Map<String, Long> symbols, String profile) {
        this(devices, vary, fixed, symbols, profile, Map.of());
    }

    /** The rule of a {@code --option} or {@code --vary} value the option does not take. */
    public static final String RULE_OPTION = "sweep.option";

    /** One point's prediction: span, mean overlap ratio over communicating ranks, largest exposed communication. */
    public record Figures(double spanMs, OptionalDouble overlap, double exposedMs) {}

    /**
     * A point of the sweep: its device count and varied options, and its figures or why it has none: the lines and
     * what kind of failure it is ({@code failedAs}: the point's input refused, or its simulated run failed).
     */
    public record Point(int devices, Map<String, String> varied, Optional<Figures> figures, List<String> failure,
                        Optional<EngineFailure.Kind> failedAs) {
        public Point {
            varied = Collections.unmodifiableMap(new LinkedHashMap<>(varied)); // in the order the sweep varies them
            failure = List.copyOf(failure);
        }

        /** A point with figures. */
        public Point(int devices, Map<String, String> varied, Figures figures) {
            this(devices, varied, Optional.of(figures), List.of(), Optional.empty());
        }

        /** A point that failed as {@code kind} says, with its error lines. */
        public Point(int devices, Map<String, String> varied, EngineFailure.Kind kind, List<String> failure) {
            this(devices, varied, Optional.empty(), failure, Optional.of(kind));
        }

        /** The varied options as {@code key=value} words, or {@code -} when nothing varies. */
        public String label() {
            if (varied.isEmpty()) return "-";
            List<String> words = new ArrayList<>();
            varied.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> words.add(e.getKey() + "=" + e.getValue()));
            return String.join(" ", words);
        }
    }

    public ScheduleSweep {
        devices = List.copyOf(devices);
        Map<String, List<String>> v = new LinkedHashMap<>();
        vary.forEach((k, values) -> v.put(k, List.copyOf(values)));
        vary = Collections.unmodifiableMap(v);
        fixed = Map.copyOf(fixed);
        symbols = Map.copyOf(symbols);
        flags = Map.copyOf(flags);
    }

    /** Every combination of the varied values, in order (one empty combination when nothing varies). */
    public List<Map<String, String>> combinations() {
        List<Map<String, String>> all = new ArrayList<>(List.of(Map.of()));
        for (var e : vary.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : all) {
                for (String value : e.getValue()) {
                    Map<String, String> m = new LinkedHashMap<>(c);
                    m.put(e.getKey(), value);
                    next.add(m);
                }
            }
            all = next;
        }
        return all;
    }

    /**
     * What every point shares, checked before the first point runs so that a mistake is one error rather than one
     * per point: the file parses, the profile resolves, each fixed option and each varied value is one the option
     * takes. Returns the parsed file the points load.
     */
    public ParsedFusion check(FusionSource source, String file) throws EngineFailure {
        ParsedFusion parsed = Engine.parse(source);
        option(fixed, null, this::fixedFlag, file);
        for (var e : vary.entrySet()) {
            for (String value : e.getValue()) {
                Map<String, String> pairs = new LinkedHashMap<>(fixed);
                pairs.put(e.getKey(), value);
                String varied = "--vary " + e.getKey();
                option(pairs, varied, key -> key.equals(e.getKey()) ? varied : fixedFlag(key), file);
            }
        }

        HardwareProfile machine = BackendPlan.profile(profile, file);
        if (!devices.isEmpty()) {
            LoadedFusion loaded;
            try {
                loaded = Engine.load(parsed, devices.getFirst(), symbols);
            } catch (EngineFailure perPoint) { // a device count the meshes do not fit: that point's row says so
                return parsed;
            }
            SimProfileCheck.check(loaded, machine); // the ops' dtypes do not change with the device count
        }
        return parsed;
    }

    /** How a fixed key's error names it: the flag it was given by ({@code --routing}), else {@code --option KEY}. */
    private String fixedFlag(String key) { return flags.getOrDefault(key, "--option " + key); }

    /**
     * The simulation's routing keys ({@link RoutingFiles#KEYS}: {@code routing}, {@code capacity-factor}) of
     * {@code pairs} as a model; a bad value is refused naming the flag {@code flag} gives its key.
     */
    private static RoutingModel routing(Map<String, String> pairs, Function<String, String> flag, String file)
            throws EngineFailure {
        return RoutingFiles.model(pairs.getOrDefault(RoutingFiles.ROUTING_KEY, "uniform"),
                pairs.getOrDefault(RoutingFiles.CAPACITY_KEY, "none"), RunRequest.DEFAULT_SEED, file,
                flag.apply(RoutingFiles.ROUTING_KEY), flag.apply(RoutingFiles.CAPACITY_KEY));
    }

    /**
     * {@code pairs} parsed (the routing keys as the simulation's, named by {@code routingFlag}, the others as
     * lowering options), else refused as {@code flag} says it (null: the {@code --option} the error names).
     */
    private static void option(Map<String, String> pairs, String flag, Function<String, String> routingFlag,
                               String file) throws EngineFailure {
        routing(pairs, routingFlag, file);
        pairs = new LinkedHashMap<>(pairs);
        pairs.keySet().removeAll(RoutingFiles.KEYS);
        try {
            LoweringOptions.parse(pairs);
        } catch (LoweringException e) {
            LoweringError first = e.errors().getFirst();
            String where = flag != null ? flag : "--" + first.where(); // "option KEY" -> "--option KEY"
            throw new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(file, 0, where, RULE_OPTION,
                    first.message(), new Subject.Setting(where))));
        }
    }

    /** Runs every point of {@code source} in order, telling {@code each} as it goes; returns them all. */
    public List<Point> run(FusionSource source, String file, Consumer<Point> each) {
        ParsedFusion parsed;
        try {
            parsed = check(source, file);
        } catch (EngineFailure e) { // nothing can run: one point says why
            Point p = new Point(devices.isEmpty() ? 0 : devices.getFirst(), Map.of(), e.kind(), e.lines());
            each.accept(p);
            return List.of(p);
        }
        List<Point> points = new ArrayList<>();
        for (int n : devices) {
            for (Map<String, String> varied : combinations()) {
                Point p = point(parsed, file, n, varied);
                points.add(p);
                each.accept(p);
            }
        }
        return points;
    }

    private Point point(ParsedFusion parsed, String file, int n, Map<String, String> varied) {
        Map<String, String> pairs = new LinkedHashMap<>(fixed);
        pairs.putAll(varied);
        try {
            RoutingModel routing = routing(pairs, key -> varied.containsKey(key) ? "--vary " + key : fixedFlag(key),
                    file);
            pairs.keySet().removeAll(RoutingFiles.KEYS);
            LoweringOptions options = LoweringOptions.parse(pairs);
            RunRequest request = new RunRequest(RunRequest.BackendChoice.SIM, n, options, 1, 0, ValidationMode.OFF,
                    RunRequest.DEFAULT_SEED, RunRequest.DEFAULT_TIMEOUT_MILLIS, false, Optional.empty(), false,
                    profile);
            LoadedFusion loaded = Engine.load(parsed, n, symbols);
            RunResult r = Engine.run(loaded, BackendPlan.choose(request, file).withRouting(routing), line -> { });
            OverlapFigures f = OverlapFigures.of(r.timeline());
            double exposed = f.ranks().stream().mapToLong(o -> o.communicationNs() - o.overlapNs()).max().orElse(0)
                    / 1e6;
            OptionalDouble overlap = f.overlapRatio().map(s -> OptionalDouble.of(s.mean()))
                    .orElse(OptionalDouble.empty());
            return new Point(n, varied, new Figures(r.medianMillis(), overlap, exposed));
        } catch (EngineFailure e) { // a device count the meshes do not fit, a size refused: BAD_INPUT; a run: RUN_FAILED
            return new Point(n, varied, e.kind(), e.lines());
        } catch (LoweringException e) { // options were checked up front; a combination the lowering refuses
            return new Point(n, varied, EngineFailure.Kind.BAD_INPUT, List.of(TerminalText.escape("error: " + file
                    + ": " + e.getMessage())));
        }
    }
}
