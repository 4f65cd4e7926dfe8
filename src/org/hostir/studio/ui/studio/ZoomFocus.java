package org.hostir.studio.ui.studio;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;

/**
 * Keyboard focus after a view or editor is maximized or restored by a double click on its tab or by its stack's
 * buttons (issue 35): the workbench hides and shows the other stacks, and on GTK the focus of a hidden control goes
 * to no control at all, so that the next key (Ctrl+Z) reached nothing. Where no control has the focus once the stacks
 * have settled, the active part gets it, as activating the part gives it.
 */
final class ZoomFocus {
    /** When to look after the click: the stacks are laid out in later events. */
    private static final int[] CHECKS_MS = { 0, 150, 400 };

    private ZoomFocus() {}

    static void install(Display display) {
        Runnable later = () -> { for (int ms : CHECKS_MS) display.timerExec(ms, () -> refocus(display)); };
        // a double click on a tab, and a click on a stack's Maximize, Minimize or Restore button (its tool bar)
        display.addFilter(SWT.MouseDoubleClick, e -> { if (e.widget instanceof CTabFolder) later.run(); });
        display.addFilter(SWT.MouseUp, e -> {
            if (e.widget instanceof ToolBar bar && bar.getParent() instanceof CTabFolder) later.run();
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
