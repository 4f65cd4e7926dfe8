package org.hostir.studio.lower;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;


/**
 * The AG+GEMM schedule as one choice (issue 38): the P2P order (all pairs, nvFuser's, or a ring from the own rank),
 * the own shard's place (copied first, or forwarded in place) or the collective pipeline, so that the Studio shows it
 * as one field and {@code sweep --vary agGemmSchedule=allPairs,ring,ringForwarded --vary backend=nccl,cuda}
 * compares schedules rather than flag combinations. Copy engines or NCCL stay the option {@code backend}, declared
 * once by the communication pass: it is orthogonal to the order and applies to every schedule. Each schedule is declared here once, as the
 * values it gives the options that make it ({@link #settings}); {@link LoweringOptions} applies them, and an option
 * given beside a schedule that sets it otherwise is refused. {@code options}, the default, sets nothing: the
 * individual options decide, as before. What a schedule does not choose: the chunk count, which is D for the P2P
 * forms (one Stream iteration per device, fixed by the fusion's Stream axis) and the fusion's symbol S for the
 * collective pipeline (seed ag_matmul, {@code --set S=}), and the streams ({@code numberOfStreams}).
 */
public enum AgGemmSchedule {
    /** nvFuser's default P2P (seed 000): iteration i exchanges with rank i on every rank, own shard at position rank. */
    ALL_PAIRS(AllgatherLowering.P2P, false, false),
    /** Ring order: iteration i receives from (rank + i) % D and sends to (rank - i) % D; own shard first (a copy). */
    RING(AllgatherLowering.P2P, true, false),
    /** Ring order with the own shard used in place (no copy before the first GEMM). */
    RING_FORWARDED(AllgatherLowering.P2P, true, true),
    /** One Allgather, then the GEMM pipeline over its chunks: no P2P order. */
    COLLECTIVE(AllgatherLowering.COLLECTIVE, false, false),
    /** Nothing chosen here: the individual options decide (the default; last, so that no value follows it). */
    OPTIONS(null, null, null);

    private final AllgatherLowering allgather;
    private final Boolean offsetByRank;
    private final Boolean forwardLocalShard;

    AgGemmSchedule(AllgatherLowering allgather, Boolean offsetByRank, Boolean forwardLocalShard) {
        this.allgather = allgather;
        this.offsetByRank = offsetByRank;
        this.forwardLocalShard = forwardLocalShard;
    }

    /** The option values this schedule sets, by option (empty for {@link #OPTIONS}). */
    public Map<LoweringOption<?>, Object> settings() {
        Map<LoweringOption<?>, Object> m = new LinkedHashMap<>();
        if (this == OPTIONS) return m;
        m.put(StreamParallelTypePass.ALLGATHER, allgather);
        m.put(StreamParallelTypePass.OFFSET_STREAM_INDEXING_BY_RANK, offsetByRank);
        m.put(ForwardLocalShardPass.FORWARD_LOCAL_SHARD, forwardLocalShard);
        return m;
    }

    /** The {@code --option} spelling: {@code ringForwarded}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (String word : name().toLowerCase(Locale.ROOT).split("_")) {
            sb.append(sb.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return sb.toString();
    }
}
