package org.hostir.studio.ui.debug;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jface.preference.PreferenceDialog;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.ui.dialogs.PreferencesUtil;
import org.eclipse.ui.handlers.HandlerUtil;

/**
 * Properties (Alt+Enter, or the Breakpoints view's menu) on a node breakpoint: its conditions page
 * ({@link NodeBreakpointPage}). The Breakpoints view has no Properties of its own, so this is the one handler there.
 */
public final class BreakpointProperties extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) {
        if (!(HandlerUtil.getCurrentSelection(event) instanceof IStructuredSelection s)
                || !(s.getFirstElement() instanceof NodeBreakpoint b)) {
            return null;
        }
        PreferenceDialog dialog = PreferencesUtil.createPropertyDialogOn(HandlerUtil.getActiveShell(event), b,
                NodeBreakpointPage.ID, new String[] {NodeBreakpointPage.ID}, null);
        dialog.setBlockOnOpen(false); // modal all the same; the command returns at once
        dialog.open();
        return null;
    }
}
