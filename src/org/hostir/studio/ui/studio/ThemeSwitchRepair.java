package org.hostir.studio.ui.studio;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Color;
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
 * <p>
 * Each repair first reads the toolkit's system colours again ({@link SystemColors}): from a Dark start, after Light,
 * the list selection (baked into each tree and table when its background is set) stayed dark navy and a dialog open
 * at the switch (Preferences) stayed dark; such a shell is lightened as a control is. A text pane's selection left
 * dark by the dark theme's editor preferences (the nvFuser Dump view's compare panes) gets the list selection.
 */
final class ThemeSwitchRepair {
    static final double READABLE = 3;

    private ThemeSwitchRepair() {}

    /**
     * Repairs after every theme or theme colour change from now on: right after the switch's own asyncExecs, and once
     * more when the styling has settled. Two walks over the widgets, kept on purpose: one walk
     * {@value #SETTLE_MS} ms after a switch's last change event (tried in round 16) left the Preferences dialog
     * behind the restart question dark under Light for those 400 ms (RestartQuestionTest), and the Project
     * Explorer's selected row Dark's navy after RestartQuestionTest's switches (ThemeBothWaysTest); the second walk
     * redoes what the styling undid of the first. Only a walk whose reading of the system colours finds them changed
     * sets every widget's colours again ({@link #rebake}); the colours change once per switch, so one walk does.
     */
    static void install(Display display) {
        TabbedTitleColours.install(display);
        PlatformUI.getWorkbench().getThemeManager().addPropertyChangeListener(e -> {
            if (display.isDisposed()) return;
            display.asyncExec(() -> repair(display));
            display.timerExec(SETTLE_MS, () -> repair(display));
        });
    }

    /** When the second repair runs: the theme's styling has settled by then. */
    static final int SETTLE_MS = 400;

    /** Backgrounds darker than {@code DARK} in a shell lighter than {@code LIGHT} are the dark theme's, left behind. */
    static final double DARK = 0.2, LIGHT = 0.5;

    static void repair(Display display) {
        if (display.isDisposed()) return;
        SystemColors.Refresh colours = SystemColors.refresh(display);
        // the toolkit's colours just read follow the theme the engine set (the colour registry changes later)
        boolean lightTheme = colours.read()
                && ThemeColors.luminance(display.getSystemColor(SWT.COLOR_WIDGET_BACKGROUND).getRGB()) > LIGHT;
        for (Shell shell : display.getShells()) {
            // a dialog made under Dark and open at the switch to Light keeps Dark's background otherwise
            if (lightTheme && leftDark(shell)) lighten(shell);
            repair(shell, isLight(shell), colours.changed());
        }
    }

    private static boolean isLight(Control c) { return ThemeColors.luminance(c.getBackground().getRGB()) > LIGHT; }

    private static void repair(Control c, boolean lightShell, boolean coloursChanged) {
        if (c.isDisposed()) return;
        if (coloursChanged) rebake(c);
        if (lightShell && c.getParent() != null && !(c instanceof Shell) && leftDark(c)) lighten(c);
        if (lightShell && c instanceof StyledText t) lightSelection(t);
        if (TabbedListColours.isList(c)) TabbedListColours.repair(c);
        RGB fg = c.getForeground().getRGB(), bg = c.getBackground().getRGB();
        if (ThemeColors.contrast(fg, bg) < READABLE) {
            c.setForeground(readableOn(c.getDisplay(), bg));
            c.setData(FORCED, Boolean.TRUE);
        }
        if (c instanceof Composite parent) {
            for (Control child : parent.getChildren()) repair(child, lightShell, coloursChanged);
        }
    }

    /**
     * The toolkit's text colour where it reads on {@code bg} (a view's other widgets keep it: one text colour in a
     * view), else black or white.
     */
    private static Color readableOn(Display d, RGB bg) {
        Color text = d.getSystemColor(SWT.COLOR_WIDGET_FOREGROUND);
        if (ThemeColors.contrast(text.getRGB(), bg) >= READABLE) return text;
        return d.getSystemColor(ThemeColors.blackReadsOn(bg) ? SWT.COLOR_BLACK : SWT.COLOR_WHITE);
    }

    /** Under a light shell, a dark background is the dark theme's left behind (its parent may be one as well). */
    private static boolean leftDark(Control c) { return ThemeColors.luminance(c.getBackground().getRGB()) < DARK; }

    /**
     * A control's colours set again, so that the toolkit's colours just read take effect: a widget bakes the system
     * colours in when its colours are set (a reset by the theme's CSS gives it the defaults as they were: white text
     * on white after Dark to Light), a tree or table its selection's with its background. An explicit colour stays,
     * a default stays the default. SWT skips a colour equal to the present one, hence the step through another.
     */
    private static void rebake(Control c) {
        // a text colour this repair forced (on the stale defaults) goes back to the default, which may read now:
        // else a view shows both (the labels forced black, the combos the default #2e3436 after Dark -> Light)
        boolean forced = c.getData(FORCED) != null;
        c.setData(FORCED, null);
        Color fg = forced ? null : c.getForeground(), bg = c.getBackground();
        Display d = c.getDisplay();
        RGB now = c.getForeground().getRGB();
        c.setForeground(d.getSystemColor(now.equals(BLACK) ? SWT.COLOR_WHITE : SWT.COLOR_BLACK));
        c.setForeground(null);
        if (fg != null && !c.getForeground().getRGB().equals(fg.getRGB())) c.setForeground(fg);
        c.setBackground(d.getSystemColor(bg.getRGB().equals(BLACK) ? SWT.COLOR_WHITE : SWT.COLOR_BLACK));
        c.setBackground(null);
        if (!c.getBackground().getRGB().equals(bg.getRGB())) c.setBackground(bg);
    }

    private static final RGB BLACK = new RGB(0, 0, 0);
    /** Widget data: the text colour was set by this repair for contrast (not by the theme or the view). */
    private static final String FORCED = "org.hostir.studio.themeRepair.forcedForeground";

    /** A text pane's selection that is dark in a light shell (the dark theme's editor preference) gets the list's. */
    private static void lightSelection(StyledText t) {
        if (ThemeColors.luminance(t.getSelectionBackground().getRGB()) >= DARK) return;
        t.setSelectionBackground(t.getDisplay().getSystemColor(SWT.COLOR_LIST_SELECTION));
        t.setSelectionForeground(t.getDisplay().getSystemColor(SWT.COLOR_LIST_SELECTION_TEXT));
    }

    /** The toolkit's default colours again; where the default is still dark, the parent's background. */
    private static void lighten(Control c) {
        c.setBackground(null);
        c.setForeground(null);
        if (ThemeColors.luminance(c.getBackground().getRGB()) >= DARK) return;
        boolean list = c instanceof Table || c instanceof Tree || c instanceof List || c instanceof Text;
        Color light = list || c.getParent() == null ? c.getDisplay().getSystemColor(list ? SWT.COLOR_WHITE
                : SWT.COLOR_WIDGET_BACKGROUND) : c.getParent().getBackground();
        c.setBackground(light);
        c.setForeground(readableOn(c.getDisplay(), light.getRGB()));
        c.setData(FORCED, Boolean.TRUE);
    }
}
