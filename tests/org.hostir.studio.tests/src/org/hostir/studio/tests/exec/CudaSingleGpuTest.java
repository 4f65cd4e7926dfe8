package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.trace.EventKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every example whose meshes fit on one device, run on one GPU through the CUDA backend and validated against
 * the unsharded reference: the generated kernels, cuBLASLt, the stream and event handling and the teams of one
 * (a collective of one rank is a local copy) on any machine with a GPU, also where no second GPU is lent; and
 * two ranks per GPU ({@link CudaBackend#sharingGpus}) for the copy-engine P2P schedules. The two-GPU suite is
 * {@link CudaBackendTest}. Without a CUDA device every test is skipped with "skipped: no CUDA
 * device".
 */
class CudaSingleGpuTest {
    private static final String NO_GPU = CudaSkip.message(1);
    private static CudaBackend backend;
    private static CudaBackend copyEngine;
    /** Twice as many ranks as GPUs, sharing them (run --share-gpus). */
    private static CudaBackend sharing;

    @BeforeAll
    static void open() {
        if (CudaBackend.available(1)) {
            backend = new CudaBackend(1, 30_000);
            copyEngine = new CudaBackend(1, 30_000, true);
            sharing = CudaBackend.sharingGpus(2 * CudaBackend.localDeviceCount(), 30_000);
        }
    }

    @AfterAll
    static void close() {
        if (backend != null) backend.close();
        if (copyEngine != null) copyEngine.close();
        if (sharing != null) sharing.close();
    }

    private static Stream<DynamicTest> skipped(String what) {
        return Stream.of(dynamicTest(what, () -> Assumptions.assumeTrue(false, NO_GPU)));
    }

    private static RunResult run(CudaBackend on, LoadedFusion loaded, Map<String, String> options) {
        return run(on, 1, loaded, options);
    }

    private static RunResult run(CudaBackend on, int ranks, LoadedFusion loaded, Map<String, String> options) {
        return Runs.run(loaded, ranks, options, on, line -> { });
    }

    @TestFactory
    Stream<DynamicTest> everyExampleValidatesOnOneGpu() throws Exception {
        if (backend == null) return skipped("every example on 1 GPU");
        List<Map<String, String>> variants = List.of(Map.of(), Map.of("numberOfStreams", "1"),
                Map.of("allgather", "collective"), Map.of("numberOfStreams", "2", "insertDeallocations", "true"),
                Map.of("allgather", "p2p", "offsetStreamIndexingByRank", "true", "forwardLocalShard", "true"));
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : ExampleCoverageTest.examples()) {
            if (!ExampleCoverageTest.fits(example, 1)) continue;
            for (Map<String, String> options : variants) {
                tests.add(dynamicTest(example + " " + options, () -> {
                    RunResult r = run(backend, Runs.load(example, 1, Map.of()), options);
                    assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                }));
            }
            tests.add(dynamicTest(example + " copy-engine backend", () -> CopyEngineRuns.validatesOrIsNcclOnly(
                    () -> run(copyEngine, Runs.load(example, 1, Map.of()), Map.of("backend", "cuda")))));
        }
        return tests.stream();
    }

    /** The matmul, linear and pointwise examples with every tensor in bf16, in half and in double. */
    @TestFactory
    Stream<DynamicTest> otherPrecisionsValidateOnOneGpu() throws Exception {
        if (backend == null) return skipped("bf16, half and double on 1 GPU");
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : List.of("seeds/ag_matmul", "seeds/ag_matmul_p2p", "seeds/ag_linear", "mlp_two_layer",
                "seeds/matmul_ar", "transpose_add", "seeds/reduce_scatter")) {
            for (String dtype : List.of("bfloat16", "half", "double")) {
                tests.add(dynamicTest(example + " " + dtype, () -> {
                    RunResult r = run(backend, Runs.loadAs(example, dtype, 1), Map.of("numberOfStreams", "2"));
                    assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                }));
            }
        }
        return tests.stream();
    }

    /**
     * Ranks sharing GPUs: the P2P schedules over the copy engines validate, offset by rank or not, with the local
     * shard forwarded or not, in float and bf16.
     */
    @TestFactory
    Stream<DynamicTest> ranksSharingGpusValidate() throws Exception {
        if (backend == null) return skipped("ranks sharing a GPU");
        int ranks = sharing.deviceCount();
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : List.of("seeds/ag_matmul_p2p", "seeds/allgather_p2p", "ag_matmul_p2p_bf16")) {
            for (String offset : List.of("false", "true")) {
                for (String forward : List.of("false", "true")) {
                    Map<String, String> options = Map.of("backend", "cuda", "allgather", "p2p",
                            "offsetStreamIndexingByRank", offset, "forwardLocalShard", forward);
                    tests.add(dynamicTest(example + " on " + ranks + " ranks " + options, () -> {
                        RunResult r = run(sharing, ranks, Runs.load(example, ranks, Map.of()), options);
                        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                        assertEquals(ranks, r.timeline().events().stream().map(e -> e.rank()).distinct().count());
                    }));
                }
            }
        }
        return tests.stream();
    }

    /**
     * fp8 operands at sizes cuBLASLt's fp8 kernels take (multiples of 16) run on its fp8 path, not widened, and
     * validate; at the example's own sizes (8 columns) its rules do not hold and the operands are widened.
     */
    @Test
    void fp8MatmulRunsOnCublasLtsFp8Path() throws Exception {
        Assumptions.assumeTrue(backend != null, NO_GPU);
        long before = backend.fp8Gemms();
        RunResult r = run(backend, Runs.load("ops/fp8_linear_tp", 1, Map.of("M", 64L, "Kx", 128L, "N", 96L)),
                Map.of());
        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
        long after = backend.fp8Gemms();
        assertTrue(after > before, "the fp8 matmul ran widened");
        RunResult small = run(backend, Runs.load("ops/fp8_linear_tp", 1, Map.of()), Map.of());
        assertTrue(small.validation().orElseThrow().passed(), small.validation().get().line());
        assertEquals(after, backend.fp8Gemms(), "8 columns are not a multiple of 16: widened");
    }

    /** A collective of two ranks that share a GPU needs NCCL, which refuses them: a diagnostic, not a hang. */
    @Test
    void aCollectiveOfRanksSharingAGpuIsRefused() throws Exception {
        Assumptions.assumeTrue(backend != null, NO_GPU);
        int ranks = 2 * CudaBackend.localDeviceCount();
        try (CudaBackend shared = CudaBackend.sharingGpus(ranks, 10_000)) {
            LoadedFusion loaded = Runs.load("seeds/allgather", ranks, Map.of());
            ExecutionException e = assertThrows(ExecutionException.class, () -> run(shared, ranks, loaded,
                    Map.of("allgather", "collective")));
            assertTrue(e.getMessage().contains("NCCL needs one GPU per rank"), e.getMessage());
        }
    }

    /** One rank's device bars: matmuls on the worker streams, every bar inside the run and of positive length. */
    @Test
    void timelineHasTheMatmulsOfEveryStreamIteration() throws Exception {
        Assumptions.assumeTrue(backend != null, NO_GPU);
        LoadedFusion loaded = Runs.load("seeds/ag_matmul", 1, Map.of());
        RunResult r = run(backend, loaded, Map.of("numberOfStreams", "2"));
        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
        var matmuls = r.timeline().events().stream().filter(e -> e.kind() == EventKind.MATMUL).toList();
        long streamIterations = Runs.config(loaded, 1, Map.of()).symbols().get("S");
        assertEquals(streamIterations, matmuls.stream().map(e -> e.iteration()).distinct().count(),
                "one matmul bar per stream iteration: " + matmuls);
        assertTrue(matmuls.stream().allMatch(e -> e.stream() > 0 && e.endNs() > e.startNs()), matmuls.toString());
        assertEquals(List.of(0), r.timeline().events().stream().map(e -> e.rank()).distinct().toList());
    }
}
