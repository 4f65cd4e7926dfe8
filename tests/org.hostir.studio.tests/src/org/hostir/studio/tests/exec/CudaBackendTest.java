package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.P2pProtocol;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every example on 2 GPUs (or {@code -Dhirstudio.test.devices=N}, e.g. 4 on a four-GPU machine) through the CUDA backend, validated against the unsharded reference, with several
 * lowering variants and in bf16 and half as well; the timeline keeps the CPU backend's conventions. Without two
 * CUDA devices every test is skipped with "skipped: no CUDA device".
 */
class CudaBackendTest {
    private static final int DEVICES = Integer.getInteger("hirstudio.test.devices", 2);
    private static CudaBackend backend;
    private static CudaBackend copyEngine;
    /** backend=cuda under nvFuser's Put protocol: the sender pushes (PeerCopies). */
    private static CudaBackend copyEnginePut;

    private static final String NO_GPU = CudaSkip.message(DEVICES);

    @BeforeAll
    static void open() {
        if (CudaBackend.available(DEVICES)) {
            backend = new CudaBackend(DEVICES, 30_000);
            copyEngine = new CudaBackend(DEVICES, 30_000, true);
            copyEnginePut = new CudaBackend(DEVICES, 30_000, true);
            copyEnginePut.setP2pProtocol(P2pProtocol.PUT);
        }
    }

    /** Without GPUs a factory yields one skipped test, so reports count and name the skip (a class-level
     *  assumption shows as "0 tests run" in surefire). */
    private static Stream<DynamicTest> skipped(String what) {
        return Stream.of(dynamicTest(what, () -> Assumptions.assumeTrue(false, NO_GPU)));
    }

    @AfterAll
    static void close() {
        if (backend != null) backend.close();
        if (copyEngine != null) copyEngine.close();
        if (copyEnginePut != null) copyEnginePut.close();
    }

    private static List<Map<String, String>> variants() {
        List<Map<String, String>> out = new ArrayList<>();
        for (String streams : List.of("1", "4")) {
            for (String allgather : List.of("p2p", "broadcast", "collective")) {
                for (String offset : List.of("false", "true")) {
                    out.add(Map.of("numberOfStreams", streams, "allgather", allgather,
                            "offsetStreamIndexingByRank", offset));
                }
            }
        }
        out.add(Map.of("numberOfStreams", "2", "insertDeallocations", "true"));
        return out;
    }

    private static RunResult run(LoadedFusion loaded, Map<String, String> options) {
        return Runs.run(loaded, DEVICES, options, backend, line -> { });
    }

