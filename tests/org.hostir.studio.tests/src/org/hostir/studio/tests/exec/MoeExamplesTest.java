package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.hostir.studio.exec.RunResult;
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
            "moe/grouped_mlp, 1", "moe/grouped_mlp, 2", "moe/grouped_mlp, 4"})
    void validatesOnTheCpuBackend(String example, int devices) throws Exception {
        RunResult r = Runs.run(example, devices, Map.of());
        assertTrue(r.validation().orElseThrow().passed(), example + " at " + devices + ": "
                + r.validation().orElseThrow().line());
    }
}
