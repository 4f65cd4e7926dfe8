package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.io.Diagnostic;
import org.hostir.studio.io.FusionBindings;
import org.hostir.studio.io.FusionDocument;
import org.hostir.studio.io.FusionFileException;
import org.hostir.studio.io.FusionLoader;
import org.hostir.studio.io.FusionReader;
import org.hostir.studio.io.LoadedFusion;
import org.hostir.studio.io.MeshSpec;
import org.hostir.studio.io.ParsedFusion;
import org.hostir.studio.io.TensorSpec;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.LoweringError;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.Pipeline;

/**
 * The engine's verdict on a fusion text, as problems the editor can show both in the Problems view (line) and
 * on the graph (tensor or op). Validation first; when it passes, lowering for rank 0 (the schedule may still
 * be impossible to lower, e.g. two sharding changes in one expression).
 */
public final class FusionCheck {
    private static final Pattern TENSOR = Pattern.compile("^\\$\\.tensors\\[(\\d+)\\]");
    private static final Pattern OP = Pattern.compile("^\\$\\.ops\\[(\\d+)\\]");
    private static final Pattern LIST = Pattern.compile("^\\$\\.(inputs|outputs)\\[(\\d+)\\]");

    private FusionCheck() {}

    /** One problem: where in the file (line, 0 = unknown) and on which node (tensor name, or op index). */
    public record Problem(int line, String path, String rule, String message, String tensor, int op) {}

    /** The outcome: the parsed document (null when the text does not parse) and the problems. */
    public record Result(FusionDocument document, List<Problem> problems) {
        public boolean parses() { return document != null; }
    }

    public static Result check(String text, String file) {
        ParsedFusion parsed;
        try {
            parsed = FusionReader.read(text, file);
        } catch (FusionFileException e) {
            return new Result(null, e.diagnostics().stream().map(d -> problem(d, null)).toList());
        }
        FusionDocument doc = parsed.document();
        List<Problem> problems = new ArrayList<>();
        LoadedFusion loaded;
        try {
            loaded = FusionLoader.load(parsed, devices(doc), Map.of());
        } catch (FusionFileException e) {
            for (Diagnostic d : e.diagnostics()) problems.add(problem(d, doc));
            return new Result(doc, problems);
        } catch (RuntimeException e) {
            // the engine promises diagnostics, never exceptions; if one slips through the user still gets a line
            problems.add(new Problem(0, "$", "internal", "the fusion could not be checked: " + e, null, -1));
            return new Result(doc, problems);
        }
        try {
            Pipeline.standard().lower(loaded.fusion(),
                    new LoweringContext(0, loaded.bindings().devices(), LoweringOptions.DEFAULTS));
        } catch (LoweringException e) {
            for (LoweringError err : e.errors()) {
                String tensor = err.tensorId() >= 0 && err.tensorId() < doc.tensors().size()
                        ? doc.tensors().get(err.tensorId()).name() : null;
                int line = 0;
                if (tensor != null) {
                    int i = err.tensorId();
                    line = parsed.lines().line("$.tensors[" + i + "]");
                }
                problems.add(new Problem(line, "$", err.rule(), err.subject() + ": " + err.message(), tensor, -1));
            }
        } catch (RuntimeException e) {
            problems.add(new Problem(0, "$", "lower", "lowering failed: " + e.getMessage(), null, -1));
        }
        return new Result(doc, problems);
    }

    /** Devices for checking: 2 (the command line's default), or enough for the explicit meshes. */
    public static int devices(FusionDocument doc) {
        int n = FusionBindings.DEFAULT_DEVICES;
        for (TensorSpec t : doc.tensors()) {
            if (t.mesh() instanceof MeshSpec.Devices(var ids)) {
                for (int id : ids) n = Math.max(n, Math.min(id + 1, 4096));
            }
        }
        return n;
    }

    private static Problem problem(Diagnostic d, FusionDocument doc) {
        String tensor = null;
        int op = -1;
        if (doc != null) {
            Matcher m = TENSOR.matcher(d.path());
            Matcher o = OP.matcher(d.path());
            Matcher l = LIST.matcher(d.path());
            if (m.find()) {
                int i = Integer.parseInt(m.group(1));
                if (i < doc.tensors().size()) tensor = doc.tensors().get(i).name();
            } else if (o.find()) {
                op = Integer.parseInt(o.group(1));
            } else if (l.find()) {
                List<String> list = l.group(1).equals("inputs") ? doc.inputs() : doc.outputs();
                int i = Integer.parseInt(l.group(2));
                if (i < list.size()) tensor = list.get(i);
            }
        }
        return new Problem(d.line(), d.path(), d.rule(), d.message(), tensor, op);
    }
}
