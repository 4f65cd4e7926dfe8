package org.hostir.studio.ui.debug;

import java.util.Set;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.ui.actions.IToggleBreakpointsTarget;
import org.eclipse.debug.ui.actions.IToggleBreakpointsTargetFactory;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.ITextSelection;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.texteditor.ITextEditor;
import org.hostir.studio.exec.debug.StopText;

/**
 * Toggling node breakpoints on the lines of a Host IR dump in {@link HostIrDumpEditor} (ruler double click, Run >
 * Toggle Breakpoint): a line that states a node ({@link DumpLines}) gets a {@link NodeBreakpoint} on the dump file
 * at that line, on every rank and iteration, or loses the one it has.
 */
public final class DumpBreakpoints implements IToggleBreakpointsTargetFactory, IToggleBreakpointsTarget {
    static final String TARGET = "org.hostir.studio.ui.debug.dumpLineBreakpoints";

    @Override
    public Set<String> getToggleTargets(IWorkbenchPart part, ISelection selection) {
        return part instanceof HostIrDumpEditor ? Set.of(TARGET) : Set.of();
    }

    @Override
    public String getDefaultToggleTarget(IWorkbenchPart part, ISelection selection) {
        return part instanceof HostIrDumpEditor ? TARGET : null;
    }

    @Override
    public IToggleBreakpointsTarget createToggleTarget(String targetID) { return TARGET.equals(targetID) ? this : null; }

    @Override
    public String getToggleTargetName(String targetID) { return "Host IR node breakpoints"; }

    @Override
    public String getToggleTargetDescription(String targetID) { return "A breakpoint on the node a dump line states"; }

    @Override
    public void toggleLineBreakpoints(IWorkbenchPart part, ISelection selection) throws CoreException {
        if (!(part instanceof ITextEditor editor) || !(selection instanceof ITextSelection text)) return;
        IFile file = editor.getEditorInput().getAdapter(IFile.class);
        IDocument document = editor.getDocumentProvider().getDocument(editor.getEditorInput());
        if (file == null || document == null) return;
        int line = text.getStartLine() + 1;
        for (NodeBreakpoint b : RunTarget.allBreakpoints(file)) {
            if (b.getLineNumber() == line) {
                b.delete();
                return;
            }
        }
        var node = DumpLines.nodeAt(document.get(), line);
        if (node.isPresent()) NodeBreakpoint.create(file, line, node.get().id(), -1, -1, StopText.node(node.get()));
    }

    @Override
    public boolean canToggleLineBreakpoints(IWorkbenchPart part, ISelection selection) {
        return part instanceof HostIrDumpEditor && selection instanceof ITextSelection;
    }

    @Override
    public void toggleMethodBreakpoints(IWorkbenchPart part, ISelection selection) { }

    @Override
    public boolean canToggleMethodBreakpoints(IWorkbenchPart part, ISelection selection) { return false; }

    @Override
    public void toggleWatchpoints(IWorkbenchPart part, ISelection selection) { }

    @Override
    public boolean canToggleWatchpoints(IWorkbenchPart part, ISelection selection) { return false; }
}
