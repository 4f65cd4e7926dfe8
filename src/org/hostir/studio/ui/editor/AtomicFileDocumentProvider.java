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
import org.eclipse.jface.text.IDocument;
import org.eclipse.ui.IFileEditorInput;
import org.eclipse.ui.editors.text.FileDocumentProvider;

/**
 * Saves a fusion file atomically: the text goes to a temporary file beside it, which then replaces the file
 * in one rename, so a crash or a full disk never leaves half a fusion behind. The modification stamp is
 * updated before the workspace reports the change, so the editor does not take its own save for an external
 * edit. Loading, dirty state and the rest are the platform's.
 */
final class AtomicFileDocumentProvider extends FileDocumentProvider {
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
