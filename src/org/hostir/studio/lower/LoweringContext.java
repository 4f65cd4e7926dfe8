package org.hostir.studio.lower;

/** What a per-rank pass knows besides the program: which rank it lowers for, how many devices, the options. */
public record LoweringContext(int rank, int devices, LoweringOptions options) {
    public LoweringContext {
        if (devices < 1) throw new IllegalArgumentException("devices must be >= 1");
        if (rank < 0 || rank >= devices) throw new IllegalArgumentException("rank must be in 0.." + (devices - 1));
    }
}
