package org.hostir.studio.ui.debug;

import java.util.Set;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.ui.actions.IToggleBreakpointsTarget;
import org.eclipse.debug.ui.actions.IToggleBreakpointsTargetFactory;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.ITextSelection;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.texteditor.ITextEditor;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.ui.DumpLines;
import org.hostir.studio.ui.LoweringShown;

/**
 * Toggling node breakpoints on the lines of Host IR text (ruler double click, Run > Toggle Breakpoint): in
 * {@link HostIrDumpEditor} a line that states a node ({@link DumpLines}) gets a {@link NodeBreakpoint} on the dump
 * file at that line, on every rank and iteration, or loses the one it has; in the Lowering view's program text (the
 * view answers {@link LoweringShown} and the text's {@link IDocument}) the node of the line toggles as Ctrl+Shift+B
 * on it does ({@link ToggleNodeBreakpoint#toggle}, a breakpoint on the fusion file naming the node).
 */
public final class DumpBreakpoints implements IToggleBreakpointsTargetFactory, IToggleBreakpointsTarget {
    static final String TARGET = "org.hostir.studio.ui.debug.dumpLineBreakpoints";

    @Override
    public Set<String> getToggleTargets(IWorkbenchPart part, ISelection selection) {
        return toggles(part) ? Set.of(TARGET) : Set.of();
    }

    @Override
    public String getDefaultToggleTarget(IWorkbenchPart part, ISelection selection) {
        return toggles(part) ? TARGET : null;
    }

    /** The dump editor, or a view showing a lowering's program text. */
    private static boolean toggles(IWorkbenchPart part) {
        return part instanceof HostIrDumpEditor
                || part != null && part.getAdapter(LoweringShown.class) != null && part.getAdapter(IDocument.class) != null;
    }

    @Override
    public IToggleBreakpointsTarget createToggleTarget(String targetID) { return TARGET.equals(targetID) ? this : null; }

    @Override
    public String getToggleTargetName(String targetID) { return "Host IR node breakpoints"; }

    @Override
    public String getToggleTargetDescription(String targetID) { return "A breakpoint on the node a dump line states"; }

    @Override
    public void toggleLineBreakpoints(IWorkbenchPart part, ISelection selection) throws CoreException {
        if (!(selection instanceof ITextSelection text)) return;
        if (!(part instanceof ITextEditor editor)) {
            toggleInProgramText(part, text.getStartLine() + 1);
            return;
        }
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

    /** The node at {@code line} of the program text the view shows: its breakpoint on the view's fusion file. */
    private static void toggleInProgramText(IWorkbenchPart part, int line) throws CoreException {
        LoweringShown shown = part.getAdapter(LoweringShown.class);
        IDocument document = part.getAdapter(IDocument.class);
        if (shown == null || document == null) return;
        IFile file = ResourcesPlugin.getWorkspace().getRoot().getFile(
                org.eclipse.core.runtime.Path.fromPortableString(shown.file()));
        var node = DumpLines.nodeAt(document.get(), line);
        if (node.isPresent()) ToggleNodeBreakpoint.toggle(file, node.get().id(), StopText.node(node.get()));
    }

    @Override
    public boolean canToggleLineBreakpoints(IWorkbenchPart part, ISelection selection) {
        return toggles(part) && selection instanceof ITextSelection;
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
