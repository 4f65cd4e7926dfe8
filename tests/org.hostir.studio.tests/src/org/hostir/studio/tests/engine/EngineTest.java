package org.hostir.studio.tests.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/** The engine service every front end shares: load, bind, lower, plan a backend, run; failures as diagnostics. */
class EngineTest {
    private static final Path P2P = TestPaths.repo("examples", "seeds", "ag_matmul_p2p.fusion");

    @Test
    void loadsFromAPathOrTextTheSameWayAndBindsOverrides() throws Exception {
        LoadedFusion fromPath = Engine.load(new FusionSource.File(P2P), 2, Map.of("M", 16L));
        LoadedFusion fromText = Engine.load(new FusionSource.Text(Files.readString(P2P), "p2p"), 2, Map.of("M", 16L));
        assertEquals(fromPath.bindings(), fromText.bindings());
        assertEquals(16L, fromPath.bindings().asMap().get("M"));
        assertEquals(2L, fromPath.bindings().asMap().get("D"));
        assertEquals("p2p", fromText.source().file());
    }

    @Test
    void anUnknownSymbolIsRefusedWithATypedSubjectWhateverTheFrontEnd() throws Exception {
        String text = Files.readString(P2P);
        EngineFailure e = assertThrows(EngineFailure.class,
                () -> Engine.load(new FusionSource.Text(text, "p2p"), 2, Map.of("Q", 3L)));
        assertEquals(EngineFailure.Kind.BAD_INPUT, e.kind());
        Diagnostic d = e.diagnostics().getFirst();
        assertEquals("symbol.unknown", d.rule());
        assertEquals(new Subject.Setting("Q"), d.subject());
        assertTrue(d.message().contains("its symbols: "), d.message());
    }

