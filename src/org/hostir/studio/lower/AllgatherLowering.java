package org.hostir.studio.lower;

/** How a set from a DIDx axis to a Stream axis (an allgather pipelined over streams) is lowered. */
public enum AllgatherLowering {
    /** One Allgather of the whole tensor before the consumers' loop: no overlap, the baseline. */
    COLLECTIVE,
    /** Seed 000: per iteration, a local copy on the own slice, else a coalesced recv/send pair. */
    P2P,
    /** Per iteration, a Broadcast rooted at the device that owns the slice. */
    BROADCAST
}
