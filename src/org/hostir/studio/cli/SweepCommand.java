package org.hostir.studio.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.engine.RoutingFiles;
import org.hostir.studio.engine.ScheduleSweep;
import org.hostir.studio.file.Limits;

/**
 * {@code hirstudio sweep FILE.fusion --devices 2,8,64 [--vary KEY=V1,V2 ...] [--profile NAME|FILE] [--set SYM=N ...]
 * [--option KEY=VALUE ...]}: simulates the fusion for every device count and every combination of the varied
 * lowering options on a profile, through the engine as {@code run --backend sim} does, and prints a table of the
 * predicted span and overlap. The lists, the profile and every option value are checked before the first point
 * (exit 2); a point that fails all the same (a device count the meshes do not fit, ranks that do not match) is a
 * row that says why, and the sweep goes on.
 */
public final class SweepCommand implements Command {
    private static final ArgumentParser PARSER = new ArgumentParser(Set.of("--devices", "--profile",
            RunCommandLine.NVFUSER, RunCommandLine.ROUTING, RunCommandLine.CAPACITY_FACTOR),
            Set.of("--vary", "--set", "--option"), Set.of());

    @Override
    public String name() { return "sweep"; }

    @Override
    public String usage() {
        return "sweep FILE.fusion --devices N[,N...] [--vary KEY=V1,V2 ...] [--profile NAME|FILE] [--set SYM=N ...]"
                + " " + Arguments.NVFUSER_USAGE + " [--option KEY=VALUE ...] [--routing uniform|zipf:S|histogram:FILE]"
                + " [--capacity-factor F|none] (vary them: --vary routing=zipf:0,zipf:1.5"
                + " --vary capacity-factor=1,1.25)";
    }

    @Override
    public String summary() { return "predicted span and overlap over lowering options and device counts (simulated)"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        String file = a.file();
        List<Integer> devices = new ArrayList<>();
        for (String d : list("--devices", a.value("--devices").orElse("2"))) {
            devices.add((int) Arguments.integer("--devices", d, 1, Limits.MAX_DEVICES));
        }
        Map<String, String> fixed = new LinkedHashMap<>(a.loweringOptionPairs());
        Map<String, String> flags = new LinkedHashMap<>(); // an error names the flag typed, not --option KEY
        a.value(RunCommandLine.ROUTING).ifPresent(v -> {
            fixed.put(RoutingFiles.ROUTING_KEY, v);
            flags.put(RoutingFiles.ROUTING_KEY, RunCommandLine.ROUTING);
        });
        a.value(RunCommandLine.CAPACITY_FACTOR).ifPresent(v -> {
            fixed.put(RoutingFiles.CAPACITY_KEY, v);
            flags.put(RoutingFiles.CAPACITY_KEY, RunCommandLine.CAPACITY_FACTOR);
        });
        ScheduleSweep sweep = new ScheduleSweep(devices, vary(a.all("--vary")), fixed, a.symbols(),
                a.value("--profile").orElse(RunRequest.DEFAULT_PROFILE), flags);
        FusionSource source = new FusionSource.File(Path.of(file), file);
        try {
            sweep.check(source, file); // one error up front, not one per point
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        out.println("| devices | options | predicted span ms | overlap (mean over ranks) | exposed communication ms (max) |");
        out.println("|---|---|---|---|---|");
        List<ScheduleSweep.Point> points = Engine.sweep(sweep, source, file, p -> {
            p.failure().forEach(err::println);
            out.println("| " + p.devices() + " | " + (p.varied().isEmpty() ? "-" : p.varied()) + " | "
                    + p.figures().map(f -> String.format(Locale.ROOT, "%.3f | %s | %.3f", f.spanMs(),
                    f.overlap().isPresent() ? String.format(Locale.ROOT, "%.0f %%", 100 * f.overlap().getAsDouble())
                            : "no communication", f.exposedMs())).orElse("failed (the error is on stderr) | |") + " |");
        });
        return exitCode(points);
    }

    /**
     * 0 when every point has figures; 1 when a point's simulated run failed (as {@code run} exits 1); else 2, as
     * for any bad input, when points were refused for what they ask (a device count the meshes do not fit, a
     * combination the lowering refuses, a size past the limits), each with its one-line error on stderr.
     */
    public static int exitCode(List<ScheduleSweep.Point> points) {
        if (points.stream().allMatch(p -> p.figures().isPresent())) return ExitCode.OK;
        boolean ranAndFailed = points.stream()
                .anyMatch(p -> p.failedAs().filter(k -> k == EngineFailure.Kind.RUN_FAILED).isPresent());
        return ranAndFailed ? ExitCode.FAILED : ExitCode.BAD_INPUT;
    }

    /** The {@code --vary KEY=V1,V2} values by key, in the order given; a key varied twice is refused. */
    static Map<String, List<String>> vary(List<String> vary) throws UsageException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String v : vary) {
            int eq = v.indexOf('=');
            if (eq <= 0 || eq == v.length() - 1) {
                throw new UsageException("--vary expects KEY=V1,V2, got '" + Texts.printable(v) + "'");
            }
            String key = v.substring(0, eq);
            List<String> values = list("--vary " + key, v.substring(eq + 1));
            if (out.put(key, values) != null) {
                throw new UsageException("--vary " + Texts.printable(key) + " given twice");
            }
        }
        return out;
    }

    /** A comma-separated list of {@code flag}: no empty item, none with blanks around it, no item twice. */
    static List<String> list(String flag, String text) throws UsageException {
        List<String> items = List.of(text.split(",", -1));
        Set<String> seen = new HashSet<>();
        for (String item : items) {
            if (item.isBlank()) {
                throw new UsageException(flag + " has an empty item in '" + Texts.printable(text)
                        + "' (a list is V1,V2,...)");
            }
            if (!item.equals(item.strip())) {
                throw new UsageException(flag + ": '" + Texts.printable(item) + "' has blanks around it (a list is"
                        + " V1,V2,...)");
            }
            if (!seen.add(item)) throw new UsageException(flag + " lists " + Texts.printable(item) + " twice");
        }
        return items;
    }
}
