package org.hostir.studio.ui.tests.theme;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Item;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.swt.widgets.Widget;

/**
 * In CI's clean clone (never in a developer's tree), Eclipse's CSS engine keeps, after the earlier UI tests, an
 * element for a table item that is not disposed while its table is; resetting styles for a theme switch then
 * throws "Widget is disposed" from inside the engine before any of our code runs. Which test leaves it was not
 * found (its item has no data and no readable text). The theme tests drop such elements, print how many, and so
 * still test what they are about: our views' colours after a switch.
 */
public final class StaleCssElements {
    private static final String ENGINE_KEY = "org.eclipse.e4.ui.css.core.engine";

    private StaleCssElements() {}

    /** Removes the engine's elements of items whose parent is disposed; returns a line saying what was dropped. */
    public static String drop(Display display) {
        Object engine = display.getData(ENGINE_KEY);
        Map<?, ?> elements = engine == null ? null : elementsOf(engine);
        if (elements == null) return "stale CSS elements: engine not found, nothing dropped";
        List<Object> stale = new ArrayList<>();
        for (Object key : elements.keySet()) {
            if (key instanceof Item item && !item.isDisposed() && parentDisposed(item)) stale.add(key);
        }
        stale.forEach(elements::remove);
        String line = "stale CSS elements dropped before the theme switch: " + stale.size() + " of "
                + (elements.size() + stale.size());
        System.out.println(line);
        return line;
    }

    private static boolean parentDisposed(Item item) {
        Widget parent = switch (item) {
            case TableItem t -> t.getParent();
            case TreeItem t -> t.getParent();
            default -> null;
        };
        return parent != null && parent.isDisposed();
    }

    private static Map<?, ?> elementsOf(Object engine) {
        for (Class<?> c = engine.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField("elementsContext");
                f.setAccessible(true);
                return f.get(engine) instanceof Map<?, ?> m ? m : null;
            } catch (NoSuchFieldException e) {
                // declared higher up
            } catch (IllegalAccessException e) {
                return null;
            }
        }
        return null;
    }
}
