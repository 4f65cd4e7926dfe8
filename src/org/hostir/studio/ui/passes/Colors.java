package org.hostir.studio.ui.passes;

import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.PlatformUI;

/**
 * The views' colours come from the workbench theme's colour registry (colorDefinition extensions in plugin.xml),
 * so that a theme, the dark one included, can change them and the user can under General > Appearance >
 * Colors and Fonts. The fallback only matters outside a running workbench.
 */
public final class Colors {
    public static final String PREFIX = "org.hostir.studio.ui.";
    public static final String ADDED = PREFIX + "diff.added";
    public static final String REMOVED = PREFIX + "diff.removed";
    public static final String CHANGED = PREFIX + "diff.changed";
    public static final String ERROR_TEXT = PREFIX + "errorText";
    public static final String UNCHANGED_TEXT = PREFIX + "unchangedText";

    private Colors() {}

    public static Color get(String id, Display display, int fallback) {
        if (PlatformUI.isWorkbenchRunning()) {
            Color c = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry().get(id);
            if (c != null) return c;
        }
        return display.getSystemColor(fallback);
    }
}
