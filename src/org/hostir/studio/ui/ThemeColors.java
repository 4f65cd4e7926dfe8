package org.hostir.studio.ui;

import org.eclipse.jface.util.IPropertyChangeListener;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.PlatformUI;

/**
 * The Studio's colours, each declared once as a colorDefinition in plugin.xml (its light value, which the user
 * may change under General > Appearance > Colors and Fonts) and given its dark value in css/dark.css; the
 * workbench theme's colour registry holds the value of the theme in force. A view that sets colours on its
 * widgets follows a theme switch with {@link #follow}: the registry changes after the theme's CSS has styled the
 * widgets, so colours set then are the ones shown.
 */
public final class ThemeColors {
    /** Text panes (the Lowering view's compare panes, the Source page): their text and background. */
    public static final String TEXT = "org.hostir.studio.ui.text", TEXT_BACKGROUND = "org.hostir.studio.ui.textBackground";

    /** The Source page's line numbers (on {@link #TEXT_BACKGROUND}). */
    public static final String LINE_NUMBER = "org.hostir.studio.ui.lineNumber";

    private ThemeColors() {}

    /** The colour {@code id} of the current theme; the system colour {@code fallback} outside a workbench. */
    public static Color get(String id, int fallback) {
        if (PlatformUI.isWorkbenchRunning()) {
            Color c = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry().get(id);
            if (c != null) return c;
        }
        return Display.getCurrent().getSystemColor(fallback);
    }

    /** WCAG relative luminance, 0 (black) to 1 (white). */
    public static double luminance(RGB c) {
        return 0.2126 * linear(c.red) + 0.7152 * linear(c.green) + 0.0722 * linear(c.blue);
    }

    private static double linear(int v) {
        double s = v / 255.0;
        return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    }

    /** WCAG contrast ratio of two colours, 1 to 21. */
    public static double contrast(RGB a, RGB b) {
        double la = luminance(a), lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    /** Whether black text reads better on {@code background} than white. */
    public static boolean blackReadsOn(RGB background) {
        return contrast(new RGB(0, 0, 0), background) >= contrast(new RGB(255, 255, 255), background);
    }

    /**
     * Runs {@code apply} now, once the new widgets have been styled by the theme's CSS (after this event), and
     * after every theme or colour change, for as long as {@code owner} lives.
     */
    public static void follow(Control owner, Runnable apply) {
        Runnable guarded = () -> { if (!owner.isDisposed()) apply.run(); };
        apply.run();
        owner.getDisplay().asyncExec(guarded);
        if (!PlatformUI.isWorkbenchRunning()) return;
        var themes = PlatformUI.getWorkbench().getThemeManager();
        IPropertyChangeListener listener = e -> {
            if (!owner.isDisposed()) owner.getDisplay().asyncExec(guarded);
        };
        themes.addPropertyChangeListener(listener);
        owner.addListener(org.eclipse.swt.SWT.Dispose, e -> themes.removePropertyChangeListener(listener));
    }
}
