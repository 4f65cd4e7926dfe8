package org.hostir.studio.ui.passes;

import java.util.List;

import org.eclipse.jface.viewers.ArrayContentProvider;
import org.eclipse.jface.viewers.ColumnLabelProvider;
import org.eclipse.jface.viewers.ColumnViewerToolTipSupport;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.jface.viewers.TableViewerColumn;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.ui.passes.model.PassEntry;

/**
 * The pass list on the left of the lowering view: one row per pass of the selected rank, a dot before the passes
 * that changed the program and the others greyed, with each pass's time. It keeps the selected pass when it is
 * shown again and steps through the passes as a debugger does; which entries it lists is the view's choice.
 */
final class PassTable {
    private final TableViewer viewer;
    private final TableViewerColumn name;
    private final TableViewerColumn time;
    private final Runnable selectionChanged;

    PassTable(Composite parent, Runnable selectionChanged) {
        viewer = new TableViewer(parent, SWT.BORDER | SWT.SINGLE | SWT.FULL_SELECTION);
        viewer.getTable().setHeaderVisible(true);
        // the cells' tooltips: whether a pass changed the program, and its time's unit (the header may hide)
        ColumnViewerToolTipSupport.enableFor(viewer);
        viewer.setContentProvider(ArrayContentProvider.getInstance());
        name = new TableViewerColumn(viewer, SWT.NONE);
        name.getColumn().setText("Pass");
        name.getColumn().setWidth(190);
        name.setLabelProvider(new ColumnLabelProvider() {
            @Override
            public String getText(Object o) {
                PassTrace.Step s = ((PassEntry) o).step();
                return (s.changed() ? "\u25cf " : "    ") + s.pass();
            }

            @Override
            public Color getForeground(Object o) {
                return ((PassEntry) o).step().changed() ? null
                        : Colors.get(Colors.UNCHANGED_TEXT, viewer.getControl().getDisplay(), SWT.COLOR_DARK_GRAY);
            }

            @Override
            public String getToolTipText(Object o) {
                PassTrace.Step s = ((PassEntry) o).step();
                return s.pass() + (s.changed() ? ": changed the program" : ": no change");
            }
        });
        time = new TableViewerColumn(viewer, SWT.RIGHT);
        time.getColumn().setText("ms");
        time.getColumn().setToolTipText(PassTime.NOTE);
        time.getColumn().setWidth(50);
        time.setLabelProvider(new ColumnLabelProvider() {
            @Override
            public String getText(Object o) { return PassTime.shown(((PassEntry) o).step().nanos()); }

            @Override
            public String getToolTipText(Object o) {
                PassTrace.Step s = ((PassEntry) o).step();
                return s.pass() + " took " + s.nanos() / 1000 + " \u00b5s. " + PassTime.NOTE;
            }
        });
        this.selectionChanged = selectionChanged;
        viewer.addSelectionChangedListener(e -> { if (!quiet) selectionChanged.run(); });
        viewer.getTable().addListener(SWT.Resize, e -> {
            fitHeader();
            fitColumns();
        });
    }

    /**
     * The header ("Pass", "\u00b5s") only where every pass fits below it: at 1280 x 800 the list is one row short
     * of it (issue 35: the last pass was hidden); the time's unit is in each time cell's tooltip too.
     */
    private void fitHeader() {
        var t = viewer.getTable();
        if (t.getHeaderVisible() && t.getHeaderHeight() > 0) headerHeight = t.getHeaderHeight();
        int header = headerHeight > 0 ? headerHeight : t.getItemHeight();   // hidden, it measures 0
        int rows = t.getItemCount() * t.getItemHeight();
        int height = t.getSize().y - t.computeTrim(0, 0, 0, 0).height;
        boolean show = rows + header <= height || rows > height;
        if (show != t.getHeaderVisible()) t.setHeaderVisible(show);
    }

    private int headerHeight;

