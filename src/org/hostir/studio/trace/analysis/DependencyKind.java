package org.hostir.studio.trace.analysis;

/**
 * Why one point of a run could not come before another: the edges of a {@link DependencyGraph}. HTA's critical
 * path analysis has the same families (operator span, kernel launch delay, kernel-kernel delay, synchronization
 * dependency); the multi-rank ones ({@link #PEER_ARRIVAL}, {@link #TRANSFER}) are what a run across ranks adds.
 */
public enum DependencyKind {
    /** A bar from its start to its end: the work itself. */
    WORK("work"),
    /** A communication's end after the last of its members (the peers of a collective, send and recv) began. */
    TRANSFER("communication after the last peer arrived"),
    /** A member's start to the moment the last member of its communication began. */
    PEER_ARRIVAL("waiting for a peer"),
    /** The host issues one call after another on its thread. */
    HOST_ORDER("host between dispatches"),
    /** A stream runs its work in order: the previous bar's end to the next one's start. */
    STREAM_ORDER("stream idle after the previous op"),
    /** A bar inside another (a kernel in its operator, a coalesced transfer in its group). */
    NESTING("in the enclosing op around a nested one"),
    /** The host call that issued a device bar to the bar's start: launch latency, or a stream the host starved. */
    LAUNCH("launch delay (waiting on the host)"),
    /** A bar that waited for another stream of its rank (an event record and wait, nvFuser's Synchronize). */
    STREAM_WAIT("waiting on another stream"),
    /** A host call that blocked until device work ended (a stream or device synchronize, a Wait). */
    HOST_SYNC("host blocked on the device"),
    /** From the run's start to a point nothing earlier explains (a rank's first call). */
    RUN_START("before the first call");

    private final String description;

    DependencyKind(String description) {
        this.description = description;
    }

    /** Words for reports: what the time of such an edge on the critical path was spent on. */
    public String description() { return description; }

    /** Whether the edge's time is a bar's own time (work or a transfer) rather than a gap between bars. */
    public boolean isWork() {
        return switch (this) {
            case WORK, TRANSFER -> true;
            case PEER_ARRIVAL, HOST_ORDER, STREAM_ORDER, NESTING, LAUNCH, STREAM_WAIT, HOST_SYNC, RUN_START -> false;
        };
    }
}
