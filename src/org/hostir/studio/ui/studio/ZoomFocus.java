package org.hostir.studio.ui.studio;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;

/**
 * Keyboard focus after a view or editor is maximized or restored by a double click on its tab (issue 35): the
 * workbench hides and shows the other stacks, and on GTK the focus went with them to no control at all, so that the
 * next key (Ctrl+Z) reached nothing. Where no control has the focus once the stacks have settled, the active part
 * gets it, as activating the part gives it.
 */
final class ZoomFocus {
    /** When to look again after the double click: the stacks are laid out in later events. */
    private static final int[] CHECKS_MS = { 0, 150, 400 };

    private ZoomFocus() {}

    static void install(Display display) {
        display.addFilter(SWT.MouseDoubleClick, e -> {
            if (!(e.widget instanceof CTabFolder)) return;
            for (int ms : CHECKS_MS) display.timerExec(ms, () -> refocus(display));
        });
    }

    private static void refocus(Display display) {
        if (display.isDisposed() || display.getFocusControl() != null || !PlatformUI.isWorkbenchRunning()) return;
        IWorkbenchWindow window = PlatformUI.getWorkbench().getActiveWorkbenchWindow();
        if (window == null || window.getActivePage() == null) return;
        var active = display.getActiveShell();
        if (active != null && active != window.getShell()) return;   // a dialog's keys are the dialog's
        IWorkbenchPart part = window.getActivePage().getActivePart();
        if (part != null) part.setFocus();
    }
}
