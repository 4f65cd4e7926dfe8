package org.hostir.studio.ui.editor;

import java.util.List;

import org.eclipse.jface.dialogs.DialogSettings;
import org.eclipse.jface.dialogs.IDialogSettings;
import org.eclipse.jface.text.contentassist.ContentAssistant;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;

/**
 * The size of the Source page's Ctrl+1 list, fitted to its proposals. JFace opens the list at ten rows whatever it
 * holds, unless a size is stored in the settings it restores from; one proposal then sat in a tall window that the
 * bottom of a 1280 x 800 screen cut (issue 35, round 18). The size is written there before each opening: the rows
 * (at most {@link #MOST_ROWS}, then it scrolls) and the widest proposal, within half the monitor.
 */
final class QuickAssistListSize {
    static final int MOST_ROWS = 10;
    /** Room for the proposal's icon and the table's cell margins beside the text. */
    private static final int ICON_AND_MARGINS = 48;
    private static final int LEAST_WIDTH = 260;

    private final IDialogSettings settings = new DialogSettings("quickAssistList");

    /** What the assistant restores its list's size from ({@code setRestoreCompletionProposalSize}). */
    IDialogSettings settings() { return settings; }

    /** Stores the size of a list of {@code labels} opened over {@code text}. */
    void fit(Control text, List<String> labels) {
        if (text == null || text.isDisposed()) return;
        // a row's height as GTK draws a table's rows in this font: measured on a table, not guessed from the font
        Table probe = new Table(text.getShell(), SWT.NONE);
        try {
            probe.setVisible(false);
            new TableItem(probe, SWT.NONE).setText("Ag");
            int rows = Math.max(1, Math.min(MOST_ROWS, labels.size()));
            int widest = 0;
            GC gc = new GC(probe);
            try {
                for (String l : labels) widest = Math.max(widest, gc.textExtent(l).x);
            } finally {
                gc.dispose();
            }
            Rectangle monitor = text.getMonitor().getClientArea();
            Rectangle trim = probe.computeTrim(0, 0, widest + ICON_AND_MARGINS, rows * probe.getItemHeight());
            settings.put(ContentAssistant.STORE_SIZE_X, Math.min(monitor.width / 2, Math.max(LEAST_WIDTH, trim.width)));
            settings.put(ContentAssistant.STORE_SIZE_Y, Math.min(monitor.height / 2, trim.height));
        } finally {
            probe.dispose();
        }
    }
}
