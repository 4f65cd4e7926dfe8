package org.hostir.studio.tests.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.AllgatherLowering;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.StreamParallelTypePass;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 16, item 1: a fusion on a permuted mesh or on a sub-mesh of the run's devices either validates on the CPU
 * backend or is refused by check or lowering with a located diagnostic; never a wrong result, never a hang.
 * Every example is moved onto meshes [1, 0] (2 devices) and [3, 1], [2, 3], [0, 2] (4 devices), and a DIDx-to-Stream
 * set is tried with each allgather lowering.
 */
class MeshOrderTest {
    static final List<MeshVariant> VARIANTS = List.of(new MeshVariant(List.of(1, 0), 2),
            new MeshVariant(List.of(3, 1), 4), new MeshVariant(List.of(2, 3), 4), new MeshVariant(List.of(0, 2), 4));
    /** Short: a hang shows as a no-progress failure within seconds, not the default 20 s. */
    private static final long TIMEOUT_MILLIS = 5_000;

    @TestFactory
    Stream<DynamicTest> everyExampleOnEveryMeshValidatesOrIsRefused() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : examples()) {
            String text = Files.readString(file);
            for (MeshVariant variant : VARIANTS) {
                Optional<String> moved = variant.apply(text);
                if (moved.isEmpty()) continue;
                for (AllgatherLowering allgather : allgathers(text)) {
                    String name = TestPaths.repoRoot().relativize(file) + " " + variant.label() + " "
                            + allgather.name().toLowerCase();
                    tests.add(DynamicTest.dynamicTest(name, () -> validatesOrIsRefused(name, moved.get(), variant,
                            allgather)));
                }
            }
        }
        return tests.stream();
    }

    /** The reported bug itself: seed 000 on [1, 0] validates with every allgather lowering. */
    @TestFactory
    Stream<DynamicTest> seed000OnReversedMeshValidates() throws IOException {
        String text = Files.readString(TestPaths.repo("examples", "seeds", "ag_matmul_p2p.fusion"));
        return VARIANTS.stream().flatMap(v -> Stream.of(AllgatherLowering.values()).map(a -> DynamicTest.dynamicTest(
                v.label() + " " + a, () -> assertTrue(outcome(v.apply(text).orElseThrow(), v, a).validated(),
                        "ag_matmul_p2p on " + v.label() + " must validate"))));
    }

    /** On a permuted mesh the program names positions and device ids apart: nvFuser's DeviceMesh idxOf and at. */
    @org.junit.jupiter.api.Test
    void aReversedMeshPrintsItsLookups() throws Exception {
        String text = new MeshVariant(List.of(1, 0), 2).apply(Files.readString(
                TestPaths.repo("examples", "seeds", "ag_matmul_p2p.fusion"))).orElseThrow();
        LoadedFusion loaded = Engine.load(new FusionSource.Text(text, "reversed.fusion"), 2, Map.of());
        String p2p = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, 0));
        assertTrue(p2p.contains("IF Manual ( StreamIdx == DeviceMesh{1 0}.idxOf(rank) ):"), p2p);
        assertEquals(2, p2p.lines().filter(l -> l.contains("P2PCommunication")
                && l.endsWith("peer=DeviceMesh{1 0}.at(StreamIdx), backend=NCCL)")).count(), p2p);
        String broadcast = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS
                .with(StreamParallelTypePass.ALLGATHER, AllgatherLowering.BROADCAST), 1));
        assertTrue(broadcast.contains("team=(1 0), root=DeviceMesh{1 0}.at(StreamIdx)"), broadcast);
    }

    static void validatesOrIsRefused(String name, String text, MeshVariant variant, AllgatherLowering allgather) {
        Outcome o = outcome(text, variant, allgather);
        if (o.validated()) return;
        EngineFailure e = o.failure().orElseThrow(() -> new AssertionError(name + ": wrong result: " + o.detail()));
        if (e.kind() != EngineFailure.Kind.BAD_INPUT) fail(name + ": accepted, then failed at run time: " + o.detail());
        System.out.println("refused: " + name + ": " + String.join("; ", e.lines()));
        for (Diagnostic d : e.diagnostics()) {
            assertTrue(d.line() > 0, name + ": a refusal names the file line: " + d);
            assertFalse(d.rule().isBlank(), name + ": a refusal names its rule: " + d);
        }
    }

    record Outcome(boolean validated, Optional<EngineFailure> failure, String detail) {}

    static Outcome outcome(String text, MeshVariant variant, AllgatherLowering allgather) {
        LoweringOptions options = SeedGeneration.DEFAULTS.with(StreamParallelTypePass.ALLGATHER, allgather);
        try {
            LoadedFusion loaded = Engine.load(new FusionSource.Text(text, "moved.fusion"), variant.devices(),
                    Map.of());
            RunRequest cpu = RunRequest.cpu(variant.devices(), options);
            RunRequest request = new RunRequest(cpu.backend(), cpu.devices(), options, 1, 0, true, cpu.seed(),
                    TIMEOUT_MILLIS, false, Optional.empty(), false);
            RunResult r = Engine.run(loaded, BackendPlan.choose(request, "moved.fusion"), line -> { });
            var v = r.validation().orElseThrow();
            return new Outcome(v.passed(), Optional.empty(), v.line());
        } catch (EngineFailure e) {
            return new Outcome(false, Optional.of(e), String.join("; ", e.lines()));
        }
    }

    /** Only a fusion with a DIDx-to-Stream set has a choice of allgather lowering. */
    private static List<AllgatherLowering> allgathers(String text) {
        return text.contains("\"Stream\"") && text.contains("\"DIDx\"") ? List.of(AllgatherLowering.values())
                : List.of(AllgatherLowering.P2P);
    }

    static List<Path> examples() throws IOException {
        try (Stream<Path> files = Files.walk(TestPaths.repo("examples"))) {
            return files.filter(p -> p.toString().endsWith(".fusion")).sorted().toList();
        }
    }
}
