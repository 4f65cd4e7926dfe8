package org.hostir.studio.trace;

import java.util.Objects;
import java.util.Optional;

/**
 * One operation on one rank and stream: a bar of the timeline. {@code stream} is the backend stream's index
 * ({@link #HOST_STREAM} for the host dispatch row); {@code nodeId} the Host IR node that issued it (-1 if none);
 * {@code iteration} the stream-loop iteration (-1 outside loops); {@code peer} the other rank of a p2p transfer
 * (-1 if none); {@code flowId} pairs a send with its receive (0 if none); {@code breakdown} splits the bar's
 * work over ranks or groups where the backend knows it (MoE exchanges, grouped_mm). Times are nanoseconds from
 * the run's start.
 */
public record TimelineEvent(int rank, int stream, EventKind kind, String name, int nodeId, int iteration,
                            long startNs, long endNs, long bytes, long flops, int peer, long flowId,
                            Optional<Breakdown> breakdown) {
    public static final int HOST_STREAM = -1;

    public TimelineEvent {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(name);
        Objects.requireNonNull(breakdown);
        if (endNs < startNs) throw new IllegalArgumentException("event ends before it starts: " + name);
    }

    /** A bar without a breakdown. */
    public TimelineEvent(int rank, int stream, EventKind kind, String name, int nodeId, int iteration,
                         long startNs, long endNs, long bytes, long flops, int peer, long flowId) {
        this(rank, stream, kind, name, nodeId, iteration, startNs, endNs, bytes, flops, peer, flowId, Optional.empty());
    }

    /** This bar with another flow id (a reader pairing sends with receives), its breakdown kept. */
    public TimelineEvent withFlowId(long id) {
        return new TimelineEvent(rank, stream, kind, name, nodeId, iteration, startNs, endNs, bytes, flops, peer, id,
                breakdown);
    }

    public long durationNs() { return endNs - startNs; }
}
