package org.hostir.studio.io;

import org.hostir.studio.ir.TensorView;

/**
 * Locates IR elements in the file they were converted from. The converter numbers tensors {@code T<i>} by
 * their index in {@code tensors} and keeps ops in file order, so ids map straight back to JSON paths; tensors a
 * pass created later fall back to their IR names.
 */
record FileLocator(ParsedFusion source) implements FusionLocator {

    public String file() { return source.file(); }

    public Location tensor(TensorView t) {
        return fromFile(t) ? at("$.tensors[" + t.id() + "]") : new Location(t.name(), 0);
    }

    public Location axis(TensorView t, int axis) {
        return fromFile(t) ? at("$.tensors[" + t.id() + "].axes[" + axis + "]")
                : new Location(t.name() + ".axes[" + axis + "]", 0);
    }

    public Location mesh(TensorView t) {
        return fromFile(t) ? at("$.tensors[" + t.id() + "].mesh") : new Location(t.name() + ".mesh", 0);
    }

    public Location op(int index) {
        return index < source.document().ops().size() ? at("$.ops[" + index + "]")
                : new Location("ops[" + index + "]", 0);
    }

    public Location output(int index) {
        return index < source.document().outputs().size() ? at("$.outputs[" + index + "]")
                : new Location("outputs[" + index + "]", 0);
    }

    private boolean fromFile(TensorView t) {
        var tensors = source.document().tensors();
        return t.id() < tensors.size() && tensors.get(t.id()).name().equals(t.label());
    }

    private Location at(String path) { return new Location(path, source.lines().line(path)); }
}
