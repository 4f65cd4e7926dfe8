package org.hostir.studio.ui.timeline;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.resources.IFile;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.handlers.HandlerUtil;

/**
 * The handler of the timeline commands (plugin.xml), dispatched on the command id: the view's toolbar commands
 * and "Run on CPU and show timeline", which takes the selected .fusion file or the active editor's.
 */
public class TimelineCommands extends AbstractHandler {
    private static final String P = "org.hostir.studio.ui.timeline.";

    @Override
    public Object execute(ExecutionEvent event) {
        String command = event.getCommand().getId().substring(P.length());
        if (command.equals("runOnCpu")) {
            IFile file = fusionFile(event);
            if (file != null) CpuRun.schedule(file, org.eclipse.ui.PlatformUI.getWorkbench().getDisplay());
            return null;
        }
        TimelineView view = view(event);
        if (view == null) return null;
        switch (command) {
            case "fit" -> view.fit();
            case "zoomIn" -> view.zoom(0.5);
            case "zoomOut" -> view.zoom(2);
            case "openTrace" -> view.openTrace();
            case "exportJson" -> view.exportInteractively(false);
            case "exportPng" -> view.exportInteractively(true);
            default -> { }
        }
        return null;
    }

    private static IFile fusionFile(ExecutionEvent event) {
        ISelection selection = HandlerUtil.getCurrentSelection(event);
        if (selection instanceof IStructuredSelection s && s.getFirstElement() != null) {
            Object o = s.getFirstElement();
            IFile f = o instanceof IFile file ? file
                    : o instanceof org.eclipse.core.runtime.IAdaptable a ? a.getAdapter(IFile.class) : null;
            if (f != null && "fusion".equals(f.getFileExtension())) return f;
        }
        IEditorPart editor = HandlerUtil.getActiveEditor(event);
        if (editor != null) {
            IFile f = editor.getEditorInput().getAdapter(IFile.class);
            if (f != null && "fusion".equals(f.getFileExtension())) return f;
        }
        return null;
    }

    private static TimelineView view(ExecutionEvent event) {
        IWorkbenchPart part = HandlerUtil.getActivePart(event);
        if (part instanceof TimelineView v) return v;
        var window = HandlerUtil.getActiveWorkbenchWindow(event);
        if (window == null || window.getActivePage() == null) return null;
        try {
            IViewPart v = window.getActivePage().showView(TimelineView.ID);
            return v instanceof TimelineView tv ? tv : null;
        } catch (PartInitException e) {
            return null;
        }
    }
}
