package org.hostir.studio.ui.studio;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import org.eclipse.core.runtime.ILog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Display;

/**
 * The toolkit's system colours read again after a theme switch. The theme engine tells GTK to prefer its dark or
 * light variant, but SWT (3.135, GTK 3) reads its system colours only when the display starts or the desktop's theme
 * name changes: a Studio started in Dark kept Dark's list selection (a dark navy row in the Problems view and the
 * Lowering view's pass list after a switch to Light, issue 35) and Dark's widget background (the Preferences dialog
 * open at the switch stayed dark). SWT's own refresh is package-private; it is called by reflection, and where it
 * is missing (another SWT) nothing is refreshed, once said in the log.
 */
final class SystemColors {
    private static Method refresh;
    private static boolean unavailable;

    private SystemColors() {}

    /**
     * What a refresh found.
     *
     * @param read    whether the colours were read again
     * @param changed whether they changed (the widgets' default colours, baked in when set, are then stale)
     */
    record Refresh(boolean read, boolean changed) {}

    /** The system colours the widgets take as their defaults (a tree or table also bakes in its selection's). */
    private static final int[] DEFAULTS = { SWT.COLOR_WIDGET_BACKGROUND, SWT.COLOR_WIDGET_FOREGROUND,
        SWT.COLOR_LIST_BACKGROUND, SWT.COLOR_LIST_FOREGROUND, SWT.COLOR_LIST_SELECTION, SWT.COLOR_LIST_SELECTION_TEXT };

    /** Reads the system colours again. */
    static Refresh refresh(Display display) {
        List<RGB> before = defaults(display);
        Method m = method();
        if (m == null) return new Refresh(false, false);
        try {
            m.invoke(display);
        } catch (ReflectiveOperationException | RuntimeException e) {
            unavailable = true;
            refresh = null;
            ILog.of(SystemColors.class).warn("cannot read the system colours again after a theme switch: " + e);
            return new Refresh(false, false);
        }
        return new Refresh(true, !before.equals(defaults(display)));
    }

    private static List<RGB> defaults(Display display) {
        return Arrays.stream(DEFAULTS).mapToObj(c -> display.getSystemColor(c).getRGB()).toList();
    }

    private static Method method() {
        if (refresh != null || unavailable) return refresh;
        try {
            refresh = Display.class.getDeclaredMethod("initializeSystemColors");
            refresh.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            unavailable = true;
            ILog.of(SystemColors.class).info("SWT has no initializeSystemColors (" + e + "): system colours are not"
                    + " read again after a theme switch");
        }
        return refresh;
    }
}
