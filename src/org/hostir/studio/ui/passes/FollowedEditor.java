package org.hostir.studio.ui.passes;

import java.util.function.Consumer;

import org.eclipse.core.resources.IFile;
import org.eclipse.jface.text.DocumentEvent;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.IDocumentListener;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IPartListener2;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.IWorkbenchPartReference;
import org.eclipse.ui.texteditor.ITextEditor;

/**
 * The editor the Lowering view follows and its document (a text editor's, or the one a fusion editor adapts to): the
 * view lowers what the editor holds, saved or not, and hears of each change of it.
 */
final class FollowedEditor implements IPartListener2 {
    private final Runnable changed;
    private final Consumer<IWorkbenchPart> activated;
    private final Runnable closed;
    private IEditorPart editor;
    private IDocument document;
    private final IDocumentListener listener = new IDocumentListener() {
        @Override
        public void documentAboutToBeChanged(DocumentEvent event) {}

        @Override
        public void documentChanged(DocumentEvent event) { changed.run(); }
    };

    /**
     * {@code changed} runs on every change of the followed document, {@code activated} gets each part activated or
     * given a new input, {@code closed} runs when the followed editor closes (after it is no longer followed).
     */
    FollowedEditor(Runnable changed, Consumer<IWorkbenchPart> activated, Runnable closed) {
        this.changed = changed;
        this.activated = activated;
        this.closed = closed;
    }

    @Override
    public void partActivated(IWorkbenchPartReference ref) { activated.accept(ref.getPart(false)); }

    @Override
    public void partInputChanged(IWorkbenchPartReference ref) { activated.accept(ref.getPart(false)); }

    @Override
    public void partClosed(IWorkbenchPartReference ref) {
        if (editor != null && ref.getPart(false) == editor) {
            detach();
            closed.run();
        }
    }

    IEditorPart editor() { return editor; }

    /** Follows {@code part}'s document (nothing when it has none). */
    void attach(IEditorPart part) {
        detach();
        ITextEditor text = part instanceof ITextEditor t ? t : part.getAdapter(ITextEditor.class);
        IDocument doc = text == null || text.getDocumentProvider() == null ? null
                : text.getDocumentProvider().getDocument(text.getEditorInput());
        if (doc == null) return;
        editor = part;
        document = doc;
        doc.addDocumentListener(listener);
    }

    void detach() {
        if (document != null) document.removeDocumentListener(listener);
        document = null;
        editor = null;
    }

    /** Whether the followed editor is on {@code file}. */
    boolean isOn(IFile file) { return editor != null && file.equals(editor.getEditorInput().getAdapter(IFile.class)); }

    /** The editor's text, or null when none is followed (the file is read instead). */
    String text() { return document == null ? null : document.get(); }

    boolean isDirty() { return editor != null && editor.isDirty(); }
}
