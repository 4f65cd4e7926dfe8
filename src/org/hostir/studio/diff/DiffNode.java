package org.hostir.studio.diff;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.host.HostNode;

/**
 * One node of a {@link TreeDiff}: the before and/or after Host IR node, how they were paired, and the diffs of
 * its nested bodies, parallel to {@link HostNode#bodies()} (a loop's body; an if's then and else), so a tree view
 * can still tell the else branch apart.
 *
 * @param kind     added, removed, changed or unchanged
 * @param match    how before and after were paired ({@link Match#NONE} for added and removed nodes)
 * @param moved    matched, but no longer in the same order relative to its unmoved siblings, or now in another
 *                 body ({@link Match#ID_ELSEWHERE})
 * @param before   the node in the pass's input, null when added
 * @param after    the node in the pass's output, null when removed
 * @param headline the printer's one-line text of the after node (the before node when removed)
 * @param bodies   one list of child diffs per nested body
 */
public record DiffNode(DiffKind kind, Match match, boolean moved, HostNode before, HostNode after, String headline,
                       List<List<DiffNode>> bodies) {

    /** How a before node and an after node were found to be the same node. */
    public enum Match {
        /** Same id in the same parent body: the pass kept the node. */
        ID,
        /** Same id, now in another body (moved into a loop, out of one, to the other branch): always moved. */
        ID_ELSEWHERE,
        /** Different ids but equal structural hashes: the pass rebuilt the node the same way. */
        STRUCTURE,
        /** Not paired: an added or removed node. */
        NONE
    }

    public DiffNode {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(match);
        Objects.requireNonNull(headline);
        bodies = bodies.stream().map(List::copyOf).toList();
        // The invariants the tree views rely on, checked once here rather than at every use.
        boolean paired = match != Match.NONE;
        boolean consistent = switch (kind) {
            case ADDED -> before == null && after != null && !paired && !moved;
            case REMOVED -> before != null && after == null && !paired && !moved;
            case CHANGED, UNCHANGED -> before != null && after != null && paired
                    && (match != Match.ID_ELSEWHERE || moved);
        };
        if (!consistent) {
            throw new IllegalArgumentException(kind + " node with match " + match + ", moved " + moved
                    + ", before " + before + ", after " + after);
        }
    }

    /** The node as the after program has it, or the before node when it was removed. */
    public HostNode node() { return after != null ? after : before; }

    /** All child diffs, body after body. */
    public List<DiffNode> children() {
        return bodies.stream().flatMap(List::stream).toList();
    }

    /** Whether this node or anything below it differs. */
    public boolean changed() { return kind != DiffKind.UNCHANGED || moved; }
}
