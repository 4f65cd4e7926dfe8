package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.trace.Breakdown;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The MoE examples (examples/moe/, issue 39) lower and validate against the unsharded reference on the CPU backend at
 * 1, 2, 4 and 8 devices (grouped_mm's sharded forms, whose N = 24 does not divide by 8, at 1, 2 and 4), with the run's
 * seeded router choosing the gathered tokens and the experts' offsets.
 */
class MoeExamplesTest {
    @ParameterizedTest
    @CsvSource({"moe/gather_tokens_column_parallel, 1", "moe/gather_tokens_column_parallel, 2",
            "moe/gather_tokens_column_parallel, 4", "moe/gather_tokens_column_parallel, 8",
            "moe/moe_router_expert_ffn_tp, 1", "moe/moe_router_expert_ffn_tp, 2", "moe/moe_router_expert_ffn_tp, 4",
            "moe/moe_router_expert_ffn_tp, 8", "moe/moe_topk_grouped_experts, 1", "moe/moe_topk_grouped_experts, 2",
            "moe/moe_topk_grouped_experts, 4", "moe/moe_topk_grouped_experts, 8",
            "moe/column_parallel_grouped_mm, 1", "moe/column_parallel_grouped_mm, 2", "moe/column_parallel_grouped_mm, 4",
            "moe/row_parallel_grouped_mm, 1", "moe/row_parallel_grouped_mm, 2", "moe/row_parallel_grouped_mm, 4",
            "moe/grouped_mlp, 1", "moe/grouped_mlp, 2", "moe/grouped_mlp, 4",
            "moe/moe_layer, 1", "moe/moe_layer, 2", "moe/moe_layer, 4"})
    void validatesOnTheCpuBackend(String example, int devices) throws Exception {
        RunResult r = Runs.run(example, devices, Map.of());
        assertTrue(r.validation().orElseThrow().passed(), example + " at " + devices + ": "
                + r.validation().orElseThrow().line());
    }

    /**
     * Issue 39, Deliver 4: each grouped_mm bar carries the rows of each expert, the differences of the run's
     * offsets (the seeded router's partition of the N = 12 sorted tokens among the E = 4 experts), on every rank.
     */
    @ParameterizedTest
    @CsvSource({"1", "2"})
    void groupedMmBarsCarryTheRowsOfEachExpert(int devices) throws Exception {
        RunResult r = Runs.run("moe/moe_topk_grouped_experts", devices, Map.of());
        DenseTensor offsets = r.inputs().values().stream().filter(t -> t.dtype() == DataType.INT32)
                .findFirst().orElseThrow();
        long[] ends = offsets.toLongArray();
        List<TimelineEvent> bars = r.timeline().events().stream().filter(e -> e.name().equals("grouped_mm")).toList();
        assertEquals(2 * devices, bars.size(), "two grouped_mm bars on each rank");
        for (TimelineEvent bar : bars) {
            Breakdown b = bar.breakdown().orElseThrow(() -> new AssertionError("no breakdown on " + bar));
            assertEquals(Breakdown.Unit.ROWS_PER_GROUP, b.unit());
            assertEquals(ends.length, b.counts().size(), "one count per expert");
            for (int g = 0; g < ends.length; g++) {
                assertEquals(ends[g] - (g == 0 ? 0 : ends[g - 1]), b.counts().get(g), "expert " + g + " of " + bar);
            }
            assertEquals(12, b.total(), "the N = 12 tokens");
        }
    }
}
