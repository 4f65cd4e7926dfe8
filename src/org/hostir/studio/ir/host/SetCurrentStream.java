package org.hostir.studio.ir.host;

import java.util.Objects;

/** Makes a stream current; later compute and communication are enqueued on it. */
public record SetCurrentStream(int id, Stream stream) implements HostNode {
    public SetCurrentStream {
        Objects.requireNonNull(stream);
    }
}
