package org.hostir.studio.engine;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

import org.hostir.studio.io.Diagnostic;
import org.hostir.studio.io.Subject;

/**
 * The files a run writes (its trace, its {@code .npy} tensors and their manifest), kept from destroying anything.
 * Before the run, {@link #check} refuses a path that is empty, a folder, a device or FIFO, the fusion file being
 * run (real paths compared, so a link or {@code ./} does not hide it; not even {@code --force} allows that), or
 * an existing file this tool did not write (the caller recognises its own by content) unless {@code --force}.
 * After the run, {@link #write} writes a temporary file in the target's folder and moves it over the target in one
 * step: a reader, or a second run writing the same path, sees the old file or the new one, never half of one, and
 * a failed write leaves the old file as it was.
 */
public final class OutputFiles {
    /** The rule id of every refusal here. */
    public static final String RULE = "run.output";

    private OutputFiles() {}

    /** The bytes of a file, written to the stream it is given. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Refuses {@code target} as the file {@code flag} writes.
     *
     * @param input the fusion file being run
     * @param what  what this tool writes there, for the message ({@code "a trace"})
     * @param ours  whether an existing file is one this tool wrote (then it may be replaced)
     * @param file  the fusion file as the user named it: diagnostics begin with it
     */
    public static void check(String flag, Path target, Path input, boolean force, String what, Predicate<Path> ours,
                             String file) throws EngineFailure {
        Optional<String> problem = problem(flag, target, input, force, what, ours);
        if (problem.isPresent()) throw refusal(flag, problem.get(), file);
    }

    /** Refuses {@code folder} as the folder {@code flag} writes into: it must be a folder (or not exist yet). */
    public static void checkFolder(String flag, Path folder, Path input, String file) throws EngineFailure {
        if (folder.toString().isEmpty()) throw refusal(flag, "needs a folder name, got an empty string", file);
        if (sameFile(folder, input)) {
            throw refusal(flag, "'" + folder + "' is the fusion file being run; name a folder", file);
        }
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw refusal(flag, "'" + folder + "' exists and is not a folder", file);
        }
        if (Files.isDirectory(folder) && !Files.isWritable(folder)) {
            throw refusal(flag, "cannot write in '" + folder + "': permission denied", file);
        }
    }

    private static Optional<String> problem(String flag, Path target, Path input, boolean force, String what,
                                            Predicate<Path> ours) {
        String name = "'" + target + "'";
        if (target.toString().isEmpty()) return Optional.of("needs a file name, got an empty string");
        if (sameFile(target, input)) {
            return Optional.of(name + " is the fusion file being run; writing " + what + " there would destroy it");
        }
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
        if (!Files.exists(target)) return Optional.empty();
        if (!force && !ours.test(target)) {
            return Optional.of(name + " exists and is not " + what + " this tool wrote; add " + RunCommandLine.FORCE
                    + " to replace it");
        }
        return Optional.empty();
    }

    /** Whether {@code a} and {@code b} are one file: real paths, or the same file key (hard links). */
    static boolean sameFile(Path a, Path b) {
        if (a.toString().isEmpty() || !Files.exists(a) || !Files.exists(b)) return false;
        try {
            return a.toRealPath().equals(b.toRealPath()) || Files.isSameFile(a, b);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static EngineFailure refusal(String flag, String message, String file) {
        return new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(file, 0, flag, RULE, message,
                new Subject.Setting(flag))));
    }

    /**
     * Writes {@code target} atomically: the content goes to a new temporary file beside it (created with the
     * default permissions, so the result has them too), is forced to disk, then replaces the target in one
     * rename; where the file system cannot rename atomically, a plain replacing move. The folder is created when
     * missing. On failure the temporary file is removed and the target is untouched.
     */
    public static void write(Path target, Content content) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path folder = absolute.getParent();
        Files.createDirectories(folder);
        Path temporary = createTemporary(folder, absolute.getFileName().toString());
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temporary,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING), 1 << 16)) {
                content.writeTo(out);
            }
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            try {
                Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
    }

    /** A new, hidden, uniquely named file in {@code folder}: {@code .NAME.<random>.tmp}. */
    private static Path createTemporary(Path folder, String name) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path candidate = folder.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
                    + ".tmp");
            try {
                return Files.createFile(candidate);
            } catch (FileAlreadyExistsException e) {
                if (attempt > 100) throw e;
            }
        }
    }
}
