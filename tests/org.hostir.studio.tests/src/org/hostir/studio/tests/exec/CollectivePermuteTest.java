package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.ir.IterTransform;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.ir.print.IrText;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

/**
 * The swizzle1d loop step and the CollectivePermute it selects (nvFuser's newest getCommunicationInfoForParallelType,
 * lowerToCollectivePermute, dispatchSwizzle1D, postCollectivePermute): printed per rank as nvFuser's lowering
 * builds it, run on the CPU backend against the unsharded reference, nvFuser's rejections, and the file format.
 */
class CollectivePermuteTest {

    /** The allgather of ReshardingTest.Swizzle1D_DIDToStream on logical axes: [DIDx{D}, T, K] to [Stream{D}, T, K]. */
    private static String fusion(String outLoop, String outMesh, String inMesh) {
        return """
                {"format": "hostir-fusion/2", "name": "cp", "symbols": {"T": 3, "K": 2},
                 "tensors": [
                  {"name": "x", "dtype": "float", "axes": ["D", "T", "K"], "mesh": %s,
                   "loop": [{"parallelize": 0, "type": "DIDx"}]},
                  {"name": "y", "dtype": "float", "axes": ["D", "T", "K"], "mesh": %s,
                   "loop": %s}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y"}], "inputs": ["x"], "outputs": ["y"]}
                """.formatted(inMesh, outMesh, outLoop);
    }

    private static final String SWIZZLED = "[{\"swizzle1d\": 0, \"type\": \"DIDx\"}, {\"parallelize\": 0, \"type\": \"Stream\"}]";

    private static LoadedFusion load(String text, int devices) throws Exception {
        return Engine.load(new FusionSource.Text(text, "cp.fusion"), devices, Map.of());
    }

