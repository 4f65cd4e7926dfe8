package org.hostir.studio.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Consumer;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.ir.print.TerminalText;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.OverlapFigures;

/**
 * A schedule sweep: one fusion simulated on a hardware profile for every device count and every combination of
 * the varied lowering options, each point through {@link Engine#run} as {@code run --backend sim} does. The
 * command line's {@code sweep} prints it as a table; the Studio's Schedule Sweep shows it as a table and a plot.
 * A point that fails (a refused option value, ranks that do not match) carries its diagnostic; the sweep goes on.
 *
 * @param vary    lowering option key to the values tried, in order (the first key varies slowest)
 * @param fixed   lowering options every point gets
 * @param profile a built-in profile's name or a profile file
 */
public record ScheduleSweep(List<Integer> devices, Map<String, List<String>> vary, Map<String, String> fixed,
                            Map<String, Long> symbols, String profile) {
    /** One point's prediction: span, mean overlap ratio over communicating ranks, largest exposed communication. */
    public record Figures(double spanMs, OptionalDouble overlap, double exposedMs) {}

    /** A point of the sweep: its device count and varied options, and its figures or why it has none. */
    public record Point(int devices, Map<String, String> varied, Optional<Figures> figures, List<String> failure) {
        public Point {
            varied = Collections.unmodifiableMap(new LinkedHashMap<>(varied)); // in the order the sweep varies them
            failure = List.copyOf(failure);
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

    /** Runs every point of {@code source} in order, telling {@code each} as it goes; returns them all. */
    public List<Point> run(FusionSource source, String file, Consumer<Point> each) {
        List<Point> points = new ArrayList<>();
        for (int n : devices) {
            for (Map<String, String> varied : combinations()) {
                Point p = point(source, file, n, varied);
                points.add(p);
                each.accept(p);
            }
        }
        return points;
    }

    private Point point(FusionSource source, String file, int n, Map<String, String> varied) {
        Map<String, String> pairs = new LinkedHashMap<>(fixed);
        pairs.putAll(varied);
        try {
            LoweringOptions options = LoweringOptions.parse(pairs);
            RunRequest request = new RunRequest(RunRequest.BackendChoice.SIM, n, options, 1, 0, ValidationMode.OFF,
                    RunRequest.DEFAULT_SEED, RunRequest.DEFAULT_TIMEOUT_MILLIS, false, Optional.empty(), false,
                    profile);
            LoadedFusion loaded = Engine.load(source, n, symbols);
            RunResult r = Engine.run(loaded, BackendPlan.choose(request, file), line -> { });
            OverlapFigures f = OverlapFigures.of(r.timeline());
            double exposed = f.ranks().stream().mapToLong(o -> o.communicationNs() - o.overlapNs()).max().orElse(0)
                    / 1e6;
            OptionalDouble overlap = f.overlapRatio().map(s -> OptionalDouble.of(s.mean()))
                    .orElse(OptionalDouble.empty());
            return new Point(n, varied, Optional.of(new Figures(r.medianMillis(), overlap, exposed)), List.of());
        } catch (EngineFailure e) {
            return new Point(n, varied, Optional.empty(), e.lines());
        } catch (LoweringException e) { // a varied value the option refuses: this point only
            return new Point(n, varied, Optional.empty(), List.of(TerminalText.escape("error: " + file + ": "
                    + e.getMessage())));
        }
    }
}
