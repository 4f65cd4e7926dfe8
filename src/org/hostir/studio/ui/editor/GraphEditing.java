package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.ui.editor.model.Arrange;
import org.hostir.studio.ui.editor.model.Arrange.Box;
import org.hostir.studio.ui.editor.model.Layout.Position;
import org.hostir.studio.ui.editor.model.SubgraphCopy;

/**
 * The editing basics of GEF's Logic example on the graph page: keyboard navigation (arrow keys to the nearest node
 * that way, Shift adds it; Tab and Shift+Tab in reading order), Select All, copy / paste / duplicate with fresh names,
 * and align / distribute of a multi-selection. Each change of the document is one operation of the editor's history.
 */
final class GraphEditing {
    /** Where a paste or a duplicate puts its copies, from the originals (figure pixels, on the grid). */
    static final int OFFSET = 40;
    /** What Copy took, shared by the open editors (a paste into another fusion keeps what it can). */
    private static SubgraphCopy.Clip clipboard;

    private final GraphPage page;

    GraphEditing(GraphPage page) { this.page = page; }

    private GraphViewer viewer() { return page.viewer(); }

    void selectAll() {
        page.select(viewer().keys());
        page.selectionChanged();
    }

    /** An arrow key: the nearest node that way becomes the selection ({@code add}: joins it). */
    void navigate(Arrange.Direction d, boolean add) {
        List<String> sel = viewer().selectedKeys();
        Map<String, Box> boxes = boxes(viewer().keys());
        if (boxes.isEmpty()) return;
        String next = sel.isEmpty() ? Arrange.readingOrder(boxes).get(0)
                : Arrange.neighbour(boxes, sel.get(sel.size() - 1), d);
        if (next == null) return;
        List<String> keys = new ArrayList<>(add ? sel : List.of());
        keys.remove(next);
        keys.add(next);
        page.select(keys);
        page.selectionChanged();
    }

    /** Tab ({@code forward}) or Shift+Tab: the next or previous node in reading order, wrapping round. */
    void cycle(boolean forward) {
        List<String> order = Arrange.readingOrder(boxes(viewer().keys()));
        if (order.isEmpty()) return;
        List<String> sel = viewer().selectedKeys();
        int at = sel.isEmpty() ? (forward ? -1 : 0) : order.indexOf(sel.get(sel.size() - 1));
        int next = Math.floorMod(at + (forward ? 1 : -1), order.size());
        page.select(List.of(order.get(next)));
        page.selectionChanged();
    }

    boolean canCopy() { return !viewer().selection().isEmpty(); }

    static boolean canPaste() { return clipboard != null && !clipboard.isEmpty(); }

    void copy() {
        if (canCopy()) clipboard = SubgraphCopy.take(page.commands().model(), viewer().selectedKeys(), viewer().positions());
    }

    void cut() {
        copy();
        page.deleteSelection();
    }

    void paste() {
        if (canPaste()) insert("Paste", clipboard);
    }

    /** Ctrl+D: a copy of the selection beside it, without touching the clipboard. */
    void duplicate() {
        if (canCopy()) insert("Duplicate", SubgraphCopy.take(page.commands().model(), viewer().selectedKeys(), viewer().positions()));
    }

    private void insert(String label, SubgraphCopy.Clip clip) {
        List<String> added = new ArrayList<>();
        boolean done = page.commands().edit(label, d -> {
            int offset = offset(clip.at().values(), viewer().positions().values());
            SubgraphCopy.Pasted p = SubgraphCopy.paste(d, clip, viewer().positions(), offset, offset);
            added.clear();
            added.addAll(p.keys());
            return p.document();
        });
        if (done) {
            page.select(added);
            page.selectionChanged();
        }
    }

    /**
     * How far from the originals copies go: {@link #OFFSET}, or the next multiple of it where a copy would sit exactly
     * on a node already there. A second paste of one Copy, or a Duplicate of a node pasted before, stacked its copies
     * on the first ones, hiding them (issue 35, found driving the Studio by hand); like GEF, repeated copies cascade.
     */
    static int offset(Collection<Position> originals, Collection<Position> shown) {
        Set<Position> taken = new HashSet<>(shown);
        int offset = OFFSET;
        for (int tries = 0; tries < 100; tries++, offset += OFFSET) {
            int o = offset;
            if (originals.stream().noneMatch(p -> taken.contains(new Position(p.x() + o, p.y() + o)))) return offset;
        }
        return offset;
    }

    /** Aligns the selection on the node selected last (GEF's primary selection): one move edit. */
    void align(Arrange.Alignment a) {
        List<String> sel = viewer().selectedKeys();
        if (sel.size() < 2) {
            page.commands().refuse("Align " + a.label.toLowerCase() + ": select two nodes or more");
            return;
        }
        page.commands().move("Align " + a.label.toLowerCase(), withOthers(Arrange.align(boxes(sel), sel.get(sel.size() - 1), a)));
    }

    void distribute(boolean horizontal) {
        List<String> sel = viewer().selectedKeys();
        String label = "Distribute " + (horizontal ? "horizontally" : "vertically");
        if (sel.size() < 3) {
            page.commands().refuse(label + ": select three nodes or more");
            return;
        }
        page.commands().move(label, withOthers(Arrange.distribute(boxes(sel), horizontal)));
    }

    /** Every node's present position with {@code moved} applied, so that the layout keeps the nodes not moved. */
    private Map<String, Position> withOthers(Map<String, Position> moved) {
        Map<String, Position> all = new LinkedHashMap<>(viewer().positions());
        moved.forEach((k, p) -> all.put(k, new Position(Math.max(0, p.x()), Math.max(0, p.y()))));
        return all;
    }

    private Map<String, Box> boxes(List<String> keys) {
        Map<String, Box> out = new LinkedHashMap<>();
        for (String k : keys) {
            int[] b = viewer().bounds(k);
            if (b != null) out.put(k, new Box(b[0], b[1], b[2], b[3]));
        }
        return out;
    }
}
