package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.launch.LauncherEnv;
import org.hostir.studio.file.LoadedFusion;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Launcher mode on 2 GPUs, both ranks in this JVM on two threads (the GPU script also starts two processes):
 * each rank has a backend of its own that drives one GPU, gets its NCCL communicators from ncclCommInitRank with
 * the unique id that rank 0 serves over loopback TCP, runs its program and validates its shard. Without two CUDA
 * devices the factory yields one skipped test.
 */
class CudaLauncherTest {
    private static final int WORLD = 2;

    @TestFactory
    Stream<DynamicTest> everyExampleRunsWithOneBackendPerRank() throws Exception {
        if (!CudaBackend.available(WORLD)) {
            return Stream.of(dynamicTest("launcher mode on 2 GPUs",
                    () -> Assumptions.assumeTrue(false, CudaSkip.message(2))));
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // one backend per rank for all examples, created together (ncclCommInitRank waits for every rank)
        ExecutorService pool = Executors.newFixedThreadPool(WORLD);
        List<Future<CudaBackend>> opening = new ArrayList<>();
        for (int r = 0; r < WORLD; r++) {
            LauncherEnv env = new LauncherEnv(r, WORLD, r, "127.0.0.1", port, port);
            opening.add(pool.submit(() -> CudaBackend.launched(env, 30_000)));
        }
        List<CudaBackend> backends = new ArrayList<>();
        for (Future<CudaBackend> f : opening) backends.add(f.get());
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : ExampleCoverageTest.examples()) {
            if (!ExampleCoverageTest.fits(example, WORLD)) continue;
            for (String allgather : List.of("collective", "p2p")) {
                Map<String, String> options = Map.of("allgather", allgather, "numberOfStreams", "2");
                tests.add(dynamicTest(example + " " + options, () -> {
                    LoadedFusion loaded = Runs.load(example, WORLD, Map.of());
                    CudaSkip.assumeKernels(loaded.fusion()); // here: an assumption in a rank's thread would be a failure
                    List<Future<RunResult>> ranks = new ArrayList<>();
                    for (CudaBackend b : backends) {
                        ranks.add(pool.submit(() -> Runs.run(loaded, WORLD, options, b, line -> { })));
                    }
                    for (int r = 0; r < WORLD; r++) {
                        RunResult result = ranks.get(r).get();
                        assertEquals(java.util.Set.of(r), result.programs().keySet());
                        assertTrue(result.validation().orElseThrow().passed(),
                                "rank " + r + ": " + result.validation().get().line());
                    }
                }));
            }
        }
        tests.add(dynamicTest("close: rank 0 serves ids until every rank has said goodbye", () -> {
            List<Future<?>> closing = new ArrayList<>();
            for (CudaBackend b : backends) closing.add(pool.submit(b::close));
            for (Future<?> f : closing) f.get();
            pool.shutdown();
        }));
        return tests.stream();
    }
}
