package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.ShardingReport;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.ParsedFusion;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.rules.FusionBindings;

/**
 * The engine's verdict on a fusion text, as problems the editor can show both in the Problems view (line) and
 * on the graph (tensor or op). Validation first; when it passes, lowering for rank 0 (the schedule may still
 * be impossible to lower, e.g. two sharding changes in one expression). Each problem's node comes from the
 * diagnostic's typed {@link Subject}, never from its text.
 */
public final class FusionCheck {
    private static final Pattern TENSOR_PATH = Pattern.compile("\\$\\.tensors\\[([0-9]{1,6})\\]");

    private FusionCheck() {}

    /** One problem: where in the file (line, 0 = unknown) and on which node (tensor name, or op index). */
    public record Problem(int line, String path, String rule, String message, String tensor, int op) {
        /** The graph nodes this problem frames in red (tensor and op keys of {@code doc}), the first one to select. */
        public List<String> nodes(FusionDocument doc) {
            List<String> out = new ArrayList<>();
            if (op >= 0 && op < doc.ops().size()) out.add(Layout.opKey(doc.ops().get(op).output()));
            if (tensor != null && doc.tensor(tensor).isPresent()) out.add(Layout.tensorKey(tensor));
            return out;
        }
    }

    /**
     * The outcome: the parsed document (null when the text does not parse), the problems, and the shardings after
     * propagation ({@link Shardings#NONE} when the document does not load).
     */
    public record Result(FusionDocument document, List<Problem> problems, Shardings shardings) {
        public Result(FusionDocument document, List<Problem> problems) { this(document, problems, Shardings.NONE); }

        public boolean parses() { return document != null; }
    }

    public static Result check(String text, String file) { return check(text, file, null); }

    /**
     * {@code written}: the document the editor wrote {@code text} from (a graph or Properties edit), or null for
     * the user's own text. A problem found while reading (a loop step's position out of range, a DIDx on the
     * inner part of a split) leaves no parsed document; the written one still names the tensor at its JSON place
     * ({@code $.tensors[1].loop[0]}), so its node is marked too.
     */
    public static Result check(String text, String file, FusionDocument written) {
        return load(text, file, written).lower();
    }

    /**
     * The check's first stage: the text parsed, validated and its shardings propagated, every rank not lowered yet.
     * An opening editor shows {@link Loaded#result()} and lowers later, off the UI thread, once its graph is drawn
     * (issue 35: the lowering of every rank is not needed for the first picture of a 1,000-op fusion).
     */
    public static Loaded load(String text, String file, FusionDocument written) {
        ParsedFusion parsed;
        try {
            parsed = Engine.parse(new FusionSource.Text(text, file));
        } catch (EngineFailure e) {
            return new Loaded(null, null, new Result(null, e.diagnostics().stream().map(d -> problem(d, written)).toList()));
        }
        FusionDocument doc = parsed.document();
        // a blank canvas (File > New's empty fusion) is a start, not an error: the canvas's hint says what to do
        // (issue 35: a new file had an error marker at once); nothing to load or lower
        if (doc.tensors().isEmpty() && doc.ops().isEmpty()) return new Loaded(null, null, new Result(doc, List.of()));
        List<Problem> problems = new ArrayList<>();
        // the shardings as propagation infers them, for the graph and Properties (issue 34), from the fusion loaded
        // here, or read again when the load is refused (a conflict among them): its diagnostics are the load's own
        ShardingReport report = null;
        LoadedFusion loaded = null;
        try {
            loaded = Engine.load(parsed, devices(doc), Map.of());
            report = Engine.shardings(loaded);
        } catch (EngineFailure e) {
            loaded = null;
            for (Diagnostic d : e.diagnostics()) problems.add(problem(d, doc));
        } catch (RuntimeException e) {
            loaded = null;
            problems.add(internal(e));
        }
        if (report == null) report = reportOf(parsed);
        return new Loaded(loaded, report, withReport(doc, problems, report, report == null ? null : Shardings.of(doc, report)));
    }

    /**
     * A fusion that has loaded (or failed to): {@link #result()} its problems and shardings so far; {@link #lower()}
     * lowers every rank as {@code hirstudio check} does and gives the whole check's result (pure: any thread).
     */
    public static final class Loaded {
        private final LoadedFusion loaded;
        private final ShardingReport report;
        private final Result result;

        private Loaded(LoadedFusion loaded, ShardingReport report, Result result) {
            this.loaded = loaded;
            this.report = report;
            this.result = result;
        }

        /** The problems found while loading, the shardings; the lowering's refusals not yet. */
        public Result result() { return result; }

