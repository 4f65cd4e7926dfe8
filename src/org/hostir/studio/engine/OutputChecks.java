package org.hostir.studio.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.io.AtomicFiles;

/** The checks of one output path that {@link OutputFiles} combines: each a problem in words, or empty. */
final class OutputChecks {
    private OutputChecks() {}

    /** A path that names no file to write: empty, a folder, in no folder, a device or FIFO, not writable there. */
    static Optional<String> file(Path target) {
        String name = "'" + target + "'";
        if (target.toString().isEmpty()) return Optional.of("needs a file name, got an empty string");
        if (Files.isDirectory(target)) {
            return Optional.of(name + " is a folder; name a file, e.g. " + target.resolve("out.json"));
        }
        Path parent = target.toAbsolutePath().getParent();
        if (parent != null && Files.exists(parent) && !Files.isDirectory(parent)) {
            return Optional.of("'" + parent + "' is not a folder");
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            return Optional.of(name + " is not a regular file (a device, FIFO or socket); name a file");
        }
        if (parent != null && Files.isDirectory(parent) && !Files.isWritable(parent)) {
            return Optional.of("cannot write in '" + parent + "': permission denied");
        }
        return Optional.empty();
    }

    /** A path that names no folder to write into: empty, an existing non-folder, a folder the user cannot write. */
    static Optional<String> folder(Path folder) {
        String name = "'" + folder + "'";
        if (folder.toString().isEmpty()) return Optional.of("needs a folder name, got an empty string");
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
        String name = "'" + target + "'";
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

    /** Whether {@code a} and {@code b} are one file: the same real path, or the same file key (hard links). */
    static boolean sameFile(Path a, Path b) {
        if (a.toString().isEmpty() || b.toString().isEmpty()) return false;
        if (canonical(a).equals(canonical(b))) return true;
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /** Whether {@code file} lies in {@code folder} or below it (real paths). */
    static boolean under(Path file, Path folder) {
        return !folder.toString().isEmpty() && canonical(file).startsWith(canonical(folder));
    }

    /** The path the operating system would write for {@code p}, links followed ({@link AtomicFiles#resolved}). */
    static Path canonical(Path p) { return AtomicFiles.resolved(p); }

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
