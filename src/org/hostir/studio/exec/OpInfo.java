package org.hostir.studio.exec;

import org.hostir.studio.trace.EventKind;

/**
 * What the timeline needs to know about an enqueued operation: the Host IR node that issued it, the loop
 * iteration, a name, the kind of bar, and bytes, flops and peer where they apply.
 */
public record OpInfo(int nodeId, int iteration, String name, EventKind kind, long bytes, long flops, int peer) {
    public static OpInfo of(int nodeId, int iteration, String name, EventKind kind) {
        return new OpInfo(nodeId, iteration, name, kind, 0, 0, -1);
    }

    public OpInfo withBytes(long b) { return new OpInfo(nodeId, iteration, name, kind, b, flops, peer); }

    public OpInfo withFlops(long f) { return new OpInfo(nodeId, iteration, name, kind, bytes, f, peer); }

    public OpInfo withPeer(int p) { return new OpInfo(nodeId, iteration, name, kind, bytes, flops, p); }
}
