package org.hostir.studio.ui;

import org.eclipse.jface.util.IPropertyChangeListener;
import org.eclipse.swt.graphics.Color;
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
    private ThemeColors() {}

    /** The colour {@code id} of the current theme; the system colour {@code fallback} outside a workbench. */
    public static Color get(String id, int fallback) {
        if (PlatformUI.isWorkbenchRunning()) {
            Color c = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry().get(id);
            if (c != null) return c;
        }
        return Display.getCurrent().getSystemColor(fallback);
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
