package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.ShareMemHandles;
import org.hostir.studio.ir.host.Wait;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * The P2P ReduceScatter after a matmul (nvFuser's newest "MM + RS p2p" branch of processForLoopBodies,
 * RSMatmulTest.ReduceScatterP2p; examples/parallelism/matmul_rs_p2p): which iteration copies locally, that every
 * send meets its receiver's recv in the same iteration, the CUDA backend's deferred Wait on the send, the CPU run
 * against the unsharded reference with both backends and both orders (the project's p2pOwnSliceLast), and the
 * refusals.
 */
class ReduceScatterP2pTest {
    private static final String EXAMPLE = "parallelism/matmul_rs_p2p";
    private static final Map<String, String> OFFSET = Map.of("offsetStreamIndexingByRank", "true");

    private static Map<String, String> with(Map<String, String> options, String key, String value) {
        Map<String, String> m = new java.util.HashMap<>(options);
        m.put(key, value);
        return m;
    }

    /** The main stream loop of a rank's program: the last top-level FOR (the first only syncs streams). */
    private static ForLoop loop(HostIrContainer program) {
        ForLoop last = null;
        for (HostNode n : program.topLevel()) if (n instanceof ForLoop f) last = f;
        return last;
    }

    private static IfThenElse exchange(ForLoop loop) {
        return loop.body().stream().filter(n -> n instanceof IfThenElse i && !i.thenBody().isEmpty())
                .map(n -> (IfThenElse) n).findFirst().orElseThrow();
    }

    private static P2PCommunication p2p(IfThenElse exchange, P2PCommunication.Type type) {
        return exchange.elseBody().stream().filter(n -> n instanceof P2PCommunication p && p.type() == type)
                .map(n -> (P2PCommunication) n).findFirst().orElseThrow();
    }

    /** For each rank, the iterations in which it copies its own partial instead of exchanging. */
    private static List<List<Integer>> localIterations(int devices, Map<String, String> options) throws Exception {
        LoadedFusion loaded = Runs.load(EXAMPLE, devices, Map.of());
        List<List<Integer>> out = new ArrayList<>();
        for (int rank = 0; rank < devices; rank++) {
            IfThenElse ex = exchange(loop(Engine.lowerRank(loaded, SeedGeneration.options(options), rank)));
            ScalarEnv env = new ScalarEnv(loaded.bindings().asMap(), rank, 4);
            List<Integer> local = new ArrayList<>();
            for (int i = 0; i < devices; i++) {
                env.bind(NamedScalar.STREAM_IDX, i);
                if (env.eval(ex.predicate()) != 0) local.add(i);
            }
            out.add(local);
        }
        return out;
    }

    @Test
    void theOwnPartialIsCopiedFirstAsInNvFuserAndLastWithP2pOwnSliceLast() throws Exception {
        for (int d : new int[] {2, 3, 4}) {
            for (List<Integer> local : localIterations(d, OFFSET)) assertEquals(List.of(0), local, "D=" + d);
            for (List<Integer> local : localIterations(d, with(OFFSET, "p2pOwnSliceLast", "true"))) {
                assertEquals(List.of(d - 1), local, "D=" + d + " own slice last");
            }
        }
    }

    @Test
    void everySendMeetsItsPeersRecvInTheSameIteration() throws Exception {
        int d = 4;
        LoadedFusion loaded = Runs.load(EXAMPLE, d, Map.of());
        for (Map<String, String> options : List.of(OFFSET, with(OFFSET, "p2pOwnSliceLast", "true"))) {
            long[][] sendTo = new long[d][d];
            long[][] recvFrom = new long[d][d];
            for (int rank = 0; rank < d; rank++) {
                IfThenElse ex = exchange(loop(Engine.lowerRank(loaded, SeedGeneration.options(options), rank)));
                ScalarEnv env = new ScalarEnv(loaded.bindings().asMap(), rank, 4);
                for (int i = 0; i < d; i++) {
                    env.bind(NamedScalar.STREAM_IDX, i);
                    sendTo[rank][i] = env.eval(p2p(ex, P2PCommunication.Type.SEND).peer());
                    recvFrom[rank][i] = env.eval(p2p(ex, P2PCommunication.Type.RECV).peer());
                }
            }
            for (int rank = 0; rank < d; rank++) {
                for (int i = 0; i < d; i++) {
                    int peer = (int) sendTo[rank][i];
                    assertEquals(rank, recvFrom[peer][i], options + ": rank " + rank + " iteration " + i);
                }
            }
        }
    }

    @Test
    void theCudaBackendSharesHandlesAndWaitsForTheSendAtTheLoopsEnd() throws Exception {
        LoadedFusion loaded = Runs.load(EXAMPLE, 2, Map.of());
        ForLoop loop = loop(Engine.lowerRank(loaded, SeedGeneration.options(with(OFFSET, "backend", "cuda")), 0));
        IfThenElse ex = exchange(loop);
        P2PCommunication send = p2p(ex, P2PCommunication.Type.SEND);
        P2PCommunication recv = p2p(ex, P2PCommunication.Type.RECV);
        List<HostNode> remote = ex.elseBody();
        ShareMemHandles share = (ShareMemHandles) remote.get(0);
        assertEquals(List.of(recv, send), share.communications());
        assertEquals(List.of(share, send, recv), remote.subList(0, 3), "the Get protocol: send, then recv");
        assertEquals(recv.id(), ((Wait) remote.get(3)).communicationId());
        // the epilogue: an IF on the same predicate whose else-body waits for the send, before the stream switch
        int end = loop.body().size() - 2;
        assertTrue(loop.body().get(end) instanceof SetCurrentStream, loop.body().toString());
        IfThenElse deferred = (IfThenElse) loop.body().get(end - 1);
        assertEquals(ex.predicate(), deferred.predicate());
        assertTrue(deferred.thenBody().isEmpty());
        assertEquals(send.id(), ((Wait) deferred.elseBody().getFirst()).communicationId());
    }

    /** The CUDA form printed as nvFuser prints it reads back (ShareMemHandles with its P2P nodes) and reprints alike. */
    @Test
    void theCudaFormReadsBackFromItsDump() throws Exception {
        LoadedFusion loaded = Runs.load(EXAMPLE, 2, Map.of());
        String printed = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.options(with(OFFSET, "backend",
                "cuda")), 1));
        assertTrue(printed.contains("ShareMemHandles(P2PCommunication "), printed);
        ParsedDump d = HostIrDumpReader.read(printed);
        assertTrue(d.opaqueNodes().isEmpty(), d.warnings().toString());
        assertEquals(printed, d.reprint());
        ShareMemHandles share = (ShareMemHandles) d.program().allNodes().stream()
                .filter(n -> n instanceof ShareMemHandles).findFirst().orElseThrow();
        assertEquals(List.of(P2PCommunication.Type.RECV, P2PCommunication.Type.SEND),
                share.communications().stream().map(P2PCommunication::type).toList());
    }

    @Test
    void validatesOnTheCpuWithBothBackendsAndBothOrders() throws Exception {
        for (int d : new int[] {2, 3, 4, 8}) {
            for (String backend : List.of("nccl", "cuda")) {
                for (String ownLast : List.of("false", "true")) {
                    Map<String, String> options = with(with(OFFSET, "backend", backend), "p2pOwnSliceLast", ownLast);
                    RunResult r = Runs.run(EXAMPLE, d, options);
                    assertTrue(r.validation().orElseThrow().passed(), "D=" + d + " " + options + ": "
                            + r.validation().get().line());
                }
            }
        }
    }

    /**
     * nvFuser asserts when offset_stream_indexing_by_rank is off ("Will fail if false"); no other order pairs the
     * transfers, so this lowering starts each rank at its own slice whatever the option says (docs/conformance.md).
     */
    @Test
    void withoutOffsetByRankTheSameProgramIsLowered() throws Exception {
        LoadedFusion loaded = Runs.load(EXAMPLE, 3, Map.of());
        for (int rank = 0; rank < 3; rank++) {
            assertEquals(HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.options(OFFSET), rank)),
                    HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, rank)));
        }
        assertEquals(List.of(List.of(0), List.of(0), List.of(0)), localIterations(3, Map.of()));
    }

    /**
     * The received partials hold slot (D + rank - i) % D after iteration i, not the iteration's slice: an op that
     * reads them over their Stream axis must not join the loop (it did, and was refused as a swizzle mismatch),
     * but runs in a loop of its own once every slot is in.
     */
    @Test
    void anOpReadingTheReceivedPartialsRunsInALoopOfItsOwn() throws Exception {
        String text = Files.readString(RepoPaths.repo().resolve("examples").resolve(EXAMPLE + ".fusion"))
                .replace("    {\n      \"name\": \"c\",", "    {\"name\": \"r2\", \"dtype\": \"float\", \"axes\":"
                        + " [{\"extent\": \"D\", \"parallel\": \"Stream\"}, {\"extent\": \"D\", \"parallel\":"
                        + " \"DIDx\"}, \"M\", \"N\"], \"mesh\": \"all\"},\n    {\n      \"name\": \"c\",")
                .replace("{\"op\": \"sum\", \"inputs\": [\"received\"]", "{\"op\": \"set\", \"inputs\":"
                        + " [\"received\"], \"output\": \"r2\"},\n    {\"op\": \"sum\", \"inputs\": [\"r2\"]");
        assertTrue(text.contains("\"output\": \"r2\""), text);
        for (int d : new int[] {2, 3, 4}) {
            LoadedFusion loaded = Engine.load(new FusionSource.Text(text, "rs_consumer.fusion"), d, Map.of());
            long loops = Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, 0).topLevel().stream()
                    .filter(n -> n instanceof ForLoop).count();
            assertEquals(4, loops, "two stream loops, each with its stream sync loop, D=" + d);
            try (var cpu = new org.hostir.studio.exec.cpu.CpuBackend(d, 10_000)) {
                RunResult r = Runs.run(loaded, d, Map.of(), cpu, line -> { });
                assertTrue(r.validation().orElseThrow().passed(), "D=" + d + ": " + r.validation().get().line());
            }
        }
    }

    /**
     * An Allreduce of the partials in the same loop (a sum over their DIDx axis, Stream-parallel like them) needs
     * every rank at the same slice, the P2P ReduceScatter each at its own: refused with its rule and line.
     */
    @Test
    void aCollectiveInTheSameLoopIsRefused() throws Exception {
        String text = Files.readString(RepoPaths.repo().resolve("examples").resolve(EXAMPLE + ".fusion"))
                .replace("    {\n      \"name\": \"c\",", "    {\"name\": \"s\", \"dtype\": \"float\", \"axes\":"
                        + " [{\"extent\": \"D\", \"iter\": \"reduction\"}, {\"extent\": \"D\", \"parallel\":"
                        + " \"Stream\"}, \"M\", \"N\"], \"mesh\": \"all\"},\n    {\n      \"name\": \"c\",")
                .replace("{\"op\": \"sum\", \"inputs\": [\"received\"]", "{\"op\": \"sum\", \"inputs\":"
                        + " [\"partials\"], \"output\": \"s\", \"axes\": [0]},\n    {\"op\": \"sum\", \"inputs\": [\"received\"]")
                .replace("\"outputs\": [\"c\"]", "\"outputs\": [\"c\", \"s\"]");
        assertTrue(text.contains("\"output\": \"s\""), text);
        LoadedFusion loaded = Engine.load(new FusionSource.Text(text, "rs_allreduce.fusion"), 2, Map.of());
        EngineFailure e = assertThrows(EngineFailure.class, () -> Engine.check(loaded, SeedGeneration.DEFAULTS));
        assertEquals("stream.reduce-scatter-p2p", e.diagnostics().getFirst().rule(), e.lines().toString());
        assertTrue(e.diagnostics().getFirst().line() > 0, e.lines().toString());
    }

    /**
     * On a mesh other than {0 .. n-1} the positions are looked up in the mesh (nvFuser uses the device id as both,
     * the same on {0 .. n-1}): a permuted mesh and a part of the devices, with the ranks outside it idle.
     */
    @Test
    void aPermutedOrPartialMeshValidates() throws Exception {
        String example = Files.readString(RepoPaths.repo().resolve("examples").resolve(EXAMPLE + ".fusion"));
        record Case(String mesh, int devices, String text) {}
        List<Case> cases = List.of(
                new Case("[2, 0, 3, 1]", 4, example.replace("\"mesh\": \"all\"", "\"mesh\": [2, 0, 3, 1]")),
                new Case("[3, 1, 4]", 5, example.replace("\"mesh\": \"all\"", "\"mesh\": [3, 1, 4]")
                        .replace("\"D\"", "3")));
        for (Case c : cases) {
            LoadedFusion loaded = Engine.load(new FusionSource.Text(c.text(), "rs_mesh.fusion"), c.devices(), Map.of());
            String program = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, 3));
            assertTrue(program.contains("DeviceMesh{" + c.mesh().replaceAll("[\\[\\],]", "") + "}.idxOf(rank)"),
                    program);
            for (String backend : List.of("nccl", "cuda")) {
                Map<String, String> options = Map.of("backend", backend, "p2pOwnSliceLast", "true");
                try (var cpu = new org.hostir.studio.exec.cpu.CpuBackend(c.devices(), 10_000)) {
                    RunResult r = Runs.run(loaded, c.devices(), options, cpu, line -> { });
                    assertTrue(r.validation().orElseThrow().passed(), c + " " + options + ": "
                            + r.validation().get().line());
                }
            }
        }
    }

    /** On a 2-D mesh the exchange has no one peer order: refused with its rule, not lowered. */
    @Test
    void aTwoDimensionalMeshIsRefused() throws Exception {
        String example = Files.readString(RepoPaths.repo().resolve("examples").resolve(EXAMPLE + ".fusion"));
        String text = example.replace("\"mesh\": \"all\"", "\"mesh\": [[0, 1], [2, 3]]").replace("\"D\"", "2")
                .replace("hostir-fusion/1", "hostir-fusion/2");
        LoadedFusion loaded = Engine.load(new FusionSource.Text(text, "rs_2d.fusion"), 4, Map.of());
        EngineFailure e = org.junit.jupiter.api.Assertions.assertThrows(EngineFailure.class,
                () -> Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, 0));
        assertEquals("stream.reduce-scatter-p2p-mesh", e.diagnostics().getFirst().rule(), e.getMessage());
        assertEquals(27, e.diagnostics().getFirst().line(), "the set's line in the file");
    }
}
