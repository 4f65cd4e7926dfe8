package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;

import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.lower.AgGemmSchedule;
import org.hostir.studio.lower.ConvertToCommunicationPass;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.StreamParallelTypePass;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * The AG+GEMM schedule as one lowering option (issue 38.1): each schedule lowers seed 000 exactly as its options
 * given one by one do, a contradicting option is refused by name, and changing an option it set by hand (as the
 * Lowering view does) leaves the schedule for the separate options.
 */
class AgGemmScheduleTest {
    @Test
    void eachScheduleLowersAsItsOptionsGivenOneByOne() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", 4, Map.of());
        for (AgGemmSchedule s : AgGemmSchedule.values()) {
            Map<String, String> separate = new HashMap<>();
            s.settings().forEach((o, v) -> separate.put(o.key(), o.format(v)));
            LoweringOptions chosen = SeedGeneration.options(Map.of("agGemmSchedule", s.toString()));
            assertEquals(s, chosen.agGemmSchedule());
            assertEquals(Runs.programs(loaded.fusion(), 4, SeedGeneration.options(separate)),
                    Runs.programs(loaded.fusion(), 4, chosen), s.toString());
        }
        assertNotEquals(Runs.programs(loaded.fusion(), 4, options("ring")),
                Runs.programs(loaded.fusion(), 4, options("allPairs")), "ring and all-pairs orders differ");
        assertEquals(true, options("ringForwarded").forwardLocalShard());
        // the copy engines are the option backend, beside any schedule
        assertEquals(CommunicatorBackend.CUDA, LoweringOptions.parse(Map.of("agGemmSchedule", "ringForwarded",
                "backend", "cuda")).backend());
    }

    @Test
    void anOptionThatContradictsTheScheduleIsRefusedByName() {
        LoweringException e = assertThrows(LoweringException.class, () -> LoweringOptions.parse(
                Map.of("agGemmSchedule", "ring", "offsetStreamIndexingByRank", "false")));
        assertEquals("option offsetStreamIndexingByRank: offsetStreamIndexingByRank=false contradicts"
                + " agGemmSchedule=ring, which sets offsetStreamIndexingByRank=true (give one or the other) [option]",
                e.getMessage());
        // agreeing with it is no contradiction
        assertEquals(AgGemmSchedule.RING, LoweringOptions.parse(Map.of("agGemmSchedule", "ring",
                "offsetStreamIndexingByRank", "true")).agGemmSchedule());
    }

    @Test
    void aScheduleChangedInTheViewReplacesTheOldOnesSettings() {
        LoweringOptions ring = options("ringForwarded").with(ConvertToCommunicationPass.BACKEND, CommunicatorBackend.CUDA);
        assertEquals(AgGemmSchedule.RING_FORWARDED, ring.agGemmSchedule());
        LoweringOptions allPairs = ring.with(StreamParallelTypePass.AG_GEMM_SCHEDULE, AgGemmSchedule.ALL_PAIRS);
        assertEquals(CommunicatorBackend.CUDA, allPairs.backend());
        assertEquals(false, allPairs.offsetStreamIndexingByRank());
        assertEquals(false, allPairs.forwardLocalShard());
        LoweringOptions byHand = allPairs.with(StreamParallelTypePass.OFFSET_STREAM_INDEXING_BY_RANK, true);
        assertEquals(AgGemmSchedule.OPTIONS, byHand.agGemmSchedule());
        assertEquals(true, byHand.offsetStreamIndexingByRank());
        assertEquals(LoweringOptions.parse(Map.of("offsetStreamIndexingByRank", "true", "backend", "cuda")).asMap(),
                byHand.with(StreamParallelTypePass.AG_GEMM_SCHEDULE, AgGemmSchedule.OPTIONS).asMap());
    }

    private static LoweringOptions options(String schedule) {
        return LoweringOptions.parse(Map.of("agGemmSchedule", schedule));
    }
}
