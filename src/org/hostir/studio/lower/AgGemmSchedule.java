package org.hostir.studio.lower;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.hostir.studio.ir.host.CommunicatorBackend;

/**
 * The AG+GEMM schedule as one choice (issue 38), so that the Studio shows it as one field and {@code sweep --vary
 * agGemmSchedule=...} compares schedules rather than flag combinations. Each schedule is declared here once, as the
 * values it gives the options that make it ({@link #settings}); {@link LoweringOptions} applies them, and an option
 * given beside a schedule that sets it otherwise is refused. {@code options}, the default, sets nothing: the
 * individual options decide, as before. What a schedule does not choose: the chunk count, which is D for the P2P
 * forms (one Stream iteration per device, fixed by the fusion's Stream axis) and the fusion's symbol S for the
 * collective pipeline (seed ag_matmul, {@code --set S=}), and the streams ({@code numberOfStreams}).
 */
public enum AgGemmSchedule {
    /** Nothing chosen here: the individual options decide. */
    OPTIONS(null, null, null, null),
    /** One Allgather, then the GEMM pipeline over its chunks: no P2P order. */
    COLLECTIVE(AllgatherLowering.COLLECTIVE, CommunicatorBackend.NCCL, false, false),
    /** nvFuser's default P2P (seed 000): iteration i exchanges with rank i on every rank, own shard at position rank. */
    ALL_PAIRS(AllgatherLowering.P2P, CommunicatorBackend.NCCL, false, false),
    /** Ring order: iteration i receives from (rank + i) % D and sends to (rank - i) % D; own shard first (a copy). */
    RING(AllgatherLowering.P2P, CommunicatorBackend.NCCL, true, false),
    /** Ring order with the own shard used in place (no copy before the first GEMM). */
    RING_FORWARDED(AllgatherLowering.P2P, CommunicatorBackend.NCCL, true, true),
    /** All pairs over the copy engines (Host IR's backend=cuda) instead of NCCL. */
    COPY_ENGINE_ALL_PAIRS(AllgatherLowering.P2P, CommunicatorBackend.CUDA, false, false),
    /** Ring order over the copy engines. */
    COPY_ENGINE_RING(AllgatherLowering.P2P, CommunicatorBackend.CUDA, true, false),
    /** Ring order over the copy engines, own shard in place: the best measured on 2 x H200 (docs/benchmarks.md). */
    COPY_ENGINE_RING_FORWARDED(AllgatherLowering.P2P, CommunicatorBackend.CUDA, true, true);

    private final AllgatherLowering allgather;
    private final CommunicatorBackend backend;
    private final Boolean offsetByRank;
    private final Boolean forwardLocalShard;

    AgGemmSchedule(AllgatherLowering allgather, CommunicatorBackend backend, Boolean offsetByRank,
                   Boolean forwardLocalShard) {
        this.allgather = allgather;
        this.backend = backend;
        this.offsetByRank = offsetByRank;
        this.forwardLocalShard = forwardLocalShard;
    }

    /** The option values this schedule sets, by option (empty for {@link #OPTIONS}). */
    public Map<LoweringOption<?>, Object> settings() {
        Map<LoweringOption<?>, Object> m = new LinkedHashMap<>();
        if (this == OPTIONS) return m;
        m.put(StreamParallelTypePass.ALLGATHER, allgather);
        m.put(ConvertToCommunicationPass.BACKEND, backend);
        m.put(StreamParallelTypePass.OFFSET_STREAM_INDEXING_BY_RANK, offsetByRank);
        m.put(ForwardLocalShardPass.FORWARD_LOCAL_SHARD, forwardLocalShard);
        return m;
    }

    /** The {@code --option} spelling: {@code copyEngineRingForwarded}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (String word : name().toLowerCase(Locale.ROOT).split("_")) {
            sb.append(sb.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return sb.toString();
    }
}
