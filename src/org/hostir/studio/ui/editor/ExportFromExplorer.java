package org.hostir.studio.ui.editor;

import org.eclipse.core.commands.common.CommandException;
import org.eclipse.core.runtime.ILog;
import org.eclipse.jface.action.IAction;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.ui.IObjectActionDelegate;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.handlers.IHandlerService;

/**
 * Export as nvFuser C++ Test... / Python Script... in a navigator's context menu of a {@code .fusion} file (the
 * Project Explorer's): an object contribution, the kind its Run As and Compare With are (a command contributed to
 * {@code popup:org.eclipse.ui.popup.any} did not show there), running the export command of the action's
 * definition on the selected file.
 */
public final class ExportFromExplorer implements IObjectActionDelegate {
    private IWorkbenchPart part;

    @Override
    public void setActivePart(IAction action, IWorkbenchPart targetPart) { part = targetPart; }

    @Override
    public void run(IAction action) {
        if (part == null) return;
        try {
            part.getSite().getService(IHandlerService.class).executeCommand(action.getActionDefinitionId(), null);
        } catch (CommandException e) {
            ILog.of(ExportFromExplorer.class).error("cannot run " + action.getActionDefinitionId(), e);
        }
    }

    @Override
    public void selectionChanged(IAction action, ISelection selection) {
        // the command's handler reads the selection when it runs
    }
}
