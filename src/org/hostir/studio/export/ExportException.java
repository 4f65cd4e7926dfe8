package org.hostir.studio.export;

/** A fusion that has no spelling in the target (a dtype or mesh the target's tests never write); a user matter. */
public final class ExportException extends Exception {
    public ExportException(String message) { super(message, null, false, false); }
}
