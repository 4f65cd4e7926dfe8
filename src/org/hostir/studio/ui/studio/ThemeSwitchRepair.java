package org.hostir.studio.ui.studio;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.RGB;
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
 * Text that a theme switch without a restart left unreadable, made readable. Back from Dark to Light, the text of
 * trees, tables, labels and text fields in every view stayed white on the light backgrounds (issue 35: Project
 * Explorer, Properties, Timeline and Lowering white on white): the CSS engine gives a reset widget the toolkit's
 * default text colour, which GTK still takes from the dark theme. After each switch, once the new theme has
 * styled the widgets, every control whose text has a WCAG contrast under {@value #READABLE} with its background
 * gets black or white, whichever reads on it; a control that reads is left as the theme made it.
 * <p>
 * The dark theme's backgrounds stayed too on some widgets after the switch back to a light one (issue 35, driven by
 * hand: the graph palette's buttons dark with the Connect toggle white on light grey, the Dump view's program list
 * and the Lowering view's pass list dark): in a light shell, a control with a dark background gets its toolkit
 * default again, or its parent's background (white for lists) where that default is still dark.
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

    /** Backgrounds darker than {@code DARK} in a shell lighter than {@code LIGHT} are the dark theme's, left behind. */
    static final double DARK = 0.2, LIGHT = 0.5;

    static void repair(Display display) {
        if (display.isDisposed()) return;
        for (Shell shell : display.getShells()) repair(shell, isLight(shell));
    }

    private static boolean isLight(Control c) { return ThemeColors.luminance(c.getBackground().getRGB()) > LIGHT; }

    private static void repair(Control c, boolean lightShell) {
        if (c.isDisposed()) return;
        if (lightShell && c.getParent() != null && !(c instanceof Shell) && leftDark(c)) lighten(c);
        RGB fg = c.getForeground().getRGB(), bg = c.getBackground().getRGB();
        if (ThemeColors.contrast(fg, bg) < READABLE) {
            c.setForeground(c.getDisplay().getSystemColor(ThemeColors.blackReadsOn(bg) ? SWT.COLOR_BLACK
                    : SWT.COLOR_WHITE));
        }
        if (c instanceof Composite parent) {
            for (Control child : parent.getChildren()) repair(child, lightShell);
        }
    }

    /** Under a light shell, a dark background is the dark theme's left behind (its parent may be one as well). */
    private static boolean leftDark(Control c) { return ThemeColors.luminance(c.getBackground().getRGB()) < DARK; }

    /** The toolkit's default colours again; where the default is still dark, the parent's background. */
    private static void lighten(Control c) {
        c.setBackground(null);
        c.setForeground(null);
        if (ThemeColors.luminance(c.getBackground().getRGB()) >= DARK) return;
        boolean list = c instanceof Table || c instanceof Tree || c instanceof List || c instanceof Text;
        c.setBackground(list ? c.getDisplay().getSystemColor(SWT.COLOR_WHITE) : c.getParent().getBackground());
        c.setForeground(c.getDisplay().getSystemColor(SWT.COLOR_BLACK));
    }
}
