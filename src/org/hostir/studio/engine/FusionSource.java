package org.hostir.studio.engine;

import java.nio.file.Path;

/**
 * Where a fusion's text comes from: a file (the command line, a launch) or text held in memory (an editor's
 * unsaved state, a workspace file read through Eclipse). {@code label} is how diagnostics name it.
 */
public sealed interface FusionSource {
    String label();

    record File(Path path, String label) implements FusionSource {
        public File(Path path) { this(path, path.toString()); }
    }

    record Text(String text, String label) implements FusionSource {}
}
