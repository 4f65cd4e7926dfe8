package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.TensorView;

/** Releases a buffer after its last use (stream-ordered at run time). */
public record Deallocate(int id, TensorView buffer) implements HostNode {
    public Deallocate {
        Objects.requireNonNull(buffer);
    }
}
