package org.hostir.studio.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Set;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.ir.NvFuserGeneration;

/**
 * {@code hirstudio export --cpp|--python FILE.fusion [--devices N] [--set SYM=N ...] [--nvfuser G]}: the fusion as the
 * body of an nvFuser C++ test or as a script for nvFuser's Python frontend of generation G, on stdout
 * (docs/nvfuser-interop.md).
 */
public final class ExportCommand implements Command {
    // FusionArguments' options but --option: an export lowers nothing, so lowering options would go unread
    private static final ArgumentParser PARSER = new ArgumentParser(Set.of("--devices", RunCommandLine.NVFUSER),
            Set.of("--set"), Set.of("--cpp", "--python"));

    @Override
    public String name() { return "export"; }

    @Override
    public String usage() {
        return "export --cpp|--python FILE.fusion [--devices N] [--set SYM=N ...] " + Arguments.NVFUSER_USAGE;
    }

    @Override
    public String summary() { return "write a fusion as an nvFuser C++ test body or Python frontend script"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        if (a.flag("--cpp") == a.flag("--python")) throw new UsageException("give exactly one of --cpp and --python");
        // --devices N, else as many devices as the file's meshes need (at least 2), as check, lower and run take
        FusionArguments fusion = FusionArguments.of(a);
        // --nvfuser picks the Python frontend written: 2026-04's nvfuser_direct (the default) or 2025-06's nvfuser
        NvFuserGeneration generation = fusion.options().nvFuser();
        try {
            var language = a.flag("--cpp") ? Engine.ExportLanguage.CPP : Engine.ExportLanguage.PYTHON;
            out.print(Engine.export(fusion.load(), language, generation));
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        return ExitCode.OK;
    }
}
