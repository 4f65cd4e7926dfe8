package org.hostir.studio.ui;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Combo;

/**
 * Keeps a combo's tooltip off its own open list. GTK shows a combo's tooltip again while its drop-down list is open
 * (the pointer rests on the combo), and the tooltip window, stacked above the list, covered the items a person was
 * choosing from (issue 35, seen at 1600 x 1000 on the Lowering view's Backend). So while the list is open the combo
 * has no tooltip, and gets it back when the list closes.
 */
public final class ComboTips {
    /** How often an open list is looked at, and how long a key or click may take to open it. */
    static final int POLL_MS = 100;
    static final int OPENING_MS = 600;

    private final Combo combo;
    private String tip;
    private boolean polling;

    private ComboTips(Combo combo) { this.combo = combo; }

    /** Guards {@code combo}, which has (or will get) its tooltip through {@link Combo#setToolTipText}. */
    public static void keepOffList(Combo combo) {
        ComboTips guard = new ComboTips(combo);
        // a press opens the list (GTK reports it with the list already open), a key may (Alt+Down, Space)
        combo.addListener(SWT.MouseDown, e -> guard.watch());
        combo.addListener(SWT.KeyDown, e -> guard.watch());
    }

    private void watch() {
        if (polling) return;
        polling = true;
        poll(OPENING_MS / POLL_MS);
    }

    /** While the list is open, no tooltip; once it is closed (or did not open), the tooltip back. */
    private void poll(int waitsLeft) {
        if (combo.isDisposed()) return;
        if (combo.getListVisible()) {
            if (tip == null && combo.getToolTipText() != null) {
                tip = combo.getToolTipText();
                combo.setToolTipText(null);
            }
            combo.getDisplay().timerExec(POLL_MS, () -> poll(0));
            return;
        }
        if (waitsLeft > 0) {
            combo.getDisplay().timerExec(POLL_MS, () -> poll(waitsLeft - 1));
            return;
        }
        if (tip != null) combo.setToolTipText(tip);
        tip = null;
        polling = false;
    }
}
