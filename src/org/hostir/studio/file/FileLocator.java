package org.hostir.studio.file;

import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.Subject;

/**
 * Locates subjects in the file they were converted from. The converter numbers tensors {@code T<i>} by their
 * index in {@code tensors} and keeps ops in file order, so ids map straight back to JSON paths; tensors a pass
 * created later (an index past the file's, or another label) fall back to their IR names.
 */
record FileLocator(ParsedFusion source) implements FusionLocator {

    public String file() { return source.file(); }

    public Location locate(Subject subject) {
        String path = jsonPath(subject);
        return new Location(subject, path == null ? FusionLocator.irName(subject) : path,
                path == null ? 0 : source.lines().line(path));
    }

    /** The subject's JSON path in this file, or null when the file has no such element. */
    private String jsonPath(Subject subject) {
        FusionDocument doc = source.document();
        return switch (subject) {
            case Subject.Tensor t -> fromFile(t) ? "$.tensors[" + t.index() + "]" : null;
            case Subject.Axis a -> fromFile(a.tensor()) ? "$.tensors[" + a.tensor().index() + "].axes[" + a.axis() + "]"
                    : null;
            case Subject.Mesh m -> fromFile(m.tensor()) ? "$.tensors[" + m.tensor().index() + "].mesh" : null;
            case Subject.Op o -> o.index() >= 0 && o.index() < doc.ops().size() ? "$.ops[" + o.index() + "]" : null;
            case Subject.Input i -> i.index() >= 0 && i.index() < doc.inputs().size() ? "$.inputs[" + i.index() + "]"
                    : null;
            case Subject.Output o -> o.index() < 0 ? "$.outputs"
                    : o.index() < doc.outputs().size() ? "$.outputs[" + o.index() + "]" : null;
            case Subject.Json j -> j.path();
            case Subject.Setting s -> null;
        };
    }

    private boolean fromFile(Subject.Tensor t) {
        var tensors = source.document().tensors();
        return t.index() >= 0 && t.index() < tensors.size() && tensors.get(t.index()).name().equals(t.label());
    }
}
