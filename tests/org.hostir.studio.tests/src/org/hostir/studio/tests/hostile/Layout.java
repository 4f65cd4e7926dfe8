package org.hostir.studio.tests.hostile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The folder a path case starts from: the fusion, a profile, files of the user's (one read-only), traces this
 * tool wrote (one read-only), saved tensors, a folder, a plain file, links to each kind and a dangling one, a FIFO.
 */
final class Layout {
    static final String PROFILE = "prof.json", FOREIGN = "notes.json", READ_ONLY = "ro.json", OURS = "ours.json",
            OURS_READ_ONLY = "ro-ours.json", FOLDER = "sub", PLAIN_FILE = "plain.txt", FIFO = "fifo",
            LINK_FUSION = "link-fusion.json", LINK_PROFILE = "link-prof.json", LINK_FOREIGN = "link-notes.json",
            DANGLING = "dangling.json", LOOP = "loop.fusion", SAVED = "npy", FOREIGN_FOLDER = "other",
            DUMP = "prog.txt";

    private Layout() {}

    static void standard(Path dir) throws IOException {
        Fixtures.fusionFile(dir);
        Fixtures.write(dir, PROFILE, Fixtures.profile());
        Fixtures.write(dir, FOREIGN, "{\"mine\": true}\n");
        readOnly(Fixtures.write(dir, READ_ONLY, "{\"mine\": \"and read-only\"}\n"));
        Fixtures.write(dir, OURS, Fixtures.trace());
        readOnly(Fixtures.write(dir, OURS_READ_ONLY, Fixtures.trace()));
        Files.createDirectories(dir.resolve(FOLDER));
        Fixtures.write(dir, PLAIN_FILE, "x");
        Fixtures.write(dir, DUMP, Fixtures.dump());
        Files.createSymbolicLink(dir.resolve(LINK_FUSION), dir.resolve(Fixtures.FUSION));
        Files.createSymbolicLink(dir.resolve(LINK_PROFILE), dir.resolve(PROFILE));
        Files.createSymbolicLink(dir.resolve(LINK_FOREIGN), dir.resolve(FOREIGN));
        Files.createSymbolicLink(dir.resolve(DANGLING), dir.resolve("nowhere.json"));
        Files.createSymbolicLink(dir.resolve(LOOP), dir.resolve("loop2.fusion"));
        Files.createSymbolicLink(dir.resolve("loop2.fusion"), dir.resolve(LOOP));
        Fixtures.writeNpy(dir, SAVED);
        Fixtures.write(dir, FOREIGN_FOLDER + "/in_in.npy", "someone's array");
    }

    /** The standard folder and a FIFO (skipped where mkfifo is missing: the case is then about a missing path). */
    static void withFifo(Path dir) throws IOException {
        standard(dir);
        try {
            Process p = new ProcessBuilder("mkfifo", dir.resolve(FIFO).toString()).start();
            p.waitFor();
        } catch (IOException e) {
            // no mkfifo: the path stays missing, which must be refused all the same
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void readOnly(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
    }
}
