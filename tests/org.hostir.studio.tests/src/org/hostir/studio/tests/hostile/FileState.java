package org.hostir.studio.tests.hostile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Every entry under a case's folder with a checksum (files: SHA-256 of the bytes and whether writable; links: their
 * target, never followed; folders and FIFOs: their kind), taken before and after the command: a pre-existing entry
 * that changed or vanished is a destroyed file, a new entry outside the case's outputs or a temporary file anywhere
 * is something left behind.
 */
record FileState(Map<String, String> entries) {

    static FileState of(Path dir) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (p.equals(dir)) continue;
                entries.put(dir.relativize(p).toString(), describe(p));
            }
        }
        return new FileState(entries);
    }

    private static String describe(Path p) throws IOException {
        if (Files.isSymbolicLink(p)) return "link -> " + Files.readSymbolicLink(p);
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) return "folder";
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) return "special";
        String mode = Files.getPosixFilePermissions(p).toString();
        return "file " + mode + " " + sha256(p);
    }

    private static String sha256(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) d.update(buf, 0, n);
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * What the command did to the folder that it must not have: {@code destroyed}, an entry that was there is changed
     * or gone, or a temporary file stays; {@code stray}, a new entry that is none of {@code outputs} (relative paths,
     * each with what is below it), which an accepted command may create or replace.
     */
    record Damage(List<String> destroyed, List<String> stray) {
        boolean none() { return destroyed.isEmpty() && stray.isEmpty(); }
    }

    Damage damage(FileState after, List<String> outputs) {
        List<String> destroyed = new ArrayList<>(), stray = new ArrayList<>();
        entries.forEach((path, was) -> {
            if (under(path, outputs)) return;
            String now = after.entries.get(path);
            if (now == null) destroyed.add(path + " was removed");
            else if (!now.equals(was)) destroyed.add(path + " was changed (" + was + " -> " + now + ")");
        });
        after.entries.forEach((path, now) -> {
            if (entries.containsKey(path)) return;
            if (temporary(path)) destroyed.add("temporary " + path + " was left behind");
            else if (!under(path, outputs)) stray.add(path + " was written, and it is no output of this case");
        });
        return new Damage(destroyed, stray);
    }

    private static boolean under(String path, List<String> outputs) {
        return outputs.stream().anyMatch(o -> path.equals(o) || path.startsWith(o + "/"));
    }

    /** A hidden file or one named like a temporary: what an interrupted atomic write leaves. */
    static boolean temporary(String path) {
        String name = Path.of(path).getFileName().toString();
        return name.startsWith(".") || name.endsWith(".tmp") || name.contains(".tmp.");
    }
}
