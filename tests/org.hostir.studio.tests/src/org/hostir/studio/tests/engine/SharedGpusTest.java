package org.hostir.studio.tests.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.cuda.CudaKernels;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * Ranks sharing one GPU have no NCCL: a collective among them is refused before the run, located at its op
 * (found on the H100: `run --share-gpus` of the allgather and allreduce seeds failed on the first iteration).
 * The plan is built as {@code BackendPlan.choose} builds it on a one-GPU machine, so no GPU is needed here.
 */
class SharedGpusTest {
    private static EngineFailure refused(String example, Map<String, String> options) throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.File(TestPaths.repo("examples", "seeds", example)), 2,
                Map.of());
        RunRequest request = new RunRequest(RunRequest.BackendChoice.AUTO, 2, SeedGeneration.options(options), 1, 0,
                true, 1, 10_000, true, Optional.empty(), false);
        BackendPlan oneGpu = new BackendPlan(BackendPlan.Kind.CUDA_SHARING_GPUS, 1, request, null);
        return assertThrows(EngineFailure.class, () -> Engine.run(loaded, oneGpu, line -> { }));
    }

    @Test
    void aCollectiveAmongRanksSharingAGpuIsRefusedAtItsOp() throws Exception {
        for (String example : new String[] {"allgather.fusion", "allreduce.fusion", "matmul_ar.fusion"}) {
            EngineFailure e = refused(example, Map.of("backend", "cuda"));
            assertEquals(EngineFailure.Kind.BAD_INPUT, e.kind(), example);
            Diagnostic d = e.diagnostics().getFirst();
            assertEquals("run.share-gpus", d.rule(), example);
            assertTrue(d.line() > 0, example + ": " + d.format());
            assertTrue(d.message().contains("share 1 GPU") && d.message().contains("among ranks [0, 1]"),
                    d.format());
            assertEquals(1, e.lines().size(), example);
        }
    }

    /**
     * Since issue 39 the CUDA backend has a kernel for every op of the MoE examples (index_select, take_along_axis,
     * topk, scatter, grouped_mm), which the up-front check refused before: none of their ops is declared kernel-less.
     */
    @Test
    void theMoeExamplesOpsAllHaveCudaKernels() throws Exception {
        int ops = 0;
        for (String example : new String[] {"gather_tokens_column_parallel.fusion", "moe_router_expert_ffn_tp.fusion",
                "moe_topk_grouped_experts.fusion", "grouped_mlp.fusion"}) {
            LoadedFusion loaded = Engine.load(new FusionSource.File(TestPaths.repo("examples", "moe", example)), 2,
                    Map.of());
            for (var op : loaded.fusion().ops()) {
                assertEquals(Optional.empty(), CudaKernels.missing(op), example + ": " + op.opName());
                ops++;
            }
        }
        assertTrue(ops > 10, "ops looked at: " + ops);
    }
}
