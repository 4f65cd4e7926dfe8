package org.hostir.studio.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Set;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.file.LoadedFusion;

/**
 * {@code hirstudio check FILE.fusion [--devices N] [--set SYM=N ...] [--option KEY=VALUE ...]}: reads, converts
 * and validates a fusion file, lowers it for every rank (what the lowering refuses, check refuses), and prints
 * a summary, each sharding propagation inferred with where it came from, then {@code ok}. Bad input: one {@code error:} line per diagnostic, exit 2.
 */
public final class CheckCommand implements Command {
    private static final ArgumentParser PARSER = FusionArguments.parser(Set.of(), Set.of(), Set.of());

    @Override
    public String name() { return "check"; }

    @Override
    public String usage() {
        return "check FILE.fusion [--devices N] " + Arguments.NVFUSER_USAGE + " [--set SYM=N ...] [--option KEY=VALUE ...]";
    }

    @Override
    public String summary() { return "validate a fusion file and print a summary"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        FusionArguments fusion = FusionArguments.of(PARSER.parse(args));
        try {
            LoadedFusion loaded = fusion.load();
            Engine.check(loaded, fusion.options());
            out.print(FusionSummary.print(loaded));
            List<String> inferred = Engine.shardings(loaded).lines();
            if (!inferred.isEmpty()) {
                out.println("inferred shardings:");
                inferred.forEach(line -> out.println("  " + line));
            }
            out.println("ok");
            return ExitCode.OK;
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
    }
}