        /** Whether the fusion loaded, so that its ranks are still to be lowered. */
        public boolean lowerable() { return loaded != null; }

        /** The whole check: this result, and the lowering's refusals if the fusion loaded. */
        public Result lower() {
            if (loaded == null) return result;
            FusionDocument doc = result.document();
            List<Problem> problems = new ArrayList<>();
            try {
                Engine.check(loaded, LoweringOptions.DEFAULTS); // every rank, as hirstudio check
            } catch (EngineFailure e) {
                // a lowering diagnostic's path names the expression: the message says which one
                for (Diagnostic d : e.diagnostics()) problems.add(expression(problem(d, doc, d.path() + ": " + d.message()), doc));
            } catch (RuntimeException e) {
                problems.add(internal(e));
            }
            return withReport(doc, problems, report, result.shardings());
        }
    }

    /** The engine promises diagnostics, never exceptions; if one slips through the user still gets a line. */
    private static Problem internal(RuntimeException e) {
        return new Problem(0, "$", "internal", "the fusion could not be checked: " + e, null, -1);
    }

    /** {@code problems} and the sharding report's own diagnostics (not repeating a rule at a line), with the shardings. */
    private static Result withReport(FusionDocument doc, List<Problem> problems, ShardingReport report,
            Shardings shardings) {
        if (report == null) return new Result(doc, problems);
        List<Problem> out = new ArrayList<>(problems);
        for (Diagnostic d : report.diagnostics()) {
            Problem p = problem(d, doc);
            if (out.stream().noneMatch(q -> q.line() == p.line() && q.rule().equals(p.rule()))) out.add(p);
        }
        return new Result(doc, out, shardings);
    }

    /** The shardings of a document whose load was refused, or null if the engine failed (reported above). */
    private static ShardingReport reportOf(ParsedFusion parsed) {
        try {
            return Engine.shardings(parsed, devices(parsed.document()), Map.of());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Devices for checking: 2 (the command line's default), or enough for the explicit meshes. */
    public static int devices(FusionDocument doc) {
        int n = FusionBindings.DEFAULT_DEVICES;
        for (TensorSpec t : doc.tensors()) {
            if (t.mesh() instanceof MeshSpec.Devices(var ids, var shape)) {
                for (int id : ids) n = Math.max(n, Math.min(id + 1, FusionBindings.MAX_DEVICES));
            }
        }
        return n;
    }

    private static Problem problem(Diagnostic d, FusionDocument doc) { return problem(d, doc, d.message()); }

    /** A lowering refusal is about an expression: the op computing its tensor is framed with it. */
    private static Problem expression(Problem p, FusionDocument doc) {
        if (p.op() >= 0 || p.tensor() == null) return p;
        int op = FusionEdits.opIndex(doc, p.tensor());
        return op < 0 ? p : new Problem(p.line(), p.path(), p.rule(), p.message(), p.tensor(), op);
    }

    private static Problem problem(Diagnostic d, FusionDocument doc, String message) {
        String tensor = doc == null ? null : tensorOf(d.subject(), doc);
        int op = d.subject() instanceof Subject.Op(int index) ? index : -1;
        return new Problem(d.line(), d.path(), d.rule(), message, tensor, op);
    }

    /** The file's name of the tensor a subject is about, or null when it is about no tensor of the file. */
    private static String tensorOf(Subject subject, FusionDocument doc) {
        return switch (subject) {
            case Subject.Tensor t -> name(doc.tensors(), t.index());
            case Subject.Axis a -> name(doc.tensors(), a.tensor().index());
            case Subject.Mesh m -> name(doc.tensors(), m.tensor().index());
            case Subject.Input i -> i.index() >= 0 && i.index() < doc.inputs().size() ? doc.inputs().get(i.index())
                    : null;
            case Subject.Output o -> o.index() >= 0 && o.index() < doc.outputs().size()
                    ? doc.outputs().get(o.index()) : null;
            case Subject.Op o -> null;
            case Subject.Json j -> tensorAt(j.path(), doc);
            case Subject.Setting s -> null;
        };
    }

    /** The tensor at a JSON place {@code $.tensors[i]...} of {@code doc}'s file, or null. */
    private static String tensorAt(String path, FusionDocument doc) {
        Matcher m = TENSOR_PATH.matcher(path);
        return m.lookingAt() ? name(doc.tensors(), Integer.parseInt(m.group(1))) : null;
    }

    private static String name(List<TensorSpec> tensors, int index) {
        return index >= 0 && index < tensors.size() ? tensors.get(index).name() : null;
    }
}
