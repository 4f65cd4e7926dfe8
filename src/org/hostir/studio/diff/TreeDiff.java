package org.hostir.studio.diff;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.host.HostIrContainer;

/**
 * The node-level diff of two Host IR programs, typically a pass's input and output: the merged top level (after
 * order, removed nodes where they were) with each node's nested bodies diffed the same way. See {@link BodyDiff}
 * for the matching, and {@link CrossBodyMoves} for the nodes a pass moved to another body. Inputs, outputs and the HostUnit list are not nodes, so their changes are flags here.
 *
 * @param nodes            the merged top-level diff nodes
 * @param signatureChanged the program's inputs or outputs differ
 * @param hostUnitsChanged the HostUnits the program lists differ (the PostOnStream nodes show where)
 * @param summary          counts over the whole tree
 */
public record TreeDiff(List<DiffNode> nodes, boolean signatureChanged, boolean hostUnitsChanged,
                       DiffSummary summary) {

    public TreeDiff {
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(summary);
    }

    public static TreeDiff compare(HostIrContainer before, HostIrContainer after) {
        List<DiffNode> nodes = CrossBodyMoves.apply(BodyDiff.diff(before.topLevel(), after.topLevel()));
        boolean signature = !before.inputs().equals(after.inputs()) || !before.outputs().equals(after.outputs());
        boolean units = !before.hostUnits().equals(after.hostUnits());
        return new TreeDiff(nodes, signature, units, DiffSummary.of(nodes));
    }

    /** Whether the pass changed anything the printed program shows (node ids of rebuilt nodes aside). */
    public boolean changed() { return signatureChanged || hostUnitsChanged || summary.hasChanges(); }
}
