package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Ranks that disagree on the GPUs (rank 0 posts an NCCL allgather, rank 1 sends and receives) end with a
 * diagnostic within the timeout, communicators aborted, instead of hanging. Its own backend, and in the GPU
 * script its own JVM, since aborted communicators are not reused.
 */
class CudaFailureTest {
    @Test
    void mismatchedCommunicationEndsWithADiagnostic() throws Exception {
        Assumptions.assumeTrue(CudaBackend.available(2), CudaSkip.message(2));
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", 2, Map.of());
        Map<Integer, HostIrContainer> programs = new HashMap<>();
        programs.put(0, Pipeline.standard().lower(loaded.fusion(), new LoweringContext(0, 2,
                SeedGeneration.options(Map.of("allgather", "collective")))));
        // rank 1 runs the P2P lowering of the same fusion (same inputs): its send/recv never match rank 0's
        // ncclAllGather, so both wait on their streams until the timeout aborts the communicators
        programs.put(1, Pipeline.standard().lower(loaded.fusion(), new LoweringContext(1, 2,
                SeedGeneration.options(Map.of("allgather", "p2p")))));
        RunConfig config = Runs.config(loaded, 2, Map.of()).withTimeout(3_000);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (CudaBackend backend = new CudaBackend(2, 3_000)) {
                // both programs once as meant, so NCCL has set up its connections (a first send/recv would
                // otherwise wait for the peer inside ncclGroupEnd, on the host, where no timeout reaches it)
                for (String allgather : new String[] {"collective", "p2p"}) {
                    var ok = Runs.run(loaded, 2, Map.of("allgather", allgather), backend, line -> { });
                    assertTrue(ok.validation().orElseThrow().passed());
                }
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> Runner.run(loaded.fusion(), programs, config, backend, line -> { }));
                assertTrue(e.getMessage().contains("rank"), e.getMessage());
                System.out.println("diagnostic: " + e.getMessage());
                assertTrue(backend.failure().isPresent());
            }
        });
    }
}
