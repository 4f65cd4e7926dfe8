package org.hostir.studio.ui.passes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.io.FusionFileException;
import org.hostir.studio.io.FusionLoader;
import org.hostir.studio.io.FusionLocator;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.lower.LoweringError;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.Pipeline;

/**
 * What lowering a fusion file gave the view: a pass trace, or the diagnostics that stopped it. Kept free of SWT so
 * the job that computes it and the tests share one code path; a failure is data, never an exception for the user.
 */
public sealed interface LoweringResult {

    /** The workspace path (or file system path) of the fusion the result is about. */
    String file();

    record Lowered(String file, LoadedFusion loaded, PassTrace trace) implements LoweringResult {}

    /** One line per problem, each in the command line's {@code file:line: where: what [rule]} form. */
    record Failed(String file, List<String> diagnostics) implements LoweringResult {
        public Failed {
            diagnostics = List.copyOf(diagnostics);
        }
    }

    /** Progress and cancellation, without depending on Eclipse's monitors. */
    interface Progress {
        /** Called before each rank is lowered; returns false to stop (the job was cancelled). */
        boolean rank(int rank, int of);
    }

    /** Loads {@code text}, then lowers it for each rank; null when cancelled. */
    static LoweringResult lower(String text, String file, int devices, LoweringOptions options, Progress progress) {
        LoadedFusion loaded;
        try {
            loaded = FusionLoader.load(text, file, devices);
        } catch (FusionFileException e) {
            return new Failed(file, e.diagnostics().stream().map(d -> d.format()).toList());
        }
        List<PassTrace.RankTrace> ranks = new ArrayList<>();
        try {
            for (int r = 0; r < devices; r++) {
                if (!progress.rank(r, devices)) return null;
                ranks.addAll(Pipeline.standard().trace(loaded.fusion(), devices, options, List.of(r)).ranks());
            }
        } catch (LoweringException e) {
            return new Failed(file, e.errors().stream().map(err -> format(err, loaded)).toList());
        } catch (RuntimeException e) {
            // an engine bug: still one line for the user, never a stack trace in the view
            return new Failed(file, List.of(file + ": internal lowering error: " + e));
        }
        return new Lowered(file, loaded, new PassTrace(devices, options, ranks));
    }

    static LoweringResult lower(Path path, String file, int devices, LoweringOptions options, Progress progress)
            throws java.io.IOException {
        return lower(java.nio.file.Files.readString(path), file, devices, options, progress);
    }

    /** A lowering error located at the line of the tensor it concerns. */
    static String format(LoweringError error, LoadedFusion loaded) {
        int line = 0;
        if (error.tensorId() >= 0 && error.tensorId() < loaded.tensors().size()) {
            FusionLocator.Location at = loaded.locator().tensor(loaded.tensors().get(error.tensorId()));
            line = at.line();
        }
        return loaded.source().file() + ":" + line + ": " + error.subject() + ": " + error.message() + " ["
                + error.rule() + "]";
    }

    /** Options from the view's fields; a bad value is a diagnostic, not an exception. */
    static LoweringOptions options(Map<String, String> pairs) {
        return LoweringOptions.parse(pairs);
    }
}
