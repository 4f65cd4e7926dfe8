package org.hostir.studio.ui;

import java.util.Arrays;
import java.util.List;

import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;

/**
 * A combo's help goes on its label, not on the combo. GTK shows a combo's tooltip again while its drop-down list is
 * open under the resting pointer, stacked above the list: at 1600 x 1000 the Lowering view's Backend tooltip hid
 * both items a person was choosing from (issue 35). Clearing the tooltip while the list is open did not take the
 * shown tooltip window down (the list holds the pointer, so GTK never looks again), so the combo has none.
 */
public final class ComboTips {
    private ComboTips() {}

    /** Puts {@code tip} on the label just before {@code combo} in its row, and none on the combo. */
    public static void onLabel(Combo combo, String tip) {
        combo.setToolTipText(null);
        List<Control> row = Arrays.asList(combo.getParent().getChildren());
        int at = row.indexOf(combo);
        if (at > 0 && row.get(at - 1) instanceof Label label) label.setToolTipText(tip);
    }
}
