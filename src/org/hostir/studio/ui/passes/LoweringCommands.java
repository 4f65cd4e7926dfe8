package org.hostir.studio.ui.passes;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.handlers.HandlerUtil;

/**
 * The handler of every lowering-view command (plugin.xml): stepping passes and changes, hide unchanged, copy,
 * export, re-lower. One class, dispatched on the command id, because each command is one call on the view.
 */
public class LoweringCommands extends AbstractHandler {
    private static final String P = "org.hostir.studio.ui.passes.";

    @Override
    public Object execute(ExecutionEvent event) throws org.eclipse.core.commands.ExecutionException {
        LoweringView view = view(event);
        if (view == null) return null;
        switch (event.getCommand().getId().substring(P.length())) {
            case "nextPass" -> view.stepPass(1);
            case "previousPass" -> view.stepPass(-1);
            case "nextChange" -> view.stepChange(1);
            case "previousChange" -> view.stepChange(-1);
            case "hideUnchanged" -> view.setHideUnchanged(!HandlerUtil.toggleCommandState(event.getCommand()));
            case "copySnapshot" -> view.copySnapshot();
            case "exportSnapshots" -> view.exportSnapshotsInteractively();
            case "relower" -> view.relower();
            default -> { }
        }
        return null;
    }

    private static LoweringView view(ExecutionEvent event) {
        IWorkbenchPart part = HandlerUtil.getActivePart(event);
        if (part instanceof LoweringView v) return v;
        var window = HandlerUtil.getActiveWorkbenchWindow(event);
        if (window == null || window.getActivePage() == null) return null;
        try {
            IViewPart v = window.getActivePage().showView(LoweringView.ID);
            return v instanceof LoweringView lv ? lv : null;
        } catch (PartInitException e) {
            return null;
        }
    }
}