    private static String lowered(LoadedFusion loaded, int rank, Map<String, String> options) throws Exception {
        return HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.options(options), rank));
    }

    private static RunResult run(LoadedFusion loaded, int devices) throws Exception {
        try (CpuBackend backend = new CpuBackend(devices, 10_000)) {
            return Runs.run(loaded, devices, Map.of(), backend, s -> { });
        }
    }

    @Test
    void eachRankPrintsDispatchSwizzle1dPeersWithItsTeamIndex() throws Exception {
        LoadedFusion loaded = load(fusion(SWIZZLED, "\"all\"", "\"all\""), 4);
        for (int k = 0; k < 4; k++) {
            String program = lowered(loaded, k, Map.of());
            String peers = "team=(0 1 2 3), send_peer=( ( 4 + ( " + k + " - StreamIdx ) ) % 4 ), recv_peer=( ( StreamIdx + "
                    + k + " ) % 4 ), input=T0_g_float[ideviceIdx.x0{i0}";
            assertTrue(program.contains(peers), "rank " + k + ":\n" + program);
            // the output's slice is the swizzled one, (i + k) % n, as ShardByStream computes it
            assertTrue(program.contains("index = ( ( StreamIdx + " + k + " ) % 4 ) )"), program);
            assertTrue(program.matches("(?s).*CollectivePermute (\\d+) \\(.*\\n\\s*Wait Communication \\1\\n.*"), program);
            assertFalse(program.contains("P2PCommunication") || program.contains("type=Broadcast"), program);
        }
    }

    @Test
    void theGatheredTensorEqualsTheUnshardedReferenceAtEveryDeviceCount() throws Exception {
        for (int d : new int[] {1, 2, 3, 4, 8}) {
            LoadedFusion loaded = load(fusion(SWIZZLED, "\"all\"", "\"all\""), d);
            RunResult r = run(loaded, d);
            assertTrue(r.validation().orElseThrow().passed(), d + " devices: " + r.validation().orElseThrow().line());
        }
    }

    /**
     * test_column_parallel_linear_forward[collective_permute] counts d - 1 NCCL SendRecv kernels per rank: at
     * iteration 0 each rank copies its own shard; at i it sends to (n + k - i) % n and receives from (i + k) % n.
     */
    @Test
    void eachRankSendsAndReceivesDMinusOneTimesToItsSwizzlePeers() throws Exception {
        int d = 4;
        RunResult r = run(load(fusion(SWIZZLED, "\"all\"", "\"all\""), d), d);
        for (int k = 0; k < d; k++) {
            List<TimelineEvent> events = r.timeline().of(k);
            List<String> expected = new ArrayList<>();
            for (int i = 1; i < d; i++) {
                expected.add(i + ": send to " + (d + k - i) % d);
                expected.add(i + ": recv from " + (i + k) % d);
            }
            // iterations run on several streams: compare by iteration, not in time order
            assertEquals(expected.stream().sorted().toList(), events.stream().filter(e -> e.kind() == EventKind.P2P)
                    .map(e -> e.iteration() + ": " + e.name()).sorted().toList(), "rank " + k);
            assertEquals(1, events.stream().filter(e -> e.kind() == EventKind.COPY
                    && e.name().equals("CollectivePermute")).count(), "rank " + k + ": the local copy at i = 0");
        }
    }

    @Test
    void theColumnParallelLinearExampleValidatesAtTwoFourAndEight() throws Exception {
        for (int d : new int[] {2, 4, 8}) {
            RunResult r = Runs.run("parallelism/column_parallel_linear_collective_permute", d, Map.of());
            assertTrue(r.validation().orElseThrow().passed(), d + " devices: " + r.validation().orElseThrow().line());
        }
    }

    /** Without the swizzle the same set keeps the project's allgather forms (nvFuser's newest picks Broadcast). */
    @Test
    void withoutASwizzleTheAllgatherIsNoCollectivePermute() throws Exception {
        LoadedFusion loaded = load(fusion("[{\"parallelize\": 0, \"type\": \"Stream\"}]", "\"all\"", "\"all\""), 4);
        assertFalse(lowered(loaded, 1, Map.of()).contains("CollectivePermute"));
        String broadcast = lowered(loaded, 1, Map.of("allgather", "broadcast"));
        assertTrue(broadcast.contains("type=Broadcast") && !broadcast.contains("CollectivePermute"), broadcast);
        // the swizzle selects CollectivePermute whatever the allgather option says
        LoadedFusion swizzled = load(fusion(SWIZZLED, "\"all\"", "\"all\""), 4);
        for (String option : List.of("p2p", "broadcast", "collective")) {
            assertTrue(lowered(swizzled, 1, Map.of("allgather", option)).contains("CollectivePermute "), option);
        }
    }

    private static Diagnostic refusal(String text, int devices, Map<String, String> options) throws Exception {
        EngineFailure e = assertThrows(EngineFailure.class,
                () -> Engine.check(load(text, devices), SeedGeneration.options(options)));
        return e.diagnostics().getFirst();
    }

    @Test
    void nvFusersRejectionsComeWithRuleAndLine() throws Exception {
        // getCommunicationInfoForParallelType's NVF_CHECK(same_mesh) comes before lowerToCollectivePermute's
        Diagnostic mesh = refusal(fusion(SWIZZLED, "[1, 0]", "[0, 1]"), 2, Map.of());
        assertEquals("mesh.stream-allgather", mesh.rule(), mesh.message());
        assertEquals(7, mesh.line(), mesh.toString()); // the set's line
        Diagnostic backend = refusal(fusion(SWIZZLED, "\"all\"", "\"all\""), 2, Map.of("backend", "cuda"));
        assertEquals("sharding.collective-permute-backend", backend.rule(), backend.message());
        assertTrue(backend.line() > 0, backend.toString());
        // DIDy swizzles need a mesh axis for DIDy (the file check says so first); a 2-D mesh's team (the whole mesh) and peers (along one type)
        // disagree, so CollectivePermute stays on 1-D meshes
        String didy = fusion(SWIZZLED.replace("\"swizzle1d\": 0, \"type\": \"DIDx\"", "\"swizzle1d\": 0, \"type\": \"DIDy\""),
                "\"all\"", "\"all\"");
        EngineFailure noAxis = assertThrows(EngineFailure.class, () -> load(didy, 2));
        assertEquals("loop.swizzle-extent", noAxis.diagnostics().getFirst().rule());
        String grid = fusion(SWIZZLED, "[[0, 1], [2, 3]]", "[[0, 1], [2, 3]]").replace("\"D\", \"T\", \"K\"", "2, \"T\", \"K\"");
        assertEquals("sharding.mesh-2d", refusal(grid, 4, Map.of()).rule());
    }

    @Test
    void aSwizzleByAStreamTypeIsRefusedWhereItIsWritten() throws Exception {
        String text = fusion("[{\"swizzle1d\": 0, \"type\": \"Stream\"}]", "\"all\"", "\"all\"");
        EngineFailure e = assertThrows(EngineFailure.class, () -> load(text, 2));
        Diagnostic d = e.diagnostics().getFirst();
        assertEquals("loop.swizzle1d", d.rule(), d.toString());
        assertEquals(6, d.line(), d.toString());
    }

    /** ReshardingTest.Swizzle1D_ConsistentSwizzle: a swizzled and a plain Stream axis in one loop disagree. */
    @Test
    void aLoopMixingSwizzledAndPlainStreamAxesIsRefused() throws Exception {
        String text = """
                {"format": "hostir-fusion/2", "name": "mix", "symbols": {"T": 3},
                 "tensors": [
                  {"name": "x", "dtype": "float", "axes": ["D", "T"], "mesh": "all", "loop": [{"parallelize": 0, "type": "DIDx"}]},
                  {"name": "y", "dtype": "float", "axes": ["D", "T"], "mesh": "all",
                   "loop": [{"swizzle1d": 0, "type": "DIDx"}, {"parallelize": 0, "type": "Stream"}]},
                  {"name": "z", "dtype": "float", "axes": ["D", "T"], "mesh": "all", "loop": [{"parallelize": 0, "type": "Stream"}]}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y"}, {"op": "add", "inputs": ["y", "y"], "output": "z"}],
                 "inputs": ["x"], "outputs": ["z"]}
                """;
        Diagnostic d = refusal(text, 2, Map.of());
        assertEquals("stream.swizzle", d.rule(), d.toString());
        // swizzled alike, the same loop lowers and computes the reference
        LoadedFusion alike = load(text.replace("\"loop\": [{\"parallelize\": 0, \"type\": \"Stream\"}]}],",
                "\"loop\": [{\"swizzle1d\": 0, \"type\": \"DIDx\"}, {\"parallelize\": 0, \"type\": \"Stream\"}]}],"), 4);
        RunResult r = run(alike, 4);
        assertTrue(r.validation().orElseThrow().passed(), r.validation().orElseThrow().line());
    }

    /**
     * Found by LoweredImpliesCorrectTest (case e4e348, shrunk): a Broadcast from one device into swizzled slices
     * ran and gave a wrong answer, rank 0 sending slice i while rank 1 received into slice (i + 1) % 2.
     */
    @Test
    void aCollectiveOnSwizzledSlicesIsRefused() throws Exception {
        String text = """
                {"format": "hostir-fusion/2", "name": "e4e348",
                 "tensors": [
                  {"name": "x", "dtype": "float", "axes": [2, 2], "mesh": [0]},
                  {"name": "y", "dtype": "float", "axes": [2, 2], "mesh": [0]},
                  {"name": "z", "dtype": "float", "axes": [2, 2], "mesh": [0, 1],
                   "loop": [{"swizzle1d": 0, "type": "DIDx"}, {"parallelize": 0, "type": "Stream"}]}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y"}, {"op": "set", "inputs": ["y"], "output": "z"}],
                 "inputs": ["x"], "outputs": ["z"]}
                """;
        Diagnostic d = refusal(text, 2, Map.of());
        assertEquals("stream.swizzle-collective", d.rule(), d.toString());
        assertEquals(5, d.line(), d.toString()); // z's line
        // without the swizzle the same fusion lowers and validates
        RunResult r = run(load(text.replace("{\"swizzle1d\": 0, \"type\": \"DIDx\"}, ", ""), 2), 2);
        assertTrue(r.validation().orElseThrow().passed(), r.validation().orElseThrow().line());
    }

    @Test
    void swizzle1dPrintsAsNvFuserAndSurvivesTheFileRoundTrip() throws Exception {
        String text = fusion(SWIZZLED, "\"all\"", "\"all\"");
        LoadedFusion loaded = load(text, 4);
        TensorView y = loaded.fusion().outputs().getFirst();
        IterTransform.Swizzle1D z = (IterTransform.Swizzle1D) y.loop().transforms().getFirst();
        // D is the first symbol, i0; the swizzle's output is a fresh iter domain, Stream-parallel in the loop domain
        assertEquals("iS" + z.out().id() + "{i0} = Swizzle1D(iS" + z.in().id() + "{i0}, parallelType=deviceIdx.x)",
                IrText.swizzle1d(z));
        assertTrue(z.out().id() != z.in().id());
        assertEquals("iStreamIdx" + z.out().id() + "{i0} = Swizzle1D(iS" + z.in().id() + "{i0}, parallelType=deviceIdx.x)",
                IrText.swizzle1d(z, y.loop()));
        assertTrue(IrText.tensor(y).startsWith("T1_g_float[iStreamIdx" + z.out().id() + "{i0}, "), IrText.tensor(y));
        var doc = FusionReader.read(text, "cp.fusion").document();
        String written = FusionWriter.write(doc);
        assertTrue(written.contains("{\"swizzle1d\": 0, \"type\": \"DIDx\"}"), written);
        var again = FusionReader.read(written, "cp2.fusion").document();
        assertEquals(doc.tensors(), again.tensors());
        assertEquals(new LoopStep.Swizzle1D(0, org.hostir.studio.ir.ParallelType.DIDX),
                again.tensors().get(1).loop().getFirst());
    }

    /** {@code hirstudio check} shows each swizzle under its tensor, as nvFuser's Swizzle1D::toString prints it. */
    @Test
    void checkPrintsTheSwizzlesOfTheExample() throws Exception {
        CliRun check = CliRun.of("check", RepoPaths.repo().resolve(
                "examples/parallelism/column_parallel_linear_collective_permute.fusion").toString(), "--devices", "4");
        assertEquals(0, check.code(), check.err());
        // nvFuser's schedule: the swizzle takes the outer part of outer_split(0, d), extent d
        assertTrue(check.out().matches("(?s).*\\n\\s+iStreamIdx(\\d+)\\{4\\} = Swizzle1D\\(iS\\d+\\{4\\},"
                + " parallelType=deviceIdx\\.x\\)\\n.*"), check.out());
        assertEquals(2, check.out().split("= Swizzle1D\\(", -1).length - 1, check.out());
    }

    @Test
    void theDumpReaderReadsACollectivePermuteBack() throws Exception {
        String printed = lowered(load(fusion(SWIZZLED, "\"all\"", "\"all\""), 4), 2, Map.of());
        ParsedDump d = HostIrDumpReader.read(printed);
        assertTrue(d.opaqueNodes().isEmpty(), d.warnings().toString());
        assertEquals(printed, d.reprint());
    }

    @Test
    void exportsWriteTheSwizzleAsNvFusersCall() throws Exception {
        LoadedFusion loaded = load(fusion(SWIZZLED, "\"all\"", "\"all\""), 4);
        String cpp = Engine.export(loaded, Engine.ExportLanguage.CPP);
        assertTrue(cpp.contains("->swizzle1d(0, ParallelType::DIDx)"), cpp);
        String python = Engine.export(loaded, Engine.ExportLanguage.PYTHON);
        assertTrue(python.contains(".swizzle1d(0, nvfuser.ParallelType.mesh_x)"), python);
    }
}
