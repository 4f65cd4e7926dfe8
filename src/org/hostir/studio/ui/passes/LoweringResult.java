package org.hostir.studio.ui.passes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;

/**
 * What lowering a fusion file gave the view: a pass trace, or the diagnostics that stopped it. Kept free of SWT so
 * the job that computes it and the tests share one code path; a failure is data, never an exception for the user.
 */
public sealed interface LoweringResult {

    /** The workspace path (or file system path) of the fusion the result is about. */
    String file();

    /** A loaded fusion and the ranks lowered so far (the view lowers the rank it shows, and others on demand). */
    record Lowered(String file, LoadedFusion loaded, PassTrace trace) implements LoweringResult {
        public boolean has(int rank) { return trace.ranks().stream().anyMatch(r -> r.rank() == rank); }

        /** This result with {@code rank} lowered too; null when cancelled, a refusal as a {@link Failed}. */
        public LoweringResult withRank(int rank, Progress progress) {
            if (has(rank)) return this;
            try {
                PassTrace more = lowerRanks(List.of(rank), progress);
                return more == null ? null : new Lowered(file, loaded, more);
            } catch (EngineFailure e) {
                return new Failed(file, e.lines());
            }
        }

        /** Every rank's passes (the ones not lowered yet are lowered now), for an export of every snapshot. */
        public PassTrace everyRank() throws EngineFailure {
            List<Integer> missing = IntStream.range(0, trace.devices()).filter(r -> !has(r)).boxed().toList();
            return missing.isEmpty() ? trace : lowerRanks(missing, (rank, of) -> true);
        }

        private PassTrace lowerRanks(List<Integer> ranks, Progress progress) throws EngineFailure {
            PassTrace more = Engine.lower(loaded, trace.options(), ranks, rank -> progress.rank(rank, trace.devices()));
            if (more == null) return null;
            List<PassTrace.RankTrace> all = new ArrayList<>(trace.ranks());
            all.addAll(more.ranks());
            all.sort(Comparator.comparingInt(PassTrace.RankTrace::rank));
            return new PassTrace(trace.devices(), trace.options(), all);
        }
    }

    /** One line per problem, each as the command line prints it: {@code error: file:line: where: what [rule]}. */
    record Failed(String file, List<String> diagnostics) implements LoweringResult {
        public Failed {
            diagnostics = List.copyOf(diagnostics);
        }
    }

    /**
     * A fusion that is fine so far but has nothing to lower yet (a new, empty one; one whose output is not marked
     * yet): the view shows a hint, not a failure.
     */
    record Incomplete(String file, String hint) implements LoweringResult {}

    /** The hint an {@link Incomplete} fusion gets. */
    String NO_OUTPUT_HINT = "Nothing to lower yet: the fusion has no output. Add tensors and ops with the editor's "
            + "palette, then mark a tensor as the fusion output (Properties > Fusion output).";

    /** Progress and cancellation, without depending on Eclipse's monitors. */
    interface Progress {
        /** Called before each rank is lowered; returns false to stop (the job was cancelled). */
        boolean rank(int rank, int of);
    }

    /** Loads {@code text}, then lowers it for {@code rank} only (the rank the view shows); null when cancelled. */
    static LoweringResult lower(String text, String file, int devices, LoweringOptions options, int rank,
                                Progress progress) {
        try {
            LoadedFusion loaded = Engine.load(new FusionSource.Text(text, file), devices, Map.of());
            PassTrace trace = Engine.lower(loaded, options, List.of(Math.min(rank, devices - 1)),
                    r -> progress.rank(r, devices));
            return trace == null ? null : new Lowered(file, loaded, trace);
        } catch (EngineFailure e) {
            return onlyNoOutput(e) ? new Incomplete(file, NO_OUTPUT_HINT) : new Failed(file, e.lines());
        } catch (RuntimeException e) {
            // an engine bug: still one line for the user, never a stack trace in the view
            return new Failed(file, List.of(file + ": internal lowering error: " + e));
        }
    }

    /** Whether the only problem is that no output is marked yet (by rule and JSON path, not by message). */
    private static boolean onlyNoOutput(EngineFailure e) {
        return !e.diagnostics().isEmpty() && e.diagnostics().stream().allMatch(d -> d.rule().equals(Rule.GRAPH_NO_OUTPUTS.id())
                || (d.rule().equals(Rule.SCHEMA_RANGE.id()) && "$.outputs".equals(d.path())));
    }

    /** Options from the view's fields; a bad value is a diagnostic, not an exception. */
    static LoweringOptions options(Map<String, String> pairs) {
        return LoweringOptions.parse(pairs);
    }
}
