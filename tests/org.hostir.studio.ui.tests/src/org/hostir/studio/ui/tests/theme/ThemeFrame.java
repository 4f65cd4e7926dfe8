package org.hostir.studio.ui.tests.theme;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Comparator;
import java.util.List;

import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.IWorkbenchPartReference;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineView;

/**
 * What the theme tests share around their measurements: the workbench's theme engine, the theme put back at the end
 * (a test that fails half-way must not leave the next ones in Dark), a part maximized and saved as a picture, and
 * the verdict over every part measured.
 */
final class ThemeFrame {
    private ThemeFrame() {}

    /** A part maximized on a saved picture: the part, its area (the selected tab's control) and the picture. */
    record Shot(IWorkbenchPart part, Control area, File file) {}

    /** The workbench's theme engine (a service, or the display's data where the service is not registered). */
    static IThemeEngine engine() {
        IThemeEngine engine = PlatformUI.getWorkbench().getService(IThemeEngine.class);
        if (engine == null) engine = (IThemeEngine) Display.getCurrent().getData("org.eclipse.e4.ui.css.swt.theme");
        assertNotNull(engine, "the workbench has a theme engine");
        return engine;
    }

    /** Theme {@code id} again, when another is active (not kept as the user's choice). */
    static void restore(IThemeEngine engine, String id) {
        if (!engine.getActiveTheme().getId().equals(id)) engine.setTheme(id, false);
    }

    /**
     * Maximizes the part, moves the pointer off the views (no hover colour or tooltip in the picture) and saves the
     * window as {@code file}; {@link #unmaximize} puts it back.
     */
    static Shot maximized(IWorkbenchPage page, Person person, Shell window, IWorkbenchPartReference ref, String file) {
        assertNotNull(ref, file + ": the part is open");
        IWorkbenchPart part = ref.getPart(true);
        page.activate(part);
        page.setPartState(ref, IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(500);
        if (part instanceof TimelineView t) t.fit();
        person.moveTo(window, 2, window.getSize().y - 2);
        person.settle(300);
        File shot = ViewTestSupport.screenshot(window, file);
        CTabFolder stack = ViewTestSupport.descendants(window, CTabFolder.class).stream()
                .filter(f -> f.isVisible() && f.getSelection() != null && f.getSelection().getControl() != null)
                .max(Comparator.comparingInt(f -> f.getSize().x * f.getSize().y))
                .orElseThrow(() -> new AssertionError(file + ": no view stack shows a part"));
        return new Shot(part, stack.getSelection().getControl(), shot);
    }

    static void unmaximize(IWorkbenchPage page, Person person, IWorkbenchPartReference ref) {
        page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
        person.settle(200);
    }

    /** Prints each failure and fails with all of them, as {@code N what:}. */
    static void assertNone(List<String> failures, String what) {
        failures.forEach(System.out::println);
        assertTrue(failures.isEmpty(), failures.size() + " " + what + ":\n" + String.join("\n", failures));
    }
}