    @Test
    void loweringKeepsEveryRanksTraceAndStopsWhenAsked() throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.File(P2P), 4, Map.of());
        PassTrace trace = Engine.lower(loaded, SeedGeneration.DEFAULTS, List.of(0, 1, 2, 3));
        assertEquals(4, trace.ranks().size());
        assertEquals(List.of(0, 1, 2, 3), trace.ranks().stream().map(PassTrace.RankTrace::rank).toList());
        assertEquals(null, Engine.lower(loaded, SeedGeneration.DEFAULTS, List.of(0, 1), rank -> rank < 1));
    }

    /** A schedule that loads but cannot be lowered: the diagnostic points at the line of the tensor concerned. */
    @Test
    void aLoweringErrorIsLocatedThroughItsSubject() throws Exception {
        String text = """
                {
                  "format": "hostir-fusion/1",
                  "name": "alltoall_between_meshes",
                  "tensors": [
                    {"name": "a", "dtype": "float", "mesh": "all", "axes": [{"extent": "D", "parallel": "DIDx"}, "D"]},
                    {"name": "b", "dtype": "float", "mesh": [1, 0],
                     "axes": ["D", {"extent": "D", "parallel": "DIDx"}]}
                  ],
                  "ops": [{"op": "set", "inputs": ["a"], "output": "b"}],
                  "inputs": ["a"], "outputs": ["b"]
                }
                """;
        LoadedFusion loaded = Engine.load(new FusionSource.Text(text, "x.fusion"), 2, Map.of());
        EngineFailure e = assertThrows(EngineFailure.class,
                () -> Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, 0));
        Diagnostic d = e.diagnostics().getFirst();
        assertEquals(new Subject.Tensor(1, "b"), d.subject());
        assertEquals(6, d.line(), d.format());
        assertTrue(d.format().startsWith("error: x.fusion:6: "), d.format());
    }

    @Test
    void theBackendPolicyDecidesBeforeAnythingRuns() throws Exception {
        RunRequest cpu = RunRequest.cpu(2, SeedGeneration.DEFAULTS);
        assertEquals(BackendPlan.Kind.CPU, BackendPlan.choose(cpu, "f").kind());
        assertEquals("cpu", BackendPlan.choose(cpu, "f").describe());
        RunRequest shareOnCpu = new RunRequest(RunRequest.BackendChoice.CPU, 2, SeedGeneration.DEFAULTS, 1, 0,
                false, 42, 1000, true, Optional.empty(), false);
        EngineFailure e = assertThrows(EngineFailure.class, () -> BackendPlan.choose(shareOnCpu, "f"));
        assertEquals(new Subject.Setting("--share-gpus"), e.diagnostics().getFirst().subject());
        assertEquals(1, e.lines().size());
    }

    @Test
    void aRunValidatesOnTheCpuBackend() throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.File(P2P), 2, Map.of());
        BackendPlan plan = BackendPlan.choose(RunRequest.cpu(2, SeedGeneration.DEFAULTS), "p2p");
        RunResult r = Engine.run(loaded, plan, line -> { });
        assertTrue(r.validation().orElseThrow().passed(), r.validation().orElseThrow().line());
        assertEquals("cpu", r.backend());
    }

    @Test
    void theRunCommandLineIsSpelledOnceForTheParserAndTheLauncher() {
        var line = new RunCommandLine(Path.of("f.fusion"), "cuda", 2, 4, 3, 1, Path.of("t.json"), true, true,
                Map.of("M", "64"), Map.of());
        List<String> args = line.arguments();
        for (String a : args) {
            if (a.startsWith("--")) {
                assertTrue(RunCommandLine.VALUED.contains(a) || RunCommandLine.REPEATED.contains(a)
                        || RunCommandLine.SWITCHES.contains(a), a + " is not a flag the command line parses");
            }
        }
        assertTrue(args.containsAll(List.of("--option", "backend=cuda")), "sharing GPUs needs copy-engine P2P");
        assertEquals(List.of("run", "f.fusion"), args.subList(0, 2));
    }

    /** A launch's MoE routing reaches a simulated run as run's flags; the defaults (uniform, none) need none. */
    @Test
    void theSimulationsRoutingIsSpelledWhereItIsNotTheDefault() {
        List<String> routed = new RunCommandLine(Path.of("f.fusion"), "sim", 4, 1, 1, 0, null, false, false, Map.of(),
                Map.of(), "h200x8-nvlink", "zipf:1.5", "1.25").arguments();
        assertEquals(List.of("--routing", "zipf:1.5"), routed.subList(routed.indexOf("--routing"),
                routed.indexOf("--routing") + 2), routed.toString());
        assertEquals(List.of("--capacity-factor", "1.25"), routed.subList(routed.indexOf("--capacity-factor"),
                routed.indexOf("--capacity-factor") + 2), routed.toString());
        List<String> plain = new RunCommandLine(Path.of("f.fusion"), "sim", 4, 1, 1, 0, null, false, false, Map.of(),
                Map.of(), "h200x8-nvlink", "uniform", "none").arguments();
        assertFalse(plain.contains("--routing") || plain.contains("--capacity-factor"), plain.toString());
    }

    /** Issue 35, defect 5: a launch's validation box reaches the engine on every backend, sim's default being off. */
    @Test
    void validationIsSpelledWhereItDiffersFromTheBackendsDefault() {
        for (String backend : List.of("sim", "cpu")) {
            for (boolean validate : List.of(true, false)) {
                List<String> args = new RunCommandLine(Path.of("f.fusion"), backend, 2, 1, 1, 0, null, validate,
                        false, Map.of(), Map.of()).arguments();
                var mode = RunCommandLine.validation(backend, args.contains(RunCommandLine.VALIDATE),
                        java.util.Optional.empty(), args.contains(RunCommandLine.NO_VALIDATE), false);
                assertEquals(validate, mode != org.hostir.studio.exec.ValidationMode.OFF, backend + " " + args);
            }
        }
        assertFalse(RunCommandLine.validatesByDefault("sim"));
        assertTrue(RunCommandLine.validatesByDefault("auto"));
    }

    /**
     * A simulated run computes the tensors it saves only when it validates: --save-npy turns validation on there, and
     * with --no-validate it is a usage error saying why (one rule for the command line and the launch delegate).
     */
    @Test
    void savingTensorsOfASimulatedRunValidatesIt() {
        var none = java.util.Optional.<String>empty();
        assertEquals(org.hostir.studio.exec.ValidationMode.AUTO, RunCommandLine.validation("sim", false, none, false, true));
        assertEquals(org.hostir.studio.exec.ValidationMode.OFF, RunCommandLine.validation("sim", false, none, false, false));
        assertEquals(org.hostir.studio.exec.ValidationMode.OFF, RunCommandLine.validation("cpu", false, none, true, true));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunCommandLine.validation("sim", false, none, true, true));
        assertEquals("--save-npy on the sim backend saves the tensors its validation computes: drop --no-validate",
                e.getMessage());
    }
}
