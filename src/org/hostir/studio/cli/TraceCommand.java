package org.hostir.studio.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.PredictedTrace;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.ProgramNode;
import org.hostir.studio.trace.analysis.TraceAnalysis;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.trace.analysis.TraceReport;
import org.hostir.studio.trace.imported.TraceFiles;

/**
 * {@code hirstudio trace FILE...}: what a run's trace says about its speed (summary, critical path across ranks
 * with each segment's share, idle time per stream by cause, top device ops, counter peaks), for the Studio's own
 * traces, PyTorch profiler traces (one file per rank, their directory, or several ranks merged in one file),
 * nvFuser's {@code NVFUSER_TRACE} and Nsight Systems' SQLite exports; the source format is printed first, and the
 * Host IR nodes of an imported trace's device work as {@code trace.analysis.NodeMatching} names them, tied to the
 * node ids of the program that ran when {@code --fusion} or {@code --dump} gives it ({@link TracePrograms}).
 * {@code hirstudio trace diff A B} compares two runs (each a file or a directory of one run's files), node by node
 * of the program that ran when {@code --fusion} or {@code --dump} gives it; {@code trace diff A --predict PROFILE
 * --fusion F} compares a measured run with the simulator's prediction of the fusion on that profile
 * ({@link PredictedTrace}).
 */
public final class TraceCommand implements Command {
    private static final String PREDICT = "--predict";
    private static final ArgumentParser PARSER = new ArgumentParser(Set.of("--top", TracePrograms.FUSION,
            TracePrograms.DUMP, PREDICT), Set.of("--set", "--option"), Set.of());
    private static final String RULE = "trace.read";

    @Override
    public String name() { return "trace"; }

    @Override
    public String usage() {
        return "trace FILE|DIR ... [--top N] [--fusion F.fusion [--set SYM=N ...] [--option K=V ...] | --dump LOG]"
                + "  |  trace diff A B [--top N] [--fusion F.fusion ... | --dump LOG]"
                + "  |  trace diff A --predict PROFILE --fusion F.fusion [--set SYM=N ...] [--option K=V ...]";
    }

    @Override
    public String summary() {
        return "analyse a run's trace (the Studio's, a PyTorch profile, NVFUSER_TRACE, an nsys SQLite export): critical path, idle, kernels, Host IR nodes";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        int top = a.value("--top").isPresent() ? (int) Arguments.integer("--top", a.value("--top").get(), 1, 100_000) : 20;
        List<String> files = a.positionals();
        boolean diff = !files.isEmpty() && files.getFirst().equals("diff");
        if (diff) files = files.subList(1, files.size());
        if (files.isEmpty()) throw new UsageException("missing trace FILE");
        boolean predict = a.value(PREDICT).isPresent();
        if (predict && !diff) throw new UsageException(PREDICT + " belongs to trace diff: trace diff A " + PREDICT + " PROFILE --fusion F");
        if (diff && files.size() != (predict ? 1 : 2)) {
            throw new UsageException(predict ? "trace diff A " + PREDICT + " PROFILE compares one trace, A, with the"
                    + " prediction, got " + files.size() : "trace diff takes two traces, A and B, got " + files.size());
        }
        if (predict && a.value(TracePrograms.FUSION).isEmpty()) {
            throw new UsageException(PREDICT + " predicts the fusion that ran: add " + TracePrograms.FUSION + " F.fusion");
        }
        try {
            if (diff) {
                out.print(compare(a, files, err).format(top));
            } else {
                TraceFiles.Opened opened = open(files, err);
                List<ProgramNode> program = TracePrograms.of(a, ranks(opened.run()));
                out.println("format: " + opened.format().words());
                out.print(TraceReport.format(TraceAnalysis.of(opened.run()), top, program));
            }
        } catch (IOException e) {
            err.println("error: " + Texts.printable(e.getMessage()) + " [" + RULE + "]");
            return ExitCode.BAD_INPUT;
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        return ExitCode.OK;
    }

    /** A with B, or A with the prediction of the fusion it ran, aligned by node when a program is given. */
    private static TraceComparison compare(Arguments a, List<String> files, PrintStream err)
            throws UsageException, IOException, EngineFailure {
        TraceRun left = open(List.of(files.get(0)), err).run();
        if (a.value(PREDICT).isPresent()) {
            FusionArguments fusion = TracePrograms.fusion(a, ranks(left));
            return PredictedTrace.compare(left, fusion.load(), fusion.options(), a.value(PREDICT).get(), fusion.file(),
                    p -> { });
        }
        TraceRun right = open(List.of(files.get(1)), err).run();
        return TraceComparison.of(left, right, TracePrograms.of(a, Math.max(ranks(left), ranks(right))));
    }

    /** How many ranks a program must have for the trace: one more than its highest rank. */
    private static int ranks(TraceRun run) {
        return run.timeline().ranks().stream().mapToInt(r -> r + 1).max().orElse(1);
    }

    private static TraceFiles.Opened open(List<String> files, PrintStream err) throws UsageException, IOException {
        List<Path> paths = new ArrayList<>();
        for (String f : files) paths.add(Arguments.input("FILE", f));
        TraceFiles.Opened opened = TraceFiles.open(paths);
        opened.notes().forEach(n -> err.println("warning: " + n));
        return opened;
    }
}
