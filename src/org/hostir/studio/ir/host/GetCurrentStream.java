package org.hostir.studio.ir.host;

import java.util.Objects;

/** Records the stream current at this point under a key: {@code GetCurrentStream into Stream 0}. */
public record GetCurrentStream(int id, Stream stream) implements HostNode {
    public GetCurrentStream {
        Objects.requireNonNull(stream);
    }
}
