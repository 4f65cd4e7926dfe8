package org.hostir.studio.ui.studio;

import java.lang.reflect.Method;

import org.eclipse.swt.widgets.Control;

/**
 * The Properties view's tab list (Eclipse's tabbed property sheet, shown for a file selected in the Project Explorer)
 * made readable after a theme switch. Each tab paints its name in a copy of the list's colour, which a switch does
 * not replace: after Light -> Dark without a restart the "Resource" tab read #505050 on #2b2c2d, 1.7 to 1 (issue 35,
 * round 16, driven by hand). The classes are internal to Eclipse: the tabs' public reset is called by reflection;
 * where it is missing, nothing is done.
 */
final class TabbedListColours {
    private static final String LIST = "org.eclipse.ui.internal.views.properties.tabbed.view.TabbedPropertyList";

    private TabbedListColours() {}

    /** Whether {@code c} is the tab list. */
    static boolean isList(Control c) { return c.getClass().getName().equals(LIST); }

    /**
     * Each tab takes the list's text colour again. The stylesheet sets the list's colour on a switch, but each tab
     * copied it when it was made and keeps that copy: Light's #505050 stayed on Dark's #2b2c2d. A tab made after the
     * switch takes the list's, as this one now does.
     */
    static void repair(Control list) {
        try {
            for (Control tab : ((org.eclipse.swt.widgets.Composite) list).getChildren()) {
                if (!tab.getClass().getName().endsWith("$ListElement")) continue;
                Method reset = tab.getClass().getMethod("setDefaultTextColor");
                reset.setAccessible(true);   // a public method of a private class
                reset.invoke(tab);
                tab.redraw();
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // another Eclipse: its list is left as it paints itself
        }
    }
}