    /**
     * Column widths: the time column as wide as the widest figure {@link PassTime} writes below ten seconds, whatever
     * this lowering measured (a cold start's six-digit \u00b5s widened the list by 8 px and cut the AFTER pane below a
     * third of the view at 1280 x 800, drive 17), or its widest figure where one is wider; the name column its longest
     * name and whatever width of the list is left.
     */
    private void fitColumns() {
        var t = viewer.getTable();
        time.getColumn().pack();
        var gc = new org.eclipse.swt.graphics.GC(t);
        int widest = gc.textExtent(PassTime.WIDEST).x + 2 * CELL_PAD;
        gc.dispose();
        // pack() holds the cell's padding already; two pixels more of air
        timeWidth = Math.max(time.getColumn().getWidth() + 2, widest);
        time.getColumn().setWidth(timeWidth);
        name.getColumn().pack();
        nameWidth = Math.max(name.getColumn().getWidth() + 2, MIN_NAME_WIDTH);
        name.getColumn().setWidth(Math.max(nameWidth, t.getClientArea().width - timeWidth));
    }

    /** A cell's padding on each side of its text, as GTK draws it, and a pixel of air. */
    private static final int CELL_PAD = 6;

    /** The name column's width before any pass is listed. */
    private static final int MIN_NAME_WIDTH = 120;
    private int nameWidth = 190, timeWidth = 50;

    Control control() { return viewer.getControl(); }

    /** The width the list needs to show its columns whole (names and times), in pixels. */
    int preferredWidth() {
        var t = viewer.getTable();
        // the scroll bar only where it shows: all the passes fit the list's height in the default layout
        int bar = t.getVerticalBar().isVisible() ? t.getVerticalBar().getSize().x : 0;
        return nameWidth + timeWidth + t.getBorderWidth() * 2 + bar + 4;
    }

    PassEntry selected() {
        return viewer.getStructuredSelection().getFirstElement() instanceof PassEntry e ? e : null;
    }

    /** Selects {@code entry} (nothing when null) and scrolls to it. */
    void select(PassEntry entry) {
        viewer.setSelection(entry == null ? StructuredSelection.EMPTY : new StructuredSelection(entry), true);
    }

    /**
     * Lists {@code entries} and selects the pass selected before, else the first that changed the program, else
     * the first; returns the selected entry, null when the list is empty.
     */
    PassEntry show(List<PassEntry> entries) {
        String keep = selected() == null ? null : selected().step().pass();
        // the new input drops the selection before the kept pass is selected again: told of that, the view showed
        // no pass, and while the compare viewer diffed the new pass (it runs the event loop) the description and the
        // panes' titles were blank and the view jumped a line (drive 17, finding 7); it hears of the result only
        quiet = true;
        try {
            viewer.setInput(entries);
            fitHeader();
            fitColumns();   // as wide as the longest pass name and the longest time, so that none is cut
            PassEntry again = entries.stream().filter(e -> e.step().pass().equals(keep)).findFirst()
                    .orElse(entries.isEmpty() ? null : entries.stream().filter(e -> e.step().changed()).findFirst()
                            .orElse(entries.get(0)));
            select(again);
            return again;
        } finally {
            quiet = false;
            selectionChanged.run();
        }
    }

    /** Set while {@link #show} lists and selects, so that the view hears of its selection once, at the end. */
    private boolean quiet;

    /** Selects the last of {@code entries} unless it is selected already. */
    void selectLast(List<PassEntry> entries) {
        if (!entries.isEmpty() && !(entries.get(entries.size() - 1).equals(selected()))) {
            select(entries.get(entries.size() - 1));
        }
    }

    /** Selects the next (+1) or previous (-1) of {@code entries}, as a debugger steps; stays put at either end. */
    void step(List<PassEntry> entries, int direction) {
        if (entries.isEmpty()) return;
        int at = entries.indexOf(selected());
        int next = at < 0 ? 0 : Math.max(0, Math.min(entries.size() - 1, at + direction));
        select(entries.get(next));
    }
}
