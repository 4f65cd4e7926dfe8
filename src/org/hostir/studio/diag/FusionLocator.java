package org.hostir.studio.diag;

/**
 * Where a {@link Subject} is in the fusion file it was read from, so that diagnostics of validation and of
 * lowering point into the file: the one place where typed subjects become JSON paths and lines. A fusion built
 * in memory (a test, a lowering pass) uses {@link #inMemory}, which names elements by their IR names.
 */
public interface FusionLocator {

    /** A subject resolved: its JSON path (or IR name) and 1-based line, 0 when unknown. */
    record Location(Subject subject, String path, int line) {}

    String file();

    Location locate(Subject subject);

    default Location axis(Subject.Tensor tensor, int axis) { return locate(new Subject.Axis(tensor, axis)); }

    default Location mesh(Subject.Tensor tensor) { return locate(new Subject.Mesh(tensor)); }

    /** The op at this index of {@code Fusion.ops()}. */
    default Location op(int index) { return locate(new Subject.Op(index)); }

    default Location output(int index) { return locate(new Subject.Output(index)); }

    static FusionLocator inMemory(String name) {
        return new FusionLocator() {
            public String file() { return name; }

            public Location locate(Subject subject) { return new Location(subject, irName(subject), 0); }
        };
    }

    /** The IR's name for a subject: {@code T2}, {@code T2.axes[0]}, {@code ops[1]}, ... */
    static String irName(Subject subject) {
        return switch (subject) {
            case Subject.Tensor t -> "T" + t.index();
            case Subject.Axis a -> "T" + a.tensor().index() + ".axes[" + a.axis() + "]";
            case Subject.Mesh m -> "T" + m.tensor().index() + ".mesh";
            case Subject.Op o -> "ops[" + o.index() + "]";
            case Subject.Input i -> "inputs[" + i.index() + "]";
            case Subject.Output o -> o.index() < 0 ? "$.outputs" : "outputs[" + o.index() + "]";
            case Subject.Json j -> j.path();
            case Subject.Setting s -> s.name();
        };
    }
}
