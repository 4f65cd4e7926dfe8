package org.hostir.studio.io;

import org.hostir.studio.ir.TensorView;

/**
 * Where an IR element comes from, so that validation diagnostics point into the fusion file. A fusion built in
 * memory (a test, a lowering pass) uses {@link #inMemory}, which names elements by their IR names.
 */
public interface FusionLocator {

    record Location(String path, int line) {}

    String file();

    Location tensor(TensorView tensor);

    Location axis(TensorView tensor, int axis);

    Location mesh(TensorView tensor);

    /** The op at this index of {@code Fusion.ops()}. */
    Location op(int index);

    Location output(int index);

    static FusionLocator inMemory(String name) {
        return new FusionLocator() {
            public String file() { return name; }

            public Location tensor(TensorView t) { return new Location(t.name(), 0); }

            public Location axis(TensorView t, int axis) { return new Location(t.name() + ".axes[" + axis + "]", 0); }

            public Location mesh(TensorView t) { return new Location(t.name() + ".mesh", 0); }

            public Location op(int index) { return new Location("ops[" + index + "]", 0); }

            public Location output(int index) { return new Location("outputs[" + index + "]", 0); }
        };
    }
}