    @TestFactory
    Stream<DynamicTest> everyExampleValidatesOnTwoGpus() throws Exception {
        if (backend == null) return skipped("every example on 2 GPUs");
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : ExampleCoverageTest.examples()) {
            if (!ExampleCoverageTest.fits(example, DEVICES)) continue;
            for (Map<String, String> options : variants()) {
                tests.add(dynamicTest(example + " " + options, () -> {
                    RunResult r = run(Runs.load(example, DEVICES, Map.of()), options);
                    assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                }));
            }
        }
        return tests.stream();
    }

    /** Host IR's backend=cuda: point-to-point as copy-engine peer copies ordered by cross-device events. */
    @TestFactory
    Stream<DynamicTest> copyEnginePointToPointValidates() throws Exception {
        if (backend == null) return skipped("copy-engine p2p on 2 GPUs");
        return copyEngineRuns(ExampleCoverageTest.examples(), "allgather", "p2p", copyEngine);
    }

    /**
     * nvFuser's Put protocol (p2pProtocol=put: the lowering posts the recv first, the sender pushes into the
     * receiver's buffer on its own stream) validates as Get does, over the examples that move point to point.
     */
    @TestFactory
    Stream<DynamicTest> copyEnginePutProtocolValidates() throws Exception {
        if (backend == null) return skipped("copy-engine p2p, put protocol, on 2 GPUs");
        return copyEngineRuns(List.of("parallelism/matmul_rs_p2p", "seeds/ag_matmul_p2p", "seeds/allgather_p2p",
                "communication/send_recv"), "p2pProtocol", "put", copyEnginePut);
    }

    /** Each example that fits, with and without offsetStreamIndexingByRank and {@code key=value}, on {@code b}. */
    private static Stream<DynamicTest> copyEngineRuns(List<String> examples, String key, String value, CudaBackend b)
            throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : examples) {
            if (!ExampleCoverageTest.fits(example, DEVICES)) continue;
            for (String offset : List.of("false", "true")) {
                Map<String, String> options = Map.of("backend", "cuda", key, value,
                        "offsetStreamIndexingByRank", offset, "numberOfStreams", "2");
                tests.add(dynamicTest(example + " " + options, () -> CopyEngineRuns.validatesOrIsNcclOnly(() -> {
                    LoadedFusion loaded = Runs.load(example, DEVICES, Map.of());
                    return Runs.run(loaded, DEVICES, options, b, line -> { });
                })));
            }
        }
        return tests.stream();
    }

    /**
     * The checks of what moved between ranks, after a run validated: on one GPU (-Dhirstudio.test.devices=1, a
     * one-GPU machine) every team is a team of one and nothing moves, so they are skipped and say why.
     */
    private static void assumeTeams(String what) {
        Assumptions.assumeTrue(DEVICES >= 2, "one GPU: teams of one move nothing, so " + what + " are not checked");
    }

    /**
     * With backend=cuda an Allreduce or ReduceScatter that sums runs on the copy engines (CopyEngineCollectives)
     * and validates, in float and bf16, pipelined or not; a min Allreduce stays on NCCL.
     */
    @TestFactory
    Stream<DynamicTest> copyEngineCollectivesValidate() throws Exception {
        if (backend == null) return skipped("copy-engine collectives on 2 GPUs");
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : List.of("seeds/matmul_ar", "seeds/allreduce", "seeds/reduce_scatter",
                "seeds/matmul_rs_through_bcast")) {
            for (String dtype : List.of("float", "bfloat16")) {
                for (String streams : List.of("1", "4")) {
                    tests.add(dynamicTest(example + " " + dtype + " streams " + streams, () -> {
                        LoadedFusion loaded = dtype.equals("float") ? Runs.load(example, DEVICES, Map.of())
                                : Runs.loadAs(example, dtype, DEVICES);
                        long before = copyEngine.copyEngineCollectives();
                        RunResult r = Runs.run(loaded, DEVICES, Map.of("backend",
                                "cuda", "numberOfStreams", streams), copyEngine, line -> { });
                        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                        assumeTeams("which path a collective takes");
                        assertTrue(copyEngine.copyEngineCollectives() > before, "posted through NCCL");
                    }));
                }
            }
        }
        tests.add(dynamicTest("a min Allreduce stays on NCCL", () -> {
            LoadedFusion loaded = Runs.load("ops/allreduce_min", DEVICES, Map.of());
            long before = copyEngine.copyEngineCollectives();
            RunResult r = Runs.run(loaded, DEVICES, Map.of("backend", "cuda"), copyEngine, line -> { });
            assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
            assertEquals(before, copyEngine.copyEngineCollectives());
        }));
        return tests.stream();
    }

    /**
     * The P2P matmul+ReduceScatter (examples/parallelism/matmul_rs_p2p, nvFuser's RSMatmulTest.ReduceScatterP2p)
     * in float and bf16: NCCL send/recv and copy-engine transfers (backend=cuda: ShareMemHandles' pair), nvFuser's
     * order and the own slice last; the batched GEMM, the local copy and the sum over the received partials on
     * the GPU.
     */
    @TestFactory
    Stream<DynamicTest> p2pReduceScatterValidates() throws Exception {
        if (backend == null) return skipped("P2P matmul+ReduceScatter on 2 GPUs");
        List<DynamicTest> tests = new ArrayList<>();
        for (String dtype : List.of("float", "bfloat16")) {
            for (String transport : List.of("nccl", "cuda")) {
                for (String ownLast : List.of("false", "true")) {
                    Map<String, String> options = Map.of("offsetStreamIndexingByRank", "true", "backend", transport,
                            "p2pOwnSliceLast", ownLast, "numberOfStreams", "2");
                    tests.add(dynamicTest(dtype + " " + options, () -> {
                        LoadedFusion loaded = dtype.equals("float")
                                ? Runs.load("parallelism/matmul_rs_p2p", DEVICES, Map.of())
                                : Runs.loadAs("parallelism/matmul_rs_p2p", dtype, DEVICES);
                        RunResult r = Runs.run(loaded, DEVICES, options, transport.equals("cuda") ? copyEngine : backend, line -> { });
                        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                        assumeTeams("point-to-point bars");
                        assertTrue(r.timeline().events().stream().anyMatch(e -> e.kind() == EventKind.P2P),
                                "the partials moved point to point");
                    }));
                }
            }
        }
        return tests.stream();
    }

    /** The matmul and linear examples again with every tensor in bf16 and in half (cuBLAS tensor-core paths). */
    @TestFactory
    Stream<DynamicTest> reducedPrecisionValidates() throws Exception {
        if (backend == null) return skipped("bf16 and half on 2 GPUs");
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : List.of("seeds/ag_matmul", "seeds/ag_matmul_p2p", "seeds/ag_linear", "mlp_two_layer",
                "seeds/matmul_ar", "transpose_add")) {
            for (String dtype : List.of("bfloat16", "half")) {
                tests.add(dynamicTest(example + " " + dtype, () -> {
                    RunResult r = run(Runs.loadAs(example, dtype, DEVICES), Map.of("numberOfStreams", "2"));
                    assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                }));
            }
        }
        return tests.stream();
    }

    /** Send and recv bars as on the CPU backend: names, a shared non-zero flow id, GPU bars on their streams. */
    @Test
    void timelineFollowsTheCpuConventions() throws Exception {
        Assumptions.assumeTrue(backend != null, NO_GPU);
        RunResult r = run(Runs.load("seeds/ag_matmul_p2p", DEVICES, Map.of()), Map.of());
        assumeTeams("send and recv bars");
        List<TimelineEvent> p2p = r.timeline().events().stream().filter(e -> e.kind() == EventKind.P2P).toList();
        assertTrue(!p2p.isEmpty(), "no P2P bars");
        for (TimelineEvent e : p2p) {
            assertTrue(e.name().startsWith("send") || e.name().startsWith("recv"), e.name());
            assertTrue(e.flowId() != 0, e.toString());
            long partners = p2p.stream().filter(o -> o.flowId() == e.flowId() && o.rank() != e.rank()).count();
            assertEquals(1, partners, "one partner for " + e);
            assertTrue(e.endNs() >= e.startNs(), e.toString());
        }
        assertTrue(r.timeline().events().stream().anyMatch(e -> e.kind() == EventKind.MATMUL));
    }
}
