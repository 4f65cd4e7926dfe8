package org.hostir.studio.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.diff.ProgramComparison;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.parse.LogProgram;

/**
 * {@code hirstudio diff A B}: two Host IR programs compared by structure, each a dump (or log: {@code --program-a}/
 * {@code --program-b} pick one of several) or a {@code .fusion} file lowered for {@code --rank} of
 * {@code --devices} with {@code --option}s ({@code --devices} defaults to the dump's mesh when the other side is a
 * dump). Ids and symbols are matched by where they appear, so numbering is never a difference. Prints
 * {@code structurally equal} (exit 0) or the node counts and a unified diff of the canonical prints (exit 1).
 */
public final class DiffCommand implements Command {
    private static final ArgumentParser PARSER = FusionArguments.parser(
            Set.of("--rank", "--program-a", "--program-b"), Set.of(), Set.of());

    private record Side(String label, HostIrContainer program) {}

    @Override
    public String name() { return "diff"; }

    @Override
    public String usage() {
        return "diff A B [--devices N] [--rank R] " + Arguments.NVFUSER_USAGE + " [--option KEY=VALUE ...]"
                + " [--set SYM=N ...] [--program-a N] [--program-b N]   (A, B: dumps/logs or .fusion files)";
    }

    @Override
    public String summary() { return "compare two Host IR programs (dumps or lowered fusions) by structure"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        if (a.positionals().size() != 2) {
            throw new UsageException("diff takes two files, A and B, got " + a.positionals().size()
                    + (a.positionals().size() > 2 ? ": unexpected argument '" + Texts.printable(a.positionals().get(2))
                    + "'" : ""));
        }
        List<String> files = a.positionals();
        Arguments.input("A", files.get(0));
        Arguments.input("B", files.get(1));
        List<Side> sides = new ArrayList<>(List.of(new Side("", null), new Side("", null)));
        try {
            Integer devicesFromDump = null;
            for (int i = 0; i < 2; i++) {
                if (isFusion(files.get(i))) continue;
                String flag = i == 0 ? "--program-a" : "--program-b";
                Side s = dump(files.get(i), flag, a.value(flag));
                sides.set(i, s);
                if (devicesFromDump == null) devicesFromDump = Engine.deviceCount(s.program());
            }
            int devices = a.value("--devices").isPresent() || devicesFromDump == null ? a.devices() : devicesFromDump;
            for (int i = 0; i < 2; i++) {
                if (isFusion(files.get(i))) sides.set(i, lowered(files.get(i), devices, a));
            }
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        ProgramComparison c = Engine.compare(sides.get(0).program(), sides.get(1).program(), sides.get(0).label(),
                sides.get(1).label());
        if (c.equal()) {
            out.println("structurally equal (" + c.left().allNodes().size() + " nodes; numbering aside)");
            if (!c.symbolNote().isEmpty()) out.println("symbols bound differently: " + c.symbolNote());
            return ExitCode.OK;
        }
        out.println("structurally different: " + c.tree().summary().describe()
                + (c.tree().signatureChanged() ? ", inputs/outputs differ" : "")
                + (c.tree().hostUnitsChanged() ? ", HostUnits differ" : ""));
        if (!c.symbolNote().isEmpty()) out.println("symbols bound differently: " + c.symbolNote());
        out.print(c.textDiff());
        return ExitCode.FAILED;
    }

    private static boolean isFusion(String file) { return file.endsWith(".fusion"); }

    /** The program of dump {@code file} that {@code flag} ({@code --program-a} or {@code -b}) picks. */
    private static Side dump(String file, String flag, Optional<String> pick) throws EngineFailure, UsageException {
        List<LogProgram> programs = Engine.readDumps(Path.of(file));
        int index = pick.isPresent() ? (int) Arguments.integer(flag, pick.get(), 1, programs.size()) : 1;
        if (pick.isEmpty() && programs.size() > 1) {
            throw new UsageException(file + " holds " + programs.size() + " programs: pick one with --program-a/-b"
                    + " (hirstudio dump " + file + " lists them)");
        }
        LogProgram p = programs.get(index - 1);
        if (!p.readable()) {
            throw new UsageException(file + ":" + p.errorLine() + ": program " + index + " cannot be read: "
                    + p.error() + " [" + p.rule() + "]");
        }
        // index definitions (#5327) substituted, so the dump compares with a program that prints them inline
        return new Side(file + " " + p.label(), Engine.comparable(p.dump()));
    }

    private static Side lowered(String file, int devices, Arguments a) throws EngineFailure, UsageException {
        FusionArguments fusion = FusionArguments.of(a, file, devices);
        int rank = a.rank(devices).orElse(0);
        return new Side(file + " rank " + rank + " of " + devices, Engine.lowerRank(fusion.load(), fusion.options(),
                rank));
    }
}
