package org.hostir.studio.ui.editor;

import java.util.List;

import org.eclipse.core.commands.operations.AbstractOperation;
import org.eclipse.core.commands.operations.IUndoContext;
import org.eclipse.core.runtime.IAdaptable;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.hostir.studio.file.FusionDocument;

/**
 * One edit of the graph or the properties: the documents before and after. The model is immutable, so undo
 * and redo are exact and cheap (the Shapes example keeps a command per edit; a snapshot pair is simpler).
 */
final class DocumentOperation extends AbstractOperation {
    private final FusionEditor editor;
    private final FusionDocument before;
    private final FusionDocument after;
    /**
     * The source document's modification stamps before and after the edit, put back by undo and redo as the text
     * undo manager does, so the editor is clean again at the save point (issue 35).
     */
    private long stampBefore = FusionEditor.NO_STAMP;
    private long stampAfter = FusionEditor.NO_STAMP;
    /**
     * The graph's selected keys before the edit and when it was last undone, put back by undo and redo: the graph
     * drops keys that no longer exist, so a rename's undo or redo would leave nothing selected (finding 6 of drive 17).
     * The after-selection is read at undo time, since an edit from Properties selects the renamed tensor later.
     */
    private List<String> selectionBefore = List.of();
    private List<String> selectionAfter;

    DocumentOperation(String label, IUndoContext context, FusionEditor editor, FusionDocument before,
                      FusionDocument after) {
        super(label);
        addContext(context);
        this.editor = editor;
        this.before = before;
        this.after = after;
    }

    @Override
    public IStatus execute(IProgressMonitor monitor, IAdaptable info) {
        stampBefore = editor.sourceStamp();
        selectionBefore = editor.selectedKeys();
        editor.show(after, true);
        stampAfter = editor.sourceStamp();
        return Status.OK_STATUS;
    }

    @Override
    public IStatus redo(IProgressMonitor monitor, IAdaptable info) {
        editor.show(after, stampAfter);
        if (selectionAfter != null) editor.restoreSelection(selectionAfter);
        return Status.OK_STATUS;
    }

    @Override
    public IStatus undo(IProgressMonitor monitor, IAdaptable info) {
        selectionAfter = editor.selectedKeys();
        editor.show(before, stampBefore);
        editor.restoreSelection(selectionBefore);
        return Status.OK_STATUS;
    }

    @Override
    public boolean canUndo() { return !editor.isDisposed(); }

    @Override
    public boolean canRedo() { return !editor.isDisposed(); }
}
