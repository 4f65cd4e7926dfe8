package org.hostir.studio.ui.studio;

import org.eclipse.ui.IWindowListener;
import org.eclipse.ui.IWorkbenchWindow;

/**
 * A window listener that hears only of windows opened, written as a lambda. The workbench's IWindowListener has four
 * abstract methods and no adapter (unlike IPartListener2, whose methods are default), so a listener for one of them
 * carried three empty ones.
 */
@FunctionalInterface
interface WindowOpened extends IWindowListener {
    @Override
    void windowOpened(IWorkbenchWindow window);

    @Override
    default void windowActivated(IWorkbenchWindow window) {}

    @Override
    default void windowDeactivated(IWorkbenchWindow window) {}

    @Override
    default void windowClosed(IWorkbenchWindow window) {}
}
