package org.hostir.studio.trace;

/** What a timeline bar is; compute kinds count as compute in the overlap figures, the others do not. */
public enum EventKind {
    MATMUL(true), LINEAR(true), KERNEL(true), COMMUNICATION(false), P2P(false), COPY(false), ALLOC(false),
    SYNC(false), HOST(false);

    private final boolean compute;

    EventKind(boolean compute) { this.compute = compute; }

    public boolean isCompute() { return compute; }

    public boolean isCommunication() { return this == COMMUNICATION || this == P2P; }
}
