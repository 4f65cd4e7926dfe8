package org.hostir.studio.exec;

/**
 * A device without tensor data whose MoE routing is declared rather than read (the simulator's routing model,
 * docs/simulation.md "Mixture of experts"): {@link MoeExchange} asks it for each rank's per-expert token counts
 * instead of downloading {@code topk_idx}, and moves buffers of the sizes they give.
 */
public interface ModelledRouting {
    /**
     * Tokens rank {@code rank}'s batch of {@code tokens} sends to each of {@code experts} experts, capacity applied,
     * at node {@code nodeId}.
     */
    long[] tokensPerExpert(int rank, long tokens, int experts, int nodeId);

    /** What a dispatch exchanged, kept under its {@code n_tokens_to_rank} buffer for the combine that undoes it. */
    record Exchanged(long[] toRank, long[] fromRank, long tokens) {}

    void remember(Buffer tokensToRank, Exchanged exchanged);

    /** The dispatch that wrote {@code tokensToRank}; an ExecutionException if none did. */
    Exchanged recall(Buffer tokensToRank);
}
