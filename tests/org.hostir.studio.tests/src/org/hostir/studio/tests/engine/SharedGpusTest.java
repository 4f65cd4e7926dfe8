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
     * An op the CUDA backend has no kernel for (index_select, issue 39) is refused before a CUDA run opens a device,
     * at its op (on 4 x H200 a run failed on it instead and aborted the shared backend for every later GPU test).
     */
    @Test
    void anOpWithoutACudaKernelIsRefusedAtItsOpBeforeTheRun() throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.File(TestPaths.repo("examples", "moe",
                "gather_tokens_column_parallel.fusion")), 2, Map.of());
        RunRequest request = new RunRequest(RunRequest.BackendChoice.CUDA, 2, SeedGeneration.options(Map.of()), 1, 0,
                true, 1, 10_000, true, Optional.empty(), false);
        BackendPlan twoGpus = new BackendPlan(BackendPlan.Kind.CUDA, 2, request, null);
        EngineFailure e = assertThrows(EngineFailure.class, () -> Engine.run(loaded, twoGpus, line -> { }));
        assertEquals(EngineFailure.Kind.BAD_INPUT, e.kind());
        Diagnostic d = e.diagnostics().getFirst();
        assertEquals("run.cuda-kernel", d.rule(), d.format());
        assertEquals(14, d.line(), d.format());
        assertTrue(d.message().startsWith("index_select of T2: the CUDA backend has no index_select kernel"),
                d.format());
    }
}
