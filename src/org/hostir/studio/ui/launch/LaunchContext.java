package org.hostir.studio.ui.launch;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IFileEditorInput;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;

/**
 * The fusion a new configuration starts from, as Eclipse's own launch types take their context (JDT's Java
 * Application takes the selected or edited type): the resource of the active part (the Project Explorer's selection,
 * or the active editor's file), else the active editor's file. Run Configurations... > New used to start with no file.
 */
final class LaunchContext {
    private LaunchContext() {}

    /** That fusion's name without {@code .fusion}. */
    static String name(IFile fusion) {
        return fusion.getName().substring(0, fusion.getName().length() - ".fusion".length());
    }

    /** The fusion of the context, or null when it holds none. */
    static IFile fusion() {
        if (!PlatformUI.isWorkbenchRunning()) return null;
        IResource selected = DebugUITools.getSelectedResource();
        if (selected instanceof IFile f && isFusion(f)) return f;
        IWorkbenchWindow window = PlatformUI.getWorkbench().getActiveWorkbenchWindow();
        IWorkbenchPage page = window == null ? null : window.getActivePage();
        IEditorPart editor = page == null ? null : page.getActiveEditor();
        if (editor != null && editor.getEditorInput() instanceof IFileEditorInput in && isFusion(in.getFile())) {
            return in.getFile();
        }
        return null;
    }

    private static boolean isFusion(IFile f) { return "fusion".equals(f.getFileExtension()) && f.exists(); }
}
