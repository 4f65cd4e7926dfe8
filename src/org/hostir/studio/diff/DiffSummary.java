package org.hostir.studio.diff;

import java.util.List;

/**
 * Node counts over a whole diff tree, nested nodes included. The four kinds partition the nodes; {@code moved}
 * counts matched nodes (of any kind) whose order changed.
 */
public record DiffSummary(int added, int removed, int changed, int unchanged, int moved) {

    public static DiffSummary of(List<DiffNode> nodes) {
        int[] counts = new int[DiffKind.values().length + 1];
        count(nodes, counts);
        return new DiffSummary(counts[DiffKind.ADDED.ordinal()], counts[DiffKind.REMOVED.ordinal()],
                counts[DiffKind.CHANGED.ordinal()], counts[DiffKind.UNCHANGED.ordinal()],
                counts[DiffKind.values().length]);
    }

    private static void count(List<DiffNode> nodes, int[] counts) {
        for (DiffNode n : nodes) {
            counts[n.kind().ordinal()]++;
            if (n.moved()) counts[DiffKind.values().length]++;
            for (List<DiffNode> body : n.bodies()) count(body, counts);
        }
    }

    public int total() { return added + removed + changed + unchanged; }

    /** Whether anything was added, removed, changed or moved. */
    public boolean hasChanges() { return added + removed + changed + moved > 0; }

    /** For status lines: {@code 2 added, 1 removed, 3 changed, 40 unchanged} (moved only when some moved). */
    public String describe() {
        return added + " added, " + removed + " removed, " + changed + " changed, " + unchanged + " unchanged"
                + (moved > 0 ? ", " + moved + " moved" : "");
    }
}
