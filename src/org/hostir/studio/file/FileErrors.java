package org.hostir.studio.file;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * A file operation's failure in words a user can act on: {@code PATH: why}. Java's file exceptions often carry
 * only the path as their message ({@code AccessDeniedException: /x/out.json}), so the reason comes from the
 * exception's type when the operating system gave none.
 */
public final class FileErrors {
    private FileErrors() {}

    /** {@code PATH: reason}, or the reason alone when the exception names no file. One line. */
    public static String describe(IOException e) {
        String file = e instanceof FileSystemException f && f.getFile() != null ? f.getFile() : "";
        return file.isEmpty() ? reason(e) : file + ": " + reason(e);
    }

    /** Why, without the path: {@code permission denied}, {@code No space left on device}. */
    public static String reason(IOException e) {
        if (!(e instanceof FileSystemException f)) {
            return e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
        }
        return f.getReason() != null && !f.getReason().isBlank() ? f.getReason() : byType(f);
    }

    private static String byType(FileSystemException e) {
        return switch (e) {
            case AccessDeniedException a -> "permission denied";
            case NoSuchFileException n -> "no such file or folder";
            case NotDirectoryException n -> "not a folder";
            case FileAlreadyExistsException x -> "already exists (and is not a folder)";
            case DirectoryNotEmptyException d -> "folder not empty";
            default -> e.getClass().getSimpleName();
        };
    }
}
