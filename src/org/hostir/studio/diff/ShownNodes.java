package org.hostir.studio.diff;

import java.util.function.UnaryOperator;

import org.hostir.studio.ir.host.HostNode;

/**
 * The node a view shows for a node of a compared program: {@link ProgramComparison} diffs {@link Canonical} copies
 * (numbered afresh, the right side's node ids from {@link ProgramComparison#RIGHT_NODE_BASE}), but a tree beside a
 * text should label each row as that text prints it ({@code Communication 0}, not {@code Communication 16777216};
 * issue 35). Each copy keeps the node every one of its nodes copies ({@link Canonical.Copy}), so the node shown is
 * found by what it copies, never by where it stands: a node inside another's fields (ShareMemHandles' P2Ps), a body
 * of another length, or a text of another program cannot pair a row with the wrong node. A node of neither side, or
 * one the shown text does not copy, stands for itself.
 */
public final class ShownNodes {
    private final ProgramComparison comparison;
    /** The canonical copy the right side's text prints, or null when that text is the right program itself. */
    private final Canonical.Copy rightShown;

    private ShownNodes(ProgramComparison comparison, Canonical.Copy rightShown) {
        this.comparison = comparison;
        this.rightShown = rightShown;
    }

    /** Each side's nodes shown as the nodes of the program compared there (the texts print those programs). */
    public static ShownNodes sources(ProgramComparison c) { return new ShownNodes(c, null); }

    /**
     * The right side's nodes shown as {@code shown} (another canonical copy of the program compared there) prints
     * them; the left side's as themselves (the text beside prints the comparison's own left copy).
     */
    public static ShownNodes rightAs(ProgramComparison c, Canonical.Copy shown) { return new ShownNodes(c, shown); }

    /** The node shown for {@code node}. */
    public HostNode of(HostNode node) {
        HostNode right = comparison.rightCopy().sourceOf(node);
        if (rightShown != null) {
            HostNode s = right == null ? null : rightShown.copyOf(right);
            return s == null ? node : s;
        }
        HostNode source = right != null ? right : comparison.leftCopy().sourceOf(node);
        return source == null ? node : source;
    }

    /** {@link #of} as a function. */
    public UnaryOperator<HostNode> function() { return this::of; }
}
