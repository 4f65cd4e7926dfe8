package org.hostir.studio.ui.passes;

import org.hostir.studio.ui.HostIrPreferences.DumpProgram;
import org.hostir.studio.ui.passes.model.DumpSnapshots;

/** Finds the program the nvFuser Dump view showed last in the dump it shows again. */
final class DumpPrograms {
    private DumpPrograms() {}

    /**
     * The program kept: at its index when the label there is the same, else the first of that label (the dump
     * file may have grown or changed since), else the index when the dump still has it; -1 when none fits.
     */
    static int find(DumpSnapshots dump, DumpProgram kept) {
        int n = dump.size(), at = kept.index();
        if (at >= 0 && at < n && dump.label(at).equals(kept.label())) return at;
        for (int i = 0; i < n; i++) if (dump.label(i).equals(kept.label())) return i;
        return at >= 0 && at < n ? at : -1;
    }
}
