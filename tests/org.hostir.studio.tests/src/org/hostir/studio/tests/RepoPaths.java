package org.hostir.studio.tests;

import java.nio.file.Files;
import java.nio.file.Path;

/** Short names for {@link TestPaths}, with a clear failure when the shared folder is missing. */
public final class RepoPaths {
    private RepoPaths() {}

    public static Path repo() { return TestPaths.repoRoot(); }

    /** {@code ../shared}: the seeds, spikes and reference notes every checkout has beside it. */
    public static Path shared() {
        Path shared = TestPaths.sharedDir();
        if (!Files.isDirectory(shared)) {
            throw new IllegalStateException("the shared folder is missing beside the repository: " + shared);
        }
        return shared;
    }
}
