package org.hostir.studio.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.file.AtomicFiles;

/** The checks of one output path that {@link OutputFiles} combines: each a problem in words, or empty. */
final class OutputChecks {
    /** The longest file name, in bytes, that Linux's file systems (ext4, XFS, Btrfs, tmpfs) allow. */
    private static final int NAME_MAX = 255;

    private OutputChecks() {}

    /** A path that names no file to write: empty, a folder, in no folder, a device or FIFO, not writable there. */
    static Optional<String> file(Path target) {
        String name = quoted(target);
        if (target.toString().isEmpty()) return Optional.of("needs a file name, got an empty string");
        Optional<String> tooLong = nameTooLong(target);
        if (tooLong.isPresent()) return tooLong;
        if (Files.isDirectory(target)) {
            return Optional.of(name + " is a folder; name a file, e.g. "
                    + Texts.printable(target.resolve("out.json").toString()));
        }
        Path parent = target.toAbsolutePath().getParent();
        if (parent != null && Files.exists(parent) && !Files.isDirectory(parent)) {
            return Optional.of(quoted(parent) + " is not a folder");
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            return Optional.of(name + " is not a regular file (a device, FIFO or socket); name a file");
        }
        if (parent != null && Files.isDirectory(parent) && !Files.isWritable(parent)) {
            return Optional.of("cannot write in " + quoted(parent) + ": permission denied");
        }
        return Optional.empty();
    }

    /** A path that names no folder to write into: empty, an existing non-folder, a folder the user cannot write. */
    static Optional<String> folder(Path folder) {
        String name = quoted(folder);
        if (folder.toString().isEmpty()) return Optional.of("needs a folder name, got an empty string");
        Optional<String> tooLong = nameTooLong(folder);
        if (tooLong.isPresent()) return tooLong;
        if (Files.exists(folder) && !Files.isDirectory(folder)) return Optional.of(name + " exists and is not a folder");
        if (Files.isDirectory(folder) && !Files.isWritable(folder)) {
            return Optional.of("cannot write in " + name + ": permission denied");
        }
        return Optional.empty();
    }

    /** An existing file that may not be replaced: read-only (even with --force), or not ours without --force. */
    static Optional<String> replaceable(OutputFiles.Output o, boolean force) {
        Path target = o.path();
        if (!Files.exists(target)) return Optional.empty();
        String name = quoted(target);
        if (readOnly(target)) {
            return Optional.of(name + " is read-only; it is never replaced, not even with " + RunCommandLine.FORCE
                    + " (make it writable or name another file)");
        }
        if (!force && !o.ours().test(target)) {
            return Optional.of(name + (o.ours() == OutputFiles.NEVER_OURS ? " exists" : " exists and is not "
                    + o.what() + " this tool wrote") + "; add " + RunCommandLine.FORCE + " to replace it");
        }
        return Optional.empty();
    }

    /**
     * A name longer than a file system allows (255 bytes: NAME_MAX of Linux's file systems), found before the run
     * rather than when the write fails after it.
     */
    private static Optional<String> nameTooLong(Path target) {
        for (Path part : target) {
            int bytes = part.toString().getBytes(StandardCharsets.UTF_8).length;
            if (bytes > NAME_MAX) {
                return Optional.of(quoted(target) + " holds a name of " + bytes + " bytes; a file system allows "
                        + NAME_MAX);
            }
        }
        return Optional.empty();
    }

    /** A path in a message, quoted, its control characters escaped: one line whatever the path holds. */
    static String quoted(Path p) { return "'" + Texts.printable(p.toString()) + "'"; }

    /** Whether {@code a} and {@code b} are one file: the same real path, or the same file key (hard links). */
    static boolean sameFile(Path a, Path b) {
        if (a.toString().isEmpty() || b.toString().isEmpty()) return false;
        if (AtomicFiles.resolved(a).equals(AtomicFiles.resolved(b))) return true;
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /** Whether {@code file} lies in {@code folder} or below it (real paths). */
    static boolean under(Path file, Path folder) {
        return !folder.toString().isEmpty() && AtomicFiles.resolved(file).startsWith(AtomicFiles.resolved(folder));
    }

    /**
     * Whether a file is read-only: not writable by this user, or with no write permission for anyone (which the
     * superuser's access check ignores, and a rename over it would ignore too).
     */
    static boolean readOnly(Path p) {
        if (!Files.isWritable(p)) return true;
        PosixFileAttributeView posix = Files.getFileAttributeView(p, PosixFileAttributeView.class);
        if (posix == null) return false;
        try {
            Set<PosixFilePermission> perms = posix.readAttributes().permissions();
            return !perms.contains(PosixFilePermission.OWNER_WRITE) && !perms.contains(PosixFilePermission.GROUP_WRITE)
                    && !perms.contains(PosixFilePermission.OTHERS_WRITE);
        } catch (IOException e) {
            return false;
        }
    }

}
