package org.hostir.studio.ir;

import java.util.Objects;

/**
 * One axis of a TensorView. The extent is the logical (unsharded) one; a DID-parallel axis of extent D holds
 * one slice per device, so a rank's local tensor has extent 1 there (nvFuser's convention).
 */
public record IterDomain(int id, Extent extent, IterType iterType, ParallelType parallelType) {
    public IterDomain {
        if (id < 0) throw new IllegalArgumentException("iter domain id must be >= 0");
        Objects.requireNonNull(extent, "extent");
        Objects.requireNonNull(iterType, "iterType");
        Objects.requireNonNull(parallelType, "parallelType");
    }

    public boolean isReduction() { return iterType == IterType.REDUCTION; }

    public boolean isBroadcast() { return iterType == IterType.BROADCAST; }

    public boolean isDeviceDim() { return parallelType.isDeviceDim(); }

    public boolean isStream() { return parallelType == ParallelType.STREAM; }

    /** The extent a rank allocates: 1 on a device-parallel axis, the logical extent otherwise. */
    public Extent localExtent() { return isDeviceDim() ? new Extent.Constant(1) : extent; }

    public IterDomain withId(int newId) { return new IterDomain(newId, extent, iterType, parallelType); }

    public IterDomain withParallelType(ParallelType p) { return new IterDomain(id, extent, iterType, p); }
}
