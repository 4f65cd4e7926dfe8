package org.hostir.studio.ui.passes;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.handlers.HandlerUtil;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.ui.passes.model.SnapshotExport;

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
            case "copySnapshot" -> copySnapshot(view);
            case "exportSnapshots" -> exportSnapshots(view);
            case "relower" -> view.relower();
            default -> { }
        }
        return null;
    }

    /** The printed program after the selected pass (the rank's final program when none is selected). */
    private static void copySnapshot(LoweringView view) {
        PassInspector inspector = view.getAdapter(PassInspector.class);
        if (inspector.rank() != null) {
            SnapshotTransfer.copy(inspector.passList().getDisplay(), SnapshotExport.text(inspector.selected(), inspector.rank()));
        }
    }

    /** Writes every rank's snapshots (the ranks not lowered yet are lowered first). */
    private static void exportSnapshots(LoweringView view) {
        if (!(view.result() instanceof LoweringResult.Lowered l)) return;
        try {
            SnapshotTransfer.writeInteractively(view.getSite().getShell(), l.everyRank());
        } catch (EngineFailure e) {
            MessageDialog.openError(view.getSite().getShell(), "Export snapshots", String.join("\n", e.lines()));
        }
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
