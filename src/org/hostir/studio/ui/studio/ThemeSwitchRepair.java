package org.hostir.studio.ui.studio;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.List;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.ThemeColors;

/**
 * What a switch back to a light theme leaves of the dark one, taken away. From a Studio started in Dark (after a
 * restart in Dark), Light without a restart left the dark theme's backgrounds on widgets the CSS engine resets, with
 * GTK's default colours of the dark theme (issue 35: the graph palette's buttons dark with the Connect toggle white on
 * light grey, the Lowering view's pass list dark; the Properties, Project Explorer, Outline and Timeline text white
 * on white). After each switch, once the new theme has styled the widgets, a control with a dark background in a
 * light shell gets its toolkit default colours again, or its parent's background (white for lists) where that
 * default is still dark. ThemeBothWaysTest's Dark start fails without it; a repair of text contrast alone, kept here
 * before, was not needed once this runs (the same test passed without it) and was removed.
 */
final class ThemeSwitchRepair {
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

    /** Backgrounds darker than {@code DARK} in a shell lighter than {@code LIGHT} are the dark theme's, left behind. */
    static final double DARK = 0.2, LIGHT = 0.5;

    static void repair(Display display) {
        if (display.isDisposed()) return;
        for (Shell shell : display.getShells()) {
            if (!shell.isDisposed() && luminance(shell) > LIGHT) repair(shell);
        }
    }

    private static double luminance(Control c) { return ThemeColors.luminance(c.getBackground().getRGB()); }

    private static void repair(Control c) {
        if (c.isDisposed()) return;
        if (c.getParent() != null && !(c instanceof Shell) && luminance(c) < DARK) lighten(c);
        if (c instanceof Composite parent) {
            for (Control child : parent.getChildren()) repair(child);
        }
    }

    /** The toolkit's default colours again; where the default is still dark, the parent's background. */
    private static void lighten(Control c) {
        c.setBackground(null);
        c.setForeground(null);
        if (luminance(c) >= DARK) return;
        boolean list = c instanceof Table || c instanceof Tree || c instanceof List || c instanceof Text;
        c.setBackground(list ? c.getDisplay().getSystemColor(SWT.COLOR_WHITE) : c.getParent().getBackground());
        c.setForeground(c.getDisplay().getSystemColor(SWT.COLOR_BLACK));
    }
}
