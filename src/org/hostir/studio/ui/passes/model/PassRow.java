package org.hostir.studio.ui.passes.model;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.hostir.studio.diff.DiffKind;
import org.hostir.studio.diff.DiffNode;
import org.hostir.studio.diff.Hunk;
import org.hostir.studio.diff.TextDiff;
import org.hostir.studio.diff.TreeDiff;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.Snapshot;

/**
 * One row of the before/after tree: a Host IR node with how the pass treated it, a pseudo row ({@code ELSE:}),
 * or a line of the fusion math while the program is still a fusion. Rows are built once per selected pass, with
 * parent links so provenance can fall back to the enclosing node.
 */
public final class PassRow {
    private final DiffKind kind;
    private final String text;
    private final HostNode node;
    private final PassRow parent;
    private final List<PassRow> children = new ArrayList<>();

    private PassRow(DiffKind kind, String text, HostNode node, PassRow parent) {
        this.kind = kind;
        this.text = text;
        this.node = node;
        this.parent = parent;
        if (parent != null) parent.children.add(this);
    }

    public DiffKind kind() { return kind; }

    public String text() { return text; }

    /** The Host IR node (the after node, or the removed one); null for pseudo rows and fusion lines. */
    public HostNode node() { return node; }

    /** The enclosing row; null at top level (the invisible root that collects top-level rows is no row). */
    public PassRow parent() { return parent == null || parent.parent == null ? null : parent; }

    public List<PassRow> children() { return children; }

    /** Whether this row is something the pass did (the "next change" navigation stops here). */
    public boolean isChange() { return kind != DiffKind.UNCHANGED; }

    /** The top-level rows of the diff between the snapshots before and after a pass. */
    public static List<PassRow> of(Snapshot before, Snapshot after) {
        return of(before, after, UnaryOperator.identity());
    }

    /**
     * The rows of the diff between two snapshots, each row the node {@code shown} gives for a node of the diff, and
     * labelled as the shown node prints: a comparison diffs canonical copies, a view shows the programs' own text
     * ({@link org.hostir.studio.diff.ShownNodes}).
     */
    public static List<PassRow> of(Snapshot before, Snapshot after, UnaryOperator<HostNode> shown) {
        PassRow root = new PassRow(DiffKind.UNCHANGED, "", null, null);
        switch (after) {
            case Snapshot.OfHost(HostIrContainer a, var g) when before instanceof Snapshot.OfHost(HostIrContainer b, _) ->
                    addDiffs(root, TreeDiff.compare(b, a).nodes(), g, shown);
            // segmentation turns the fusion into Host IR: every node is new
            case Snapshot.OfHost(HostIrContainer a, var g) -> a.topLevel().forEach(n -> addAdded(root, n, g, shown));
            case Snapshot.OfFusion f -> addLines(root, before.print(), after.print());
        }
        return root.children;
    }

    /** Rows in the generation's spelling ({@code g}), so that a row's text is its line in the printed program. */
    private static void addDiffs(PassRow parent, List<DiffNode> diffs, NvFuserGeneration g,
                                 UnaryOperator<HostNode> shown) {
        for (DiffNode d : diffs) {
            HostNode n = shown.apply(d.node());
            PassRow row = new PassRow(d.moved() && d.kind() == DiffKind.UNCHANGED ? DiffKind.CHANGED : d.kind(),
                    HostIrPrinter.headline(n, g) + (d.match() == DiffNode.Match.ID_ELSEWHERE ? "   (moved here from another body)"
                            : d.moved() ? "   (moved)" : ""), n, parent);
            addBodies(row, d.node(), d.bodies(), (r, body) -> addDiffs(r, body, g, shown));
        }
    }

    private static void addAdded(PassRow parent, HostNode n, NvFuserGeneration g, UnaryOperator<HostNode> shown) {
        HostNode s = shown.apply(n);
        PassRow row = new PassRow(DiffKind.ADDED, HostIrPrinter.headline(s, g), s, parent);
        addBodies(row, n, n.bodies(), (r, body) -> body.forEach(c -> addAdded(r, c, g, shown)));
    }

    /** An if's second body goes under an {@code ELSE:} row, as the printed form shows it. */
    private static <T> void addBodies(PassRow row, HostNode n, List<List<T>> bodies,
                                      java.util.function.BiConsumer<PassRow, List<T>> add) {
        for (int i = 0; i < bodies.size(); i++) {
            if (n instanceof IfThenElse && i == 1) {
                add.accept(new PassRow(row.kind == DiffKind.ADDED ? DiffKind.ADDED : DiffKind.UNCHANGED, "ELSE:",
                        null, row), bodies.get(i));
            } else {
                add.accept(row, bodies.get(i));
            }
        }
    }

    private static void addLines(PassRow root, String before, String after) {
        List<Hunk> hunks = TextDiff.hunks(before, after, Integer.MAX_VALUE / 4);
        if (hunks.isEmpty()) {
            after.lines().forEach(l -> new PassRow(DiffKind.UNCHANGED, l, null, root));
            return;
        }
        for (Hunk h : hunks) {
            for (Hunk.Line l : h.lines()) {
                DiffKind k = switch (l.kind()) {
                    case ADDED -> DiffKind.ADDED;
                    case REMOVED -> DiffKind.REMOVED;
                    case CONTEXT -> DiffKind.UNCHANGED;
                };
                new PassRow(k, l.text(), null, root);
            }
        }
    }

    /** Every row below and including {@code rows}, depth first. */
    public static List<PassRow> flatten(List<PassRow> rows) {
        List<PassRow> out = new ArrayList<>();
        for (PassRow r : rows) {
            out.add(r);
            out.addAll(flatten(r.children));
        }
        return out;
    }

    @Override
    public String toString() { return kind + " " + text; }
}
