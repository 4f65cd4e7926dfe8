package org.hostir.studio.ui.studio;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.ThemeColors;

/**
 * Text that a theme switch without a restart left unreadable, made readable. Back from Dark to Light, the text of
 * trees, tables, labels and text fields in every view stayed white on the light backgrounds (issue 35: Project
 * Explorer, Properties, Timeline and Lowering white on white): the CSS engine gives a reset widget the toolkit's
 * default text colour, which GTK still takes from the dark theme. After each switch, once the new theme has
 * styled the widgets, every control whose text has a WCAG contrast under {@value #READABLE} with its background
 * gets black or white, whichever reads on it; a control that reads is left as the theme made it.
 */
final class ThemeSwitchRepair {
    static final double READABLE = 3;

    private ThemeSwitchRepair() {}

    /** Repairs after every theme or theme colour change from now on. */
    static void install(Display display) {
        PlatformUI.getWorkbench().getThemeManager().addPropertyChangeListener(e -> {
            if (display.isDisposed()) return;
            // after the asyncExecs of the switch itself, and once more when the styling has settled
            display.asyncExec(() -> repair(display));
            display.timerExec(400, () -> repair(display));
        });
    }

    static void repair(Display display) {
        if (display.isDisposed()) return;
        for (Shell shell : display.getShells()) repair(shell);
    }

    private static void repair(Control c) {
        if (c.isDisposed()) return;
        RGB fg = c.getForeground().getRGB(), bg = c.getBackground().getRGB();
        if (ThemeColors.contrast(fg, bg) < READABLE) {
            c.setForeground(c.getDisplay().getSystemColor(ThemeColors.blackReadsOn(bg) ? SWT.COLOR_BLACK
                    : SWT.COLOR_WHITE));
        }
        if (c instanceof Composite parent) {
            for (Control child : parent.getChildren()) repair(child);
        }
    }
}
