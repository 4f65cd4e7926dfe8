package org.hostir.studio.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.trace.OverlapFigures;
import org.hostir.studio.trace.RankOverlap;

/**
 * {@code hirstudio sweep FILE.fusion --devices 2,8,64 [--vary KEY=V1,V2 ...] [--profile NAME|FILE] [--set SYM=N ...]
 * [--option KEY=VALUE ...]}: simulates the fusion for every device count and every combination of the varied
 * lowering options on a profile, through the engine as {@code run --backend sim} does, and prints a table of the
 * predicted span and overlap. A combination that fails (a refused option, ranks that do not match) is a row that
 * says why; the sweep goes on.
 */
public final class SweepCommand implements Command {
    private static final ArgumentParser PARSER = new ArgumentParser(Set.of("--devices", "--profile"),
            Set.of("--vary", "--set", "--option"), Set.of());

    @Override
    public String name() { return "sweep"; }

    @Override
    public String usage() {
        return "sweep FILE.fusion --devices N[,N...] [--vary KEY=V1,V2 ...] [--profile NAME|FILE] [--set SYM=N ...]"
                + " [--option KEY=VALUE ...]";
    }

    @Override
    public String summary() { return "predicted span and overlap over lowering options and device counts (simulated)"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        String file = a.file();
        List<Integer> devices = new ArrayList<>();
        for (String d : a.value("--devices").orElse("2").split(",")) {
            devices.add((int) Arguments.integer("--devices", d.strip(), 1, 4096));
        }
        List<Map<String, String>> combinations = combinations(a.all("--vary"));
        Map<String, String> fixed = a.options();
        String profile = a.value("--profile").orElse(RunRequest.DEFAULT_PROFILE);
        out.println("| devices | options | predicted span ms | overlap (mean over ranks) | exposed communication ms (max) |");
        out.println("|---|---|---|---|---|");
        int failures = 0;
        for (int n : devices) {
            for (Map<String, String> varied : combinations) {
                Map<String, String> options = new LinkedHashMap<>(fixed);
                options.putAll(varied);
                Optional<String> row = row(file, n, a.symbols(), options, profile, err);
                if (row.isEmpty()) failures++;
                out.println("| " + n + " | " + (varied.isEmpty() ? "-" : varied) + " | " + row.orElse("failed (the error is on stderr) | |")
                        + " |");
            }
        }
        return failures == 0 ? ExitCode.OK : ExitCode.FAILED;
    }

    /** Every combination of the {@code --vary KEY=V1,V2} values, in the order given. */
    static List<Map<String, String>> combinations(List<String> vary) throws UsageException {
        List<Map<String, String>> all = new ArrayList<>(List.of(Map.of()));
        for (String v : vary) {
            int eq = v.indexOf('=');
            if (eq <= 0 || eq == v.length() - 1) throw new UsageException("--vary expects KEY=V1,V2, got '" + v + "'");
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : all) {
                for (String value : v.substring(eq + 1).split(",")) {
                    Map<String, String> m = new LinkedHashMap<>(c);
                    m.put(v.substring(0, eq), value.strip());
                    next.add(m);
                }
            }
            all = next;
        }
        return all;
    }

    private static Optional<String> row(String file, int devices, Map<String, Long> symbols, Map<String, String> options,
                                        String profile, PrintStream err) {
        Arguments opts = new Arguments(List.of(), Map.of("--option", options.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList()), Set.of());
        try {
            RunRequest request = new RunRequest(RunRequest.BackendChoice.SIM, devices, opts.loweringOptions(Map.of()),
                    1, 0, ValidationMode.OFF, RunRequest.DEFAULT_SEED, RunRequest.DEFAULT_TIMEOUT_MILLIS, false, Optional.empty(),
                    false, profile);
            LoadedFusion loaded = Engine.load(new FusionSource.File(Path.of(file), file), devices, symbols);
            RunResult r = Engine.run(loaded, BackendPlan.choose(request, file), line -> { });
            OverlapFigures f = OverlapFigures.of(r.timeline());
            double exposed = f.ranks().stream().mapToLong(o -> o.communicationNs() - o.overlapNs()).max().orElse(0) / 1e6;
            String overlap = f.overlapRatio().map(s -> String.format(Locale.ROOT, "%.0f %%", 100 * s.mean()))
                    .orElse("no communication");
            return Optional.of(String.format(Locale.ROOT, "%.3f | %s | %.3f", r.medianMillis(), overlap, exposed));
        } catch (EngineFailure e) {
            Failures.report(e, err);
            return Optional.empty();
        } catch (UsageException e) { // a value of --vary the option refuses: this row only
            err.println("error: sweep: " + e.getMessage());
            return Optional.empty();
        }
    }
}
