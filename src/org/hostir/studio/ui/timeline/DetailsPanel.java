package org.hostir.studio.ui.timeline;

import java.util.function.Supplier;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Link;

import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.timeline.model.BreakdownTable;
import org.hostir.studio.ui.timeline.model.EventDetails;

/**
 * The selected bar's details beside the summary, as Perfetto's and Nsight Systems' details panels show them:
 * node, rank, stream, iteration, bytes, flops, times on the ruler's origin, and a link to its Host IR node. Under
 * a bar with a breakdown (issue 39), a table: an MoE exchange's rank x rank bytes, a grouped_mm's rows per expert,
 * the hot cell shaded.
 */
final class DetailsPanel {
    /** The hot cell's shade: a light orange with dark text, readable in the light and the dark theme alike. */
    private static final RGB HOT = new RGB(255, 196, 120), HOT_TEXT = new RGB(0, 0, 0);

    private final Composite root;
    private final StyledText text;
    private final Table table;
    private final Label note;
    private final Link node;
    private final Supplier<Timeline> timeline;
    private TimelineEvent shown;
    private BreakdownTable breakdown;

    /** {@code reveal} shows the event's Host IR node in the Lowering view; {@code timeline} is the one shown. */
    DetailsPanel(Composite parent, java.util.function.Consumer<TimelineEvent> reveal, Supplier<Timeline> timeline) {
        this.timeline = timeline;
        root = new Composite(parent, SWT.NONE);
        GridLayout layout = new GridLayout(1, false);
        layout.marginWidth = layout.marginHeight = 2;
        root.setLayout(layout);
        // a StyledText, which wraps at its own width, as the summary beside it: GTK's wrapped Text keeps the widest
        // width it was ever given (the view's whole width while maximized) and wrapped past the pane's edge after
        text = new StyledText(root, SWT.MULTI | SWT.READ_ONLY | SWT.V_SCROLL | SWT.WRAP);
        text.setMargins(3, 2, 3, 2);
        text.setScrollbarsMode(SWT.NONE);   // a scrollbar a person sees, as the summary's, where the pane is short
        text.setFont(JFaceResources.getTextFont());
        text.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        table = new Table(root, SWT.BORDER | SWT.FULL_SELECTION | SWT.H_SCROLL | SWT.V_SCROLL);
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        table.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        note = new Label(root, SWT.WRAP);
        note.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        node = new Link(root, SWT.NONE);
        node.setLayoutData(new GridData(SWT.FILL, SWT.BOTTOM, true, false));
        node.addListener(SWT.Selection, e -> { if (shown != null) reveal.accept(shown); });
        show(null, 0);
    }

    Composite control() { return root; }

    /** Shows {@code e} (or a hint when null), its start counted from {@code originNs}. */
    void show(TimelineEvent e, long originNs) {
        shown = e;
        text.setText(e == null ? runLine + "Click a bar to see its details here; Shift+drag a range for its figures."
                : EventDetails.of(e, originNs));
        Timeline t = timeline.get();
        showTable(e == null || t == null ? null : BreakdownTable.of(t, e).orElse(null));
        // short enough for the panel at 1280 px (the long form was cut off on the right); the tooltip says it all
        node.setText(e == null || e.nodeId() < 0 ? "" : "<a>Node " + e.nodeId() + " of rank " + e.rank()
                + " in Lowering</a>");
        node.setToolTipText(e == null || e.nodeId() < 0 ? null : "Show Host IR node " + e.nodeId() + " of rank "
                + e.rank() + " in the Lowering view");
        root.layout(true);
    }

    /**
     * The run's line (the view's description) whole above the hint while no bar is selected: the description is one
     * line, cut at the right at 1600 px where a run lists every option (issue 35); this text wraps.
     */
    void runLine(String line) { runLine = line == null || line.isEmpty() ? "" : line + "\n\n"; }

    private String runLine = "";

    /** Shows a text of its own (a range's figures), without a node link. */
    void showText(String figures) {
        shown = null;
        text.setText(figures);
        showTable(null);
        node.setText("");
        root.layout(true);
    }

    String text() { return text.getText(); }

    /** Lines of the longest details: name, rank, start, bytes, flops, peer, iteration, node (EventDetails). */
    private static final int MOST_LINES = 8;

    /**
     * The height that shows any bar's details and the node link without scrolling (issue 35: under 64 ranks' rows
     * the panel was 4 lines high, GTK's overlay scrollbar hiding that there was more); one line more for a long
     * line wrapped. The breakdown table, when shown, has its own height.
     */
    int wholeHeight() {
        int lines = Math.max(MOST_LINES, text.getText().split("\\R", -1).length) + 1;
        GridLayout layout = (GridLayout) root.getLayout();
        int link = Math.max(node.computeSize(SWT.DEFAULT, SWT.DEFAULT).y, text.getLineHeight());
        return lines * text.getLineHeight() + text.computeTrim(0, 0, 0, 0).height + layout.verticalSpacing + link
                + 2 * layout.marginHeight;
    }

    /** The breakdown table shown, or null. */
    BreakdownTable breakdown() { return breakdown; }

    Table table() { return table; }

    /** Fills the table (hidden when there is none): a column per header, the hot cell shaded. */
    private void showTable(BreakdownTable b) {
        breakdown = b;
        table.setRedraw(false);
        try {
            table.removeAll();
            for (TableColumn c : table.getColumns()) c.dispose();
            boolean visible = b != null;
            table.setVisible(visible);
            ((GridData) table.getLayoutData()).exclude = !visible;
            note.setVisible(visible);
            ((GridData) note.getLayoutData()).exclude = !visible;
            if (!visible) return;
            table.setToolTipText(b.title());
            for (String h : b.columns()) new TableColumn(table, SWT.RIGHT).setText(h);
            Color hot = new Color(table.getDisplay(), HOT), hotText = new Color(table.getDisplay(), HOT_TEXT);
            for (int r = 0; r < b.rows().size(); r++) {
                TableItem item = new TableItem(table, SWT.NONE);
                item.setText(b.rows().get(r).toArray(String[]::new));
                int row = r;
                b.hot().filter(c -> c[0] == row).ifPresent(c -> {
                    item.setBackground(c[1], hot);
                    item.setForeground(c[1], hotText);
                });
            }
            for (TableColumn c : table.getColumns()) c.pack();
            // every row in view (the received totals too), the text above taking what is left
            ((GridData) table.getLayoutData()).heightHint = table.getHeaderHeight()
                    + table.getItemHeight() * b.rows().size() + 2 * table.getBorderWidth();
            note.setText(b.title() + ". " + b.note());
        } finally {
            table.setRedraw(true);
        }
    }
}
