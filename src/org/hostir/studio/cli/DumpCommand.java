package org.hostir.studio.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.file.Utf8Text;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.parse.DumpLog;
import org.hostir.studio.ir.parse.DumpWarning;
import org.hostir.studio.ir.parse.LogProgram;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * {@code hirstudio dump FILE [--program N] [--report] [--nvfuser G]}: reads an {@code NVFUSER_DUMP=host_ir} dump or a log holding
 * several, reports each program (label, lines, generation, node count, statements kept as text) and prints it
 * back in its own generation's spelling, or in {@code --nvfuser}'s. Warnings go to stderr; a container that cannot be read is an error
 * (exit 2) after the others are printed.
 */
public final class DumpCommand implements Command {
    private static final ArgumentParser PARSER = new ArgumentParser(Set.of("--program", RunCommandLine.NVFUSER),
            Set.of(), Set.of("--report"));

    @Override
    public String name() { return "dump"; }

    @Override
    public String usage() { return "dump FILE [--program N] [--report] " + Arguments.NVFUSER_USAGE; }

    @Override
    public String summary() { return "read an NVFUSER_DUMP=host_ir dump or log: report and re-print its programs"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        String file = a.file();
        // --nvfuser: print every program in that generation's spelling rather than in the one it was read in
        NvFuserGeneration spelling = a.value(RunCommandLine.NVFUSER).isPresent()
                ? a.loweringOptions(Map.of()).nvFuser() : null;
        List<LogProgram> programs;
        try {
            programs = Engine.readDumps(Path.of(file));
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        int only = a.value("--program").isPresent()
                ? (int) Arguments.integer("--program", a.value("--program").get(), 1, programs.size()) : 0;
        out.println("// " + file + ": " + programs.size() + (programs.size() == 1 ? " program" : " programs")
                + skipped(Path.of(file), programs));
        boolean failed = false;
        for (LogProgram p : programs) {
            if (only != 0 && p.index() != only) continue;
            if (!p.readable()) {
                err.println(TerminalText.escape("error: " + file + ":" + p.errorLine() + ": " + p.label() + ": "
                        + p.error() + " [" + p.rule() + "]"));
                failed = true;
                continue;
            }
            report(file, p, out, err);
            if (!a.flag("--report")) {
                out.print(spelling == null ? p.dump().reprint() : HostIrPrinter.print(p.dump().program(), spelling));
            }
        }
        return failed ? ExitCode.BAD_INPUT : ExitCode.OK;
    }

    /** {@code ; skipped N lines of other output: ..} (DumpLog.skipped); the file already read as UTF-8 text. */
    private static String skipped(Path file, List<LogProgram> programs) {
        try {
            return "; " + DumpLog.skipped(Utf8Text.decode(Files.readAllBytes(file)), programs);
        } catch (IOException | Utf8Text.NotUtf8Exception e) {
            return "";
        }
    }

    private static void report(String file, LogProgram p, PrintStream out, PrintStream err) {
        ParsedDump d = p.dump();
        out.println("// " + p.label() + ": lines " + p.firstLine() + "-" + p.lastLine() + ", generation "
                + d.generation().label() + ", " + d.program().allNodes().size() + " nodes, "
                + d.opaqueNodes().size() + " kept as text" + (d.layoutKept() ? "" : ", line breaks lost"));
        for (DumpWarning w : d.warnings()) {
            err.println(TerminalText.escape("warning: " + file + ":" + w.line() + ": " + w.message()));
        }
    }
}
