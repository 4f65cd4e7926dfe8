package org.hostir.studio.export;

import org.hostir.studio.diag.Subject;

/**
 * A fusion that has no spelling in the target (a dtype or mesh the target's tests never write); a user matter.
 * {@code subject} is the element that cannot be spelled (a tensor, its mesh, one of its axes), so that the refusal
 * is put at its line in the file as the loader's diagnostics are.
 */
public final class ExportException extends Exception {
    private final transient Subject subject;

    public ExportException(Subject subject, String message) {
        super(message, null, false, false);
        this.subject = subject;
    }

    public Subject subject() { return subject; }
}
