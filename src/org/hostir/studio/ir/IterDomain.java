package org.hostir.studio.ir;

import java.util.Objects;

/**
 * One axis of a TensorView. The extent is the logical (unsharded) one; a DID-parallel axis of extent D holds
 * one slice per device, so a rank's local tensor has extent 1 there (nvFuser's convention).
 *
 * <p>{@code expanded} marks an expand's output axis made from a broadcast one: nvFuser keeps it a broadcast of
 * extent 1 with an expanded extent ({@code IterDomainBuilder::expanded_extent}, printed {@code bS5{1 ex i3}}).
 * Here the axis has the expanded extent itself (the backends materialize it, where nvFuser gives a stride of 0:
 * the same values), so every rule sees an ordinary axis; only the printing and the dump reader use the mark.
 */
public record IterDomain(int id, Extent extent, IterType iterType, ParallelType parallelType, boolean expanded) {
    public IterDomain {
        if (id < 0) throw new IllegalArgumentException("iter domain id must be >= 0");
        Objects.requireNonNull(extent, "extent");
        Objects.requireNonNull(iterType, "iterType");
        Objects.requireNonNull(parallelType, "parallelType");
        if (expanded && iterType != IterType.ITERATION) {
            throw new IllegalArgumentException("an expanded axis is an iteration axis of its expanded extent");
        }
    }

    public IterDomain(int id, Extent extent, IterType iterType, ParallelType parallelType) {
        this(id, extent, iterType, parallelType, false);
    }

    public boolean isReduction() { return iterType == IterType.REDUCTION; }

    public boolean isBroadcast() { return iterType == IterType.BROADCAST; }

    public boolean isDeviceDim() { return parallelType.isDeviceDim(); }

    public boolean isStream() { return parallelType == ParallelType.STREAM; }

    /** The extent a rank allocates: 1 on a device-parallel axis, the logical extent otherwise. */
    public Extent localExtent() { return isDeviceDim() ? new Extent.Constant(1) : extent; }

    public IterDomain withId(int newId) { return new IterDomain(newId, extent, iterType, parallelType, expanded); }

    public IterDomain withParallelType(ParallelType p) { return new IterDomain(id, extent, iterType, p, expanded); }

    /** This axis marked as (or no longer) an expanded broadcast. */
    public IterDomain withExpanded(boolean value) { return new IterDomain(id, extent, iterType, parallelType, value); }
}
