package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.FusionOp;

/** A fusion op evaluated directly on the host (Set, Binary, Reduction, Matmul, Linear, Broadcast). */
public record HostOp(int id, FusionOp op) implements HostNode {
    public HostOp {
        Objects.requireNonNull(op);
    }
}
