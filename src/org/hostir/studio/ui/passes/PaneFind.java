package org.hostir.studio.ui.passes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.ui.FindBar;

/**
 * Find in one of the text diff's panes (issue 35, Deliver 7): the {@link FindBar} over the text of the pane that had
 * the keyboard when Ctrl+F was pressed. A match is a range of that pane's text ({@code x} offset, {@code y} length),
 * selected and scrolled to as a text editor's find does; Esc gives the keyboard back to the pane.
 */
final class PaneFind {
    /** What a person types in the bar: words of the program's text, case aside. */
    static final String HINT = "program text (Enter: next)";
    private final FindBar<Point> bar;
    private StyledText pane;

    PaneFind(Composite parent) {
        bar = new FindBar<>(parent, HINT, this::matches, this::select, this::close);
    }

    /** Opens the bar over {@code pane}'s text, its field's text selected and searched anew. */
    void open(StyledText pane) {
        this.pane = pane;
        bar.open();
    }

    /** The ranges of the pane's text equal to {@code text} (case aside), in order; none for blank text. */
    private List<Point> matches(String text) {
        String q = text.strip().toLowerCase(Locale.ROOT);
        List<Point> found = new ArrayList<>();
        if (q.isEmpty() || pane == null || pane.isDisposed()) return found;
        String all = pane.getText().toLowerCase(Locale.ROOT);
        for (int at = all.indexOf(q); at >= 0; at = all.indexOf(q, at + q.length())) {
            found.add(new Point(at, q.length()));
        }
        return found;
    }

    /** Selects a match and scrolls it into view; one the pane no longer holds (the pass changed) is passed over. */
    private void select(Point m) {
        if (pane.isDisposed() || m.x + m.y > pane.getCharCount()) return;
        pane.setSelection(m.x, m.x + m.y);
        revealWhole(pane.getLineAtOffset(m.x));
    }

    /**
     * The pane's own scrolling stops once a line's top is in the client area, which takes in the horizontal scroll
     * bar: at 1280 x 800 the bar left three lines and the hit on the third was half under the bar (drive 17, finding
     * 9). A line not whole above the bar goes to the middle of the lines that are.
     */
    private void revealWhole(int line) {
        var bar = pane.getHorizontalBar();
        int below = bar != null && bar.isVisible() ? bar.getSize().y : 0;
        int bottom = pane.getClientArea().height - below;
        int top = pane.getLinePixel(line);
        if (top >= 0 && top + pane.getLineHeight() <= bottom) return;
        int rows = Math.max(1, bottom / pane.getLineHeight());
        pane.setTopIndex(Math.max(0, line - (rows - 1) / 2));
    }

    private void close() {
        bar.setShown(false);
        if (pane != null && !pane.isDisposed()) pane.setFocus();
    }

    /** The bar's field while the bar shows, else null. */
    Text field() { return bar.control.isVisible() ? bar.text : null; }

    /** What the bar says of its matches ("2 of 5", "not found"). */
    String count() { return bar.count.getText(); }

    /** The pane the bar searches, or null before it was first opened. */
    StyledText pane() { return pane; }
}
