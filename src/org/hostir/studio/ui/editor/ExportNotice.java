package org.hostir.studio.ui.editor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.eclipse.core.resources.IContainer;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.Adapters;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.jface.action.IStatusLineManager;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.ui.IEditorSite;
import org.eclipse.ui.IViewSite;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.IWorkbenchPartReference;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.part.ISetSelectionTarget;

/**
 * Tells where an export went, as Eclipse's own export wizards do: a file written into the workspace is made known to
 * it, selected and revealed in the Project Explorer; every export puts its full path on the status line (after
 * Finish nothing said where the file went, issue 35 driven by hand).
 */
final class ExportNotice {
    private ExportNotice() {}

    /** The status line's text after {@code what} was written to {@code written}. */
    static String message(String what, Path written) {
        return "Exported " + what + " to " + written.toAbsolutePath();
    }

    /** Announces {@code written} (an nvFuser C++ test or Python script, {@code what}) in {@code window}. */
    static void tell(IWorkbenchWindow window, String what, Path written) {
        Optional<IFile> inWorkspace = refresh(written);
        IWorkbenchWindow w = window != null ? window : PlatformUI.getWorkbench().getActiveWorkbenchWindow();
        if (w == null || w.getActivePage() == null) return;
        // The Project Explorer answers a new selection by putting the file's workspace path on the status line
        // (CommonNavigatorManager's post-selection listener, which StructuredViewer.setSelection fires at once);
        // BasicNewResourceWizard.selectAndReveal defers each part's selectReveal with Display.asyncExec, so that
        // answer came after a message posted here (a 400 ms timer stood for it). The reveal is done here, in the UI
        // thread, and the message put after it: the last word on the status line.
        inWorkspace.ifPresent(f -> reveal(w, new StructuredSelection(f)));
        IStatusLineManager status = statusLine(w.getActivePage().getActivePart());
        if (status != null) {
            status.setErrorMessage(null);
            status.setMessage(message(what, written));
        }
    }

    /** {@code selection} selected and revealed in each part of {@code w}'s page that takes one, as wizards do. */
    private static void reveal(IWorkbenchWindow w, StructuredSelection selection) {
        IWorkbenchPage page = w.getActivePage();
        List<IWorkbenchPartReference> refs = new ArrayList<>(List.of(page.getViewReferences()));
        refs.addAll(List.of(page.getEditorReferences()));
        for (IWorkbenchPartReference ref : refs) {
            IWorkbenchPart part = ref.getPart(false);
            ISetSelectionTarget target = part == null ? null : Adapters.adapt(part, ISetSelectionTarget.class);
            if (target != null) target.selectReveal(selection);
        }
    }

    private static IStatusLineManager statusLine(IWorkbenchPart part) {
        if (part == null) return null;
        if (part.getSite() instanceof IViewSite v) return v.getActionBars().getStatusLineManager();
        if (part.getSite() instanceof IEditorSite e) return e.getActionBars().getStatusLineManager();
        return null;
    }

    /**
     * A file written under a folder of the workspace, made known to it, so that the Project Explorer lists it at
     * once (an export beside its fusion did not show until a manual refresh); the workspace's file, if any.
     */
    static Optional<IFile> refresh(Path written) {
        Path absolute = written.toAbsolutePath();
        Path folder = absolute.getParent();
        if (folder == null) return Optional.empty();
        var root = ResourcesPlugin.getWorkspace().getRoot();
        for (IContainer c : root.findContainersForLocationURI(folder.toUri())) {
            try {
                c.refreshLocal(IResource.DEPTH_ONE, null);
            } catch (CoreException e) {
                // the file is written all the same; the folder shows it after its next refresh
            }
        }
        for (IFile f : root.findFilesForLocationURI(absolute.toUri())) if (f.exists()) return Optional.of(f);
        return Optional.empty();
    }
}
