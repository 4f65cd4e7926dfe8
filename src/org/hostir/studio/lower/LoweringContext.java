package org.hostir.studio.lower;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.NvFuserGeneration;

/**
 * What a per-rank pass knows besides the program: which rank it lowers for, how many devices, the options, and
 * once the program is per rank, the whole fusion every rank lowers ({@code fusion}, after the fusion passes; null
 * before), for decisions that must come out the same on every rank although each rank's program lacks the ops
 * that do not involve it.
 */
public record LoweringContext(int rank, int devices, LoweringOptions options, Fusion fusion) {
    public LoweringContext {
        if (devices < 1) throw new IllegalArgumentException("devices must be >= 1");
        if (rank < 0 || rank >= devices) throw new IllegalArgumentException("rank must be in 0.." + (devices - 1));
    }

    public LoweringContext(int rank, int devices, LoweringOptions options) { this(rank, devices, options, null); }

    /** The nvFuser revision this lowering follows. */
    public NvFuserGeneration generation() { return options.nvFuser(); }

    /** This context with the whole fusion of every rank. */
    public LoweringContext withFusion(Fusion whole) { return new LoweringContext(rank, devices, options, whole); }
}
