package org.hostir.studio.ui.editor;

import java.util.List;

import org.eclipse.jface.dialogs.DialogSettings;
import org.eclipse.jface.dialogs.IDialogSettings;
import org.eclipse.jface.text.contentassist.ContentAssistEvent;
import org.eclipse.jface.text.contentassist.ContentAssistant;
import org.eclipse.jface.text.contentassist.ICompletionListener;
import org.eclipse.jface.text.contentassist.ICompletionProposal;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;

/**
 * The size of the Source page's Ctrl+1 list, fitted to its proposals. JFace opens the list at ten rows whatever it
 * holds, unless a size is stored in the settings it restores from; one proposal then sat in a tall window that the
 * bottom of a 1280 x 800 screen cut (issue 35, round 18). The size is written there before each opening: the rows
 * (at most {@link #MOST_ROWS}, then it scrolls) and the widest proposal, within half the monitor. JFace restores no
 * height under 50 px (ContentAssistant's "absolute minimal size"), which is two rows of 23 px: one proposal showed an
 * empty row below it (round 19). So the list's window, once made and before it shows (its first selection), is given
 * the fitted size itself: its rows, the table's trim and the window's border.
 */
final class QuickAssistListSize implements ICompletionListener {
    static final int MOST_ROWS = 10;
    /** Room for the proposal's icon and the table's cell margins beside the text. */
    private static final int ICON_AND_MARGINS = 48;
    private static final int LEAST_WIDTH = 260;

    private final IDialogSettings settings = new DialogSettings("quickAssistList");
    /** The text the list opens over, its row count and the table's size for them (trim included), until it is made. */
    private StyledText text;
    private int rows;
    private Point table;

    /** What the assistant restores its list's size from ({@code setRestoreCompletionProposalSize}). */
    IDialogSettings settings() { return settings; }

    /** Stores the size of a list of {@code labels} opened over {@code text}. */
    void fit(Control text, List<String> labels) {
        this.table = null;
        if (text == null || text.isDisposed()) return;
        // a row's height as GTK draws a table's rows in this font: measured on a table, not guessed from the font
        Table probe = new Table(text.getShell(), SWT.NONE);
        try {
            probe.setVisible(false);
            new TableItem(probe, SWT.NONE).setText("Ag");
            int shown = Math.max(1, Math.min(MOST_ROWS, labels.size()));
            int widest = 0;
            GC gc = new GC(probe);
            try {
                for (String l : labels) widest = Math.max(widest, gc.textExtent(l).x);
            } finally {
                gc.dispose();
            }
            Rectangle monitor = text.getMonitor().getClientArea();
            Rectangle trim = probe.computeTrim(0, 0, widest + ICON_AND_MARGINS, shown * probe.getItemHeight());
            Point size = new Point(Math.min(monitor.width / 2, Math.max(LEAST_WIDTH, trim.width)),
                    Math.min(monitor.height / 2, trim.height));
            settings.put(ContentAssistant.STORE_SIZE_X, size.x);
            settings.put(ContentAssistant.STORE_SIZE_Y, size.y);
            this.text = text instanceof StyledText st ? st : null;
            this.rows = labels.size();
            this.table = size;
        } finally {
            probe.dispose();
        }
    }

    @Override
    public void assistSessionStarted(ContentAssistEvent event) {}

    @Override
    public void assistSessionEnded(ContentAssistEvent event) { table = null; }

    /** The list's first selection: its window is made and placed, not yet shown. It gets the fitted size. */
    @Override
    public void selectionChanged(ICompletionProposal proposal, boolean smartToggle) {
        Point fitted = table;
        table = null;
        Shell list = fitted == null || text == null || text.isDisposed() ? null : list();
        if (list == null) return;
        Rectangle was = list.getBounds();
        Rectangle outer = list.computeTrim(0, 0, fitted.x, fitted.y);
        int height = outer.height;
        // placed above the caret's line (no room below), it keeps its bottom edge there
        Point caret = text.toDisplay(text.getLocationAtOffset(text.getCaretOffset()));
        int y = was.y < caret.y ? was.y + was.height - height : was.y;
        list.setBounds(was.x, y, outer.width, height);
    }

    /** The list's window: JFace's shell over the text's, holding one table of this list's rows. */
    private Shell list() {
        Shell found = null;
        for (Shell s : text.getShell().getShells()) {
            if (!s.isDisposed() && (s.getStyle() & SWT.ON_TOP) != 0 && s.getChildren().length == 1
                    && s.getChildren()[0] instanceof Table t && t.getItemCount() == rows) found = s;
        }
        return found;
    }
}
