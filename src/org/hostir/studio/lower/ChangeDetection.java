package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether each pass of one pipeline run changed the program: a different kind of snapshot, another fingerprint,
 * or (for equal fingerprints) unequal programs. MLIR's print-ir-after-change decides the same way.
 */
public final class ChangeDetection implements PassInstrumentation {
    private final List<Boolean> changed = new ArrayList<>();

    @Override
    public void afterPass(Pass pass, Snapshot before, Snapshot after, LoweringContext context) {
        changed.add(changed(before, after));
    }

    public static boolean changed(Snapshot before, Snapshot after) {
        return after.getClass() != before.getClass() || after.fingerprint() != before.fingerprint()
                || !after.equals(before);
    }

    /** For each pass that completed, in order, whether it changed the program. */
    public List<Boolean> changed() { return List.copyOf(changed); }
}
