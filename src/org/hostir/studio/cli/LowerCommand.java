package org.hostir.studio.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.IntStream;

import org.hostir.studio.diff.TextDiff;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.PassTraceJson;

/**
 * {@code hirstudio lower FILE.fusion [--devices N] [--rank R] [--passes] [--diff] [--json] [--set SYM=N ...]
 * [--option KEY=VALUE ...]}: the final program of a rank (0 unless given) in the seeds' format; with
 * {@code --passes} every pass's snapshot, {@code --diff} each pass as a unified diff, {@code --json} the trace.
 */
public final class LowerCommand implements Command {
    private static final ArgumentParser PARSER = FusionArguments.parser(Set.of("--rank"), Set.of(),
            Set.of("--passes", "--diff", "--json"));

    @Override
    public String name() { return "lower"; }

    @Override
    public String usage() {
        return "lower FILE.fusion [--devices N] [--rank R] " + Arguments.NVFUSER_USAGE + " [--passes] [--diff] [--json]"
                + " [--set SYM=N ...] [--option KEY=VALUE ...]";
    }

    @Override
    public String summary() { return "lower a fusion to Host IR and print the program (or each pass)"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        FusionArguments fusion = FusionArguments.of(a);
        int devices = fusion.devices();
        OptionalInt rank = a.rank(devices);
        LoweringOptions options = fusion.options();
        List<Integer> ranks = rank.isPresent() || !a.flag("--json") ? List.of(rank.orElse(0))
                : IntStream.range(0, devices).boxed().toList();
        LoadedFusion loaded;
        PassTrace trace = null;
        PassTraceJson.Programs json = null;
        try {
            loaded = fusion.load();
            if (a.flag("--json")) {
                // rank by rank, keeping only distinct programs: 4,096 ranks' snapshots at once do not fit; every
                // rank is lowered here, so a refusal of any rank is reported as Engine.check would
                json = new PassTraceJson.Programs(loaded.fusion().name(), devices, options);
                Compilation compilation = Engine.compile(loaded, options); // traces made rank by rank, not kept
                for (int r : ranks) json.add(Engine.lower(loaded, compilation, List.of(r), x -> true).rank(r));
            } else {
                // the printed rank keeps its trace when check lowers it: every rank is lowered once
                Compilation compilation = Engine.compile(loaded, options, ranks);
                Engine.check(loaded, compilation); // a rank other than the one printed may refuse
                trace = Engine.lower(loaded, compilation, ranks, x -> true);
            }
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        if (json != null) {
            out.print(json.json());
        } else if (a.flag("--passes") || a.flag("--diff")) {
            out.println("// symbols: " + String.join(", ", loaded.fusion().legend()));
            out.println("// nvFuser " + options.nvFuser().label() + " (" + options.nvFuser().revision() + ")");
            printPasses(trace.rank(ranks.get(0)), a.flag("--diff"), out);
        } else {
            out.print(trace.rank(ranks.get(0)).result().print());
        }
        return ExitCode.OK;
    }

    /** Each pass: a header with its name and changed flag, then its program or its diff against the one before. */
    private static void printPasses(PassTrace.RankTrace r, boolean diff, PrintStream out) {
        out.println("// rank " + r.rank() + ": input fusion");
        out.print(r.input().print());
        for (int i = 0; i < r.steps().size(); i++) {
            PassTrace.Step step = r.steps().get(i);
            out.printf("%n// pass %d/%d %s: %s (%.2f ms)%n", i + 1, r.steps().size(), step.pass(),
                    step.changed() ? "changed" : "unchanged", step.nanos() / 1e6);
            if (!step.changed()) continue;
            if (diff) {
                out.print(TextDiff.unified(r.before(i).print(), step.after().print(), "before " + step.pass(),
                        "after " + step.pass()));
            } else {
                out.print(step.after().print());
            }
        }
    }
}
