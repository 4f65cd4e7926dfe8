package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.hostir.studio.exec.RunResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The MoE examples (examples/moe/, issue 39) lower and validate against the unsharded reference on the CPU backend at
 * 1, 2, 4 and 8 devices, with the run's seeded router choosing the gathered tokens.
 */
class MoeExamplesTest {
    @ParameterizedTest
    @CsvSource({"moe/gather_tokens_column_parallel, 1", "moe/gather_tokens_column_parallel, 2",
            "moe/gather_tokens_column_parallel, 4", "moe/gather_tokens_column_parallel, 8",
            "moe/moe_router_expert_ffn_tp, 1", "moe/moe_router_expert_ffn_tp, 2", "moe/moe_router_expert_ffn_tp, 4",
            "moe/moe_router_expert_ffn_tp, 8", "moe/moe_topk_grouped_experts, 1", "moe/moe_topk_grouped_experts, 2",
            "moe/moe_topk_grouped_experts, 4", "moe/moe_topk_grouped_experts, 8"})
    void validatesOnTheCpuBackend(String example, int devices) throws Exception {
        RunResult r = Runs.run(example, devices, Map.of());
        assertTrue(r.validation().orElseThrow().passed(), example + " at " + devices + ": "
                + r.validation().orElseThrow().line());
    }
}
