package org.hostir.studio.exec;

import java.util.Optional;

import org.hostir.studio.trace.Breakdown;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;

/**
 * What the timeline needs to know about an enqueued operation: the Host IR node that issued it, the loop
 * iteration, a name, the kind of bar, and bytes, flops, peer and breakdown where they apply.
 */
public record OpInfo(int nodeId, int iteration, String name, EventKind kind, long bytes, long flops, int peer,
                     Optional<Breakdown> breakdown) {
    public OpInfo(int nodeId, int iteration, String name, EventKind kind, long bytes, long flops, int peer) {
        this(nodeId, iteration, name, kind, bytes, flops, peer, Optional.empty());
    }

    public static OpInfo of(int nodeId, int iteration, String name, EventKind kind) {
        return new OpInfo(nodeId, iteration, name, kind, 0, 0, -1);
    }

    public OpInfo withBytes(long b) { return new OpInfo(nodeId, iteration, name, kind, b, flops, peer, breakdown); }

    public OpInfo withFlops(long f) { return new OpInfo(nodeId, iteration, name, kind, bytes, f, peer, breakdown); }

    public OpInfo withPeer(int p) { return new OpInfo(nodeId, iteration, name, kind, bytes, flops, p, breakdown); }

    public OpInfo withBreakdown(Breakdown b) {
        return new OpInfo(nodeId, iteration, name, kind, bytes, flops, peer, Optional.of(b));
    }

    /** The bar this operation makes, from {@code startNs} to {@code endNs} on a rank's stream. */
    public TimelineEvent event(int rank, int stream, long startNs, long endNs, long flowId) {
        return new TimelineEvent(rank, stream, kind, name, nodeId, iteration, startNs, endNs, bytes, flops, peer, flowId,
                breakdown);
    }
}
