package org.hostir.studio.ui.studio;

import java.lang.reflect.Field;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.ui.ThemeColors;

/**
 * The Properties view's tabbed-sheet title (a file's name in bold above the tabs, for a file selected in the Project
 * Explorer) made readable. Eclipse's title gives its label the Forms title colour once, when it is made, and paints
 * the theme's gradient behind it on every paint: under Dark it read #aaaaaa on #505f70, 2.9 to 1, at a Dark start
 * and after Light -> Dark (issue 35, round 16, driven by hand). The stylesheet cannot reach it: the title takes no
 * text colour property, and a rule for its label did not take. So each time the label is painted, a text colour
 * that does not read on the gradient (both its ends) is replaced by the toolkit's text colour, or black or white;
 * one that reads is left as Eclipse made it (Light keeps its own).
 */
final class TabbedTitleColours {
    private static final String TITLE = "org.eclipse.ui.internal.views.properties.tabbed.view.TabbedPropertyTitle";
    /** Bold 11 pt is not large text: the normal text ratio. */
    static final double READABLE = 4.5;

    private TabbedTitleColours() {}

    /** From now on, every title label is checked as it is painted (before it draws its text). */
    static void install(Display display) {
        display.addFilter(SWT.Paint, e -> {
            if (e.widget instanceof CLabel label && !label.isDisposed()) repair(label);
        });
    }

    static void repair(CLabel label) {
        Composite title = label.getParent();
        if (title == null || !title.getClass().getName().equals(TITLE)) return;
        List<RGB> behind = gradient(title, label);
        if (readsOn(label.getForeground().getRGB(), behind)) return;
        Display d = label.getDisplay();
        for (int id : new int[] {SWT.COLOR_WIDGET_FOREGROUND, SWT.COLOR_WHITE, SWT.COLOR_BLACK}) {
            Color c = d.getSystemColor(id);
            if (readsOn(c.getRGB(), behind)) {
                label.setForeground(c);
                return;
            }
        }
    }

    private static boolean readsOn(RGB text, List<RGB> behind) {
        return behind.stream().allMatch(b -> ThemeColors.contrast(text, b) >= READABLE);
    }

    /**
     * The two ends of the gradient the title paints behind its label (its widget factory's Forms colours, which the
     * theme's stylesheet sets); the label's own background where Eclipse's internals differ.
     */
    private static List<RGB> gradient(Composite title, CLabel label) {
        try {
            Field f = title.getClass().getDeclaredField("factory");
            f.setAccessible(true);   // a private field of an internal class
            Object colours = f.get(title).getClass().getMethod("getColors").invoke(f.get(title));
            var get = colours.getClass().getMethod("getColor", String.class);
            Color start = (Color) get.invoke(colours, "org.eclipse.ui.forms.H_GRADIENT_START");
            Color end = (Color) get.invoke(colours, "org.eclipse.ui.forms.H_GRADIENT_END");
            if (start != null && end != null && !start.isDisposed() && !end.isDisposed())
                return List.of(start.getRGB(), end.getRGB());
        } catch (ReflectiveOperationException | RuntimeException e) {
            // another Eclipse: judged on the label's background
        }
        return List.of(label.getBackground().getRGB());
    }
}
