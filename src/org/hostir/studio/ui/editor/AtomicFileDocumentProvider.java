package org.hostir.studio.ui.editor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.Status;
import org.eclipse.jface.text.DocumentEvent;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.IDocumentExtension4;
import org.eclipse.jface.text.IDocumentListener;
import org.eclipse.ui.IFileEditorInput;
import org.eclipse.ui.editors.text.FileDocumentProvider;

/**
 * Saves a fusion file atomically: the text goes to a temporary file beside it, which then replaces the file
 * in one rename, so a crash or a full disk never leaves half a fusion behind. The modification stamp is
 * updated before the workspace reports the change, so the editor does not take its own save for an external
 * edit. Loading and the rest are the platform's; the dirty state also follows the undo history back to the save
 * point (as the platform's file buffers do): an undo restores the document's modification stamp, and the element is
 * clean again when that stamp is the one the document had when it was loaded or saved (issue 35).
 */
final class AtomicFileDocumentProvider extends FileDocumentProvider {
    /** Each open element's save point (ElementInfo has identity equality). */
    private final java.util.Map<ElementInfo, SavePoint> savePoints = new java.util.HashMap<>();

    /** The save also refreshes the file (the rename happens beside the workspace), so it needs both rules. */
    @Override
    protected org.eclipse.core.runtime.jobs.ISchedulingRule getSaveRule(Object element) {
        org.eclipse.core.runtime.jobs.ISchedulingRule rule = super.getSaveRule(element);
        if (element instanceof IFileEditorInput in) {
            var factory = in.getFile().getWorkspace().getRuleFactory();
            rule = org.eclipse.core.runtime.jobs.MultiRule.combine(rule, factory.refreshRule(in.getFile()));
        }
        return rule;
    }

    @Override
    protected ElementInfo createElementInfo(Object element) throws CoreException {
        ElementInfo info = super.createElementInfo(element);
        if (info.fDocument != null) {
            SavePoint p = new SavePoint(element, info);
            savePoints.put(info, p);
            info.fDocument.addDocumentListener(p);
        }
        return info;
    }

    @Override
    protected void disposeElementInfo(Object element, ElementInfo info) {
        SavePoint p = savePoints.remove(info);
        if (p != null && info.fDocument != null) info.fDocument.removeDocumentListener(p);
        super.disposeElementInfo(element, info);
    }

    @Override
    protected void doSaveDocument(IProgressMonitor monitor, Object element, IDocument document, boolean overwrite)
            throws CoreException {
        IFile file = element instanceof IFileEditorInput in ? in.getFile() : null;
        if (file == null || file.getLocation() == null || !file.exists()) {
            super.doSaveDocument(monitor, element, document, overwrite);
            return;
        }
        fireElementStateChanging(element);
        try {
            write(file.getLocation().toFile().toPath(), document.get());
            file.refreshLocal(IResource.DEPTH_ZERO, monitor);
        } catch (CoreException | RuntimeException e) {
            fireElementStateChangeFailed(element);
            throw e;
        }
        if (getElementInfo(element) instanceof FileInfo info) info.fModificationStamp = computeModificationStamp(file);
        markSaved(element);
    }

    /** Reverted to the file's text (File > Revert, or the file changed outside): that text is the save point now. */
    @Override
    protected void doResetDocument(Object element, IProgressMonitor monitor) throws CoreException {
        super.doResetDocument(element, monitor);
        markSaved(element);
    }

    @Override
    protected void handleElementContentChanged(IFileEditorInput fileEditorInput) {
        super.handleElementContentChanged(fileEditorInput);
        markSaved(fileEditorInput);
    }

    private void markSaved(Object element) {
        ElementInfo info = getElementInfo(element);
        SavePoint p = info == null ? null : savePoints.get(info);
        if (p != null) p.mark();
    }

    /**
     * The document's modification stamp when it was loaded or last saved; a change that brings the stamp back to it
     * (an undo or redo to the save point: the text undo manager restores stamps, and so do the graph's operations)
     * makes the element clean again, and the platform's own listener is put back to make it dirty at the next change.
     */
    private final class SavePoint implements IDocumentListener {
        private final Object element;
        private final ElementInfo info;
        private long saved;

        SavePoint(Object element, ElementInfo info) {
            this.element = element;
            this.info = info;
            mark();
        }

        void mark() { saved = stamp(info.fDocument); }

        private static long stamp(IDocument d) {
            return d instanceof IDocumentExtension4 e ? e.getModificationStamp() : IDocumentExtension4.UNKNOWN_MODIFICATION_STAMP;
        }

        @Override
        public void documentAboutToBeChanged(DocumentEvent event) {}

        @Override
        public void documentChanged(DocumentEvent event) {
            long now = stamp(info.fDocument);
            if (!info.fCanBeSaved || now != saved || now == IDocumentExtension4.UNKNOWN_MODIFICATION_STAMP) return;
            info.fCanBeSaved = false;
            addUnchangedElementListeners(element, info);
            fireElementDirtyStateChanged(element, false);
        }
    }

    /**
     * Writes {@code text} as UTF-8 (the format's encoding) to a temporary file, then renames it over the target.
     * The new file keeps what the old one had besides its text: its permissions (a temporary file is created
     * rw-------), and its place when the target is a symbolic link (the link's file is replaced, not the link).
     */
    static void write(Path link, String text) throws CoreException {
        Path tmp = null;
        Path target = link;
        try {
            target = Files.exists(link) ? link.toRealPath() : link;
            if (Files.exists(target) && !Files.isWritable(target)) throw new IOException("the file is read-only");
            tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            keepPermissions(target, tmp);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new CoreException(Status.error("Could not save " + target.getFileName() + ": " + e.getMessage(), e));
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // the rename took it; a stray temp file is nothing the user can act on
                }
            }
        }
    }

    private static void keepPermissions(Path from, Path to) throws IOException {
        if (!Files.exists(from)) return;
        if (Files.getFileStore(to).supportsFileAttributeView(PosixFileAttributeView.class)) {
            Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from));
        }
    }
}
