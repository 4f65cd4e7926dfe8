package org.hostir.studio.file;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Every file this tool writes is written here, atomically: to a hidden temporary file beside the target,
 * {@code .NAME.<16 hex digits>.tmp}, then renamed over the target in one step. A reader, or a second writer of the
 * same path, sees the old file or the new one, never half of one, and a failed write leaves the old file as it was.
 * <p>
 * Nothing is left behind. A temporary file is registered while it exists: a JVM shutdown hook (which runs on
 * normal exit, on SIGINT and on SIGTERM) deletes those still registered, and the rename and the hook exclude each
 * other, so a signal leaves either the new file whole or the old one untouched. A writer holds an exclusive lock
 * on its temporary file until it is renamed; a process killed outright (SIGKILL, a power cut) cannot delete its
 * own, so each write first sweeps the stale temporary files of the same target: {@link #isStale}.
 */
public final class AtomicFiles {
    /**
     * A temporary file not modified for this long, that no process holds the lock of, is stale. A live writer
     * holds the lock from just after creating the file to the rename, and the age covers the instant between
     * creation and locking.
     */
    public static final Duration STALE_AFTER = Duration.ofMinutes(1);
    /** Where the file system cannot lock, only age tells: a write does not pause this long. */
    public static final Duration STALE_UNLOCKABLE_AFTER = Duration.ofHours(1);

    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();
    /** The hook and the renames take this lock: after the hook has run, no temporary file becomes a target. */
    private static final Object RENAME = new Object();
    private static boolean shuttingDown;

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(AtomicFiles::deleteLive, "hirstudio-temporary-files"));
        } catch (IllegalStateException e) {
            shuttingDown = true; // first used as the process ends: createTemporary writes nothing then
        }
    }

    private AtomicFiles() {}

    /** The bytes of a file, written to the stream it is given. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code target} atomically: the content goes to a new temporary file beside it (created with the
     * default permissions, so the result has them too), is forced to disk, then replaces the target in one
     * rename; where the file system cannot rename atomically, a plain replacing move. The folder is created when
     * missing. On failure the temporary file is removed and the target is untouched.
     */
    public static void write(Path target, Content content) throws IOException {
        Path absolute = target.toAbsolutePath();
        // the folder as the output policy compared it: "new/../t.json" is t.json, and creates no folder "new"
        Path folder = resolved(absolute.getParent());
        Files.createDirectories(folder);
        String name = absolute.getFileName().toString();
        absolute = folder.resolve(name);
        sweep(folder, name);
        Path temporary = createTemporary(folder, name);
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
            lock(channel);
            OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
            content.writeTo(out);
            out.flush(); // not closed: closing the stream would close the channel and drop the lock
            channel.force(true);
            rename(temporary, absolute);
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(temporary);
            throw e;
        } finally {
            LIVE.remove(temporary);
        }
    }

    /**
     * The path the operating system would reach for {@code p}, whether it exists or not: each existing component
     * resolved to its real path (links followed), {@code .} dropped and {@code ..} taken as the parent of what
     * came before, as creating the missing folders and then the file would (so {@code new/../f} is {@code f}).
     */
    public static Path resolved(Path p) {
        Path absolute = p.toAbsolutePath();
        Path current = absolute.getRoot();
        for (Path part : absolute) {
            String name = part.toString();
            if (name.equals(".")) continue;
            if (name.equals("..")) {
                current = current.getParent() == null ? current : current.getParent();
                continue;
            }
            Path next = current.resolve(name);
            try {
                current = Files.exists(next) ? next.toRealPath() : next;
            } catch (IOException | SecurityException e) {
                current = next;
            }
        }
        return current;
    }

    /**
     * Whether a temporary file is stale: modified more than {@link #STALE_AFTER} ago and not locked by any process
     * (a writer that died lost its lock with it), or, where the file system cannot lock, modified more than
     * {@link #STALE_UNLOCKABLE_AFTER} ago.
     */
    public static boolean isStale(Path temporary, Instant now) {
        if (LIVE.contains(temporary.toAbsolutePath())) return false; // this process is writing it
        try {
            Instant modified = Files.getLastModifiedTime(temporary).toInstant();
            if (modified.isAfter(now.minus(STALE_AFTER))) return false;
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE);
                 FileLock lock = channel.tryLock()) {
                return lock != null;
            } catch (OverlappingFileLockException e) {
                return false; // this process is writing it
            } catch (IOException e) {
                return modified.isBefore(now.minus(STALE_UNLOCKABLE_AFTER));
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** Deletes the stale temporary files of {@code name} in {@code folder}; returns those deleted. */
    public static List<Path> sweep(Path folder, String name) {
        List<Path> deleted = new ArrayList<>();
        Instant now = Instant.now();
        Pattern own = pattern(name);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder,
                p -> own.matcher(p.getFileName().toString()).matches())) {
            for (Path p : files) {
                if (isStale(p, now) && Files.deleteIfExists(p)) deleted.add(p);
            }
        } catch (IOException e) {
            // sweeping is a courtesy: a folder that cannot be listed fails the write itself, with its reason
        }
        return List.copyOf(deleted);
    }

    private static Pattern pattern(String name) {
        return Pattern.compile("\\." + Pattern.quote(name) + "\\.[0-9a-f]{1,16}\\.tmp");
    }

    private static void lock(FileChannel channel) throws IOException {
        try {
            channel.lock();
        } catch (IOException e) {
            // a file system without locks (some network mounts): the temporary file is swept by age only
        }
    }

    private static void rename(Path temporary, Path target) throws IOException {
        synchronized (RENAME) {
            if (shuttingDown) throw new IOException("the process is ending (a signal): " + target + " was kept");
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /**
     * A new, hidden, uniquely named file in {@code folder}, registered as it is created: under the hook's lock, so
     * that a file created while the process ends is either deleted by the hook or never created.
     */
    private static Path createTemporary(Path folder, String name) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path candidate = folder.resolve("." + name + "." + String.format("%016x",
                    ThreadLocalRandom.current().nextLong()) + ".tmp");
            synchronized (RENAME) {
                if (shuttingDown) throw new IOException("the process is ending (a signal): nothing was written");
                try {
                    Path created = Files.createFile(candidate);
                    LIVE.add(created);
                    return created;
                } catch (FileAlreadyExistsException e) {
                    if (attempt > 100) throw e;
                }
            }
        }
    }

    private static void deleteLive() {
        synchronized (RENAME) {
            shuttingDown = true;
            for (Path p : LIVE) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // nothing more can be done as the process ends
                }
            }
        }
    }
}
