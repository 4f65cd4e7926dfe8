package org.hostir.studio.ui.passes;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.diff.DiffKind;
import org.hostir.studio.ui.passes.model.PassRow;

/**
 * Scrolls the side-by-side text diff to a change chosen in the tree (Next/Previous change): the AFTER pane to the
 * row's line, or the BEFORE pane for a removed row. The compare viewer's own navigation moves its selection but
 * does not scroll a pane that is not focused, so the view scrolls the panes itself.
 */
final class DiffScroll {
    private DiffScroll() {}

    /** The compare viewer's visible text panes, left (BEFORE) then right (AFTER). */
    static List<StyledText> panes(Control diff) {
        List<StyledText> out = new ArrayList<>();
        collect(diff, out);
        out.removeIf(t -> !t.isVisible() || t.getSize().x < 20);
        out.sort((a, b) -> Integer.compare(a.toDisplay(0, 0).x, b.toDisplay(0, 0).x));
        return out;
    }

    private static void collect(Control c, List<StyledText> out) {
        if (c instanceof StyledText t) out.add(t);
        if (c instanceof Composite comp) for (Control child : comp.getChildren()) collect(child, out);
    }

    /** Scrolls both panes so that the row's line (in AFTER, or in BEFORE when removed) is in view. */
    static void reveal(Control diff, PassRow row) {
        List<StyledText> panes = panes(diff);
        if (panes.size() < 2) return;
        StyledText pane = panes.get(row.kind() == DiffKind.REMOVED ? 0 : 1);
        int line = lineOf(pane.getText(), row.text());
        if (line < 0) return;
        int visible = Math.max(1, pane.getClientArea().height / Math.max(1, pane.getLineHeight()));
        int top = Math.max(0, line - visible / 3);
        // the compare viewer keeps its panes in step: scroll the other one the same way
        for (StyledText t : panes) t.setTopIndex(Math.min(top, Math.max(0, t.getLineCount() - 1)));
        pane.setSelection(pane.getOffsetAtLine(line), pane.getOffsetAtLine(line) + pane.getLine(line).length());
    }

    /** The first line whose text (trimmed) starts with the row's first line (trimmed), or -1. */
    static int lineOf(String text, String rowText) {
        String want = rowText.strip().lines().findFirst().orElse("").strip();
        if (want.isEmpty()) return -1;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) if (lines[i].strip().startsWith(want)) return i;
        return -1;
    }
}
