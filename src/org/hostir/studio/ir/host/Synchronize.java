package org.hostir.studio.ir.host;

import java.util.Objects;

/** The current stream waits for what was enqueued on {@code stream} so far; the host does not block. */
public record Synchronize(int id, Stream stream) implements HostNode {
    public Synchronize {
        Objects.requireNonNull(stream);
    }
}
