package org.hostir.studio.tests;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository and the shared folder beside it are, for tests run by Tycho or from the command line. */
public final class RepoPaths {
    private RepoPaths() {}

    public static Path repo() {
        String prop = System.getProperty("hirstudio.repo");
        if (prop != null) return Path.of(prop).toAbsolutePath().normalize();
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("tycho-pom.xml"))) return p;
        }
        throw new IllegalStateException("cannot find the repository root (set -Dhirstudio.repo)");
    }

    /** {@code ../shared}: the seeds, spikes and reference notes every checkout has beside it. */
    public static Path shared() {
        Path shared = repo().resolveSibling("shared");
        if (!Files.isDirectory(shared)) {
            throw new IllegalStateException("the shared folder is missing beside the repository: " + shared);
        }
        return shared;
    }
}
