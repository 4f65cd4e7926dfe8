package org.hostir.studio.trace;

import java.util.Objects;

/**
 * One operation on one rank and stream: a bar of the timeline. {@code stream} is the backend stream's index
 * ({@link #HOST_STREAM} for the host dispatch row); {@code nodeId} the Host IR node that issued it (-1 if none);
 * {@code iteration} the stream-loop iteration (-1 outside loops); {@code peer} the other rank of a p2p transfer
 * (-1 if none); {@code flowId} pairs a send with its receive (0 if none). Times are nanoseconds from the run's
 * start.
 */
public record TimelineEvent(int rank, int stream, EventKind kind, String name, int nodeId, int iteration,
                            long startNs, long endNs, long bytes, long flops, int peer, long flowId) {
    public static final int HOST_STREAM = -1;

    public TimelineEvent {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(name);
        if (endNs < startNs) throw new IllegalArgumentException("event ends before it starts: " + name);
    }

    public long durationNs() { return endNs - startNs; }
}
