package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;

import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunFailures;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * A set that moves the DIDx sharding from one axis to another: nvFuser's AllToAll, with c10d's even all-to-all
 * on the flat buffers, validated against the unsharded reference; layouts it cannot serve are refused.
 */
class AllToAllTest {

    private static LoadedFusion load(String text, int devices) throws Exception {
        return Engine.load(new FusionSource.Text(text, "a2a.fusion"), devices, Map.of());
    }

    private static String fusion(String format, String x, String y) {
        return """
                {"format": "%s", "name": "a2a", "symbols": {"N": 12, "K": 3},
                 "tensors": [{"name": "x", "dtype": "float", "mesh": "all", %s},
                             {"name": "y", "dtype": "float", "mesh": "all", %s}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y"}], "inputs": ["x"], "outputs": ["y"]}
                """.formatted(format, x, y);
    }

    @Test
    void logicalShardingsMovedAcrossAxesValidateAtEveryDeviceCount() throws Exception {
        String text = fusion("hostir-fusion/1", "\"axes\": [{\"extent\": \"D\", \"parallel\": \"DIDx\"}, \"D\", \"K\"]",
                "\"axes\": [\"D\", {\"extent\": \"D\", \"parallel\": \"DIDx\"}, \"K\"]");
        for (int d : new int[] {1, 2, 3, 4, 8}) {
            LoadedFusion loaded = load(text, d);
            // one device: a one-device mesh counts as unsharded (convertSingleOpToCommunication), no AllToAll
            String program = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, 0));
            assertEquals(d > 1, program.contains("type=AllToAll, team=("), program);
            try (CpuBackend backend = new CpuBackend(d, 10_000)) {
                RunResult r = Runs.run(loaded, d, Map.of(), backend, s -> { });
                assertTrue(r.validation().orElseThrow().passed(), d + " devices: " + r.validation().orElseThrow().line());
            }
        }
    }

    @Test
    void aPlainAxisBeforeTheShardedOnesIsRefusedByCheck() throws Exception {
        String text = fusion("hostir-fusion/1", "\"axes\": [\"K\", {\"extent\": \"D\", \"parallel\": \"DIDx\"}, \"D\"]",
                "\"axes\": [\"K\", \"D\", {\"extent\": \"D\", \"parallel\": \"DIDx\"}]");
        EngineFailure e = assertThrows(EngineFailure.class, () -> Engine.check(load(text, 2), SeedGeneration.DEFAULTS));
        assertEquals("sharding.alltoall-layout", e.diagnostics().getFirst().rule());
        assertEquals(3, e.diagnostics().getFirst().line(), e.diagnostics().getFirst().format());
    }

    @Test
    void aSplitShardedAxisHoldingSeveralElementsFirstIsRefusedByCheckAndAtRunTime() throws Exception {
        String text = fusion("hostir-fusion/2", "\"axes\": [\"N\", \"D\"], \"loop\": [{\"outer_split\": 0,"
                + " \"factor\": \"D\"}, {\"parallelize\": 0, \"type\": \"DIDx\"}]",
                "\"axes\": [\"N\", {\"extent\": \"D\", \"parallel\": \"DIDx\"}]");
        LoadedFusion loaded = load(text, 2);
        // issue 30 item 7: check said ok; the file's extents decide it, so check refuses it with rule and line
        EngineFailure refused = assertThrows(EngineFailure.class, () -> Engine.check(loaded, SeedGeneration.DEFAULTS));
        assertEquals(1, refused.diagnostics().size(), refused.diagnostics().toString());
        assertEquals("sharding.alltoall-layout", refused.diagnostics().getFirst().rule());
        assertEquals(3, refused.diagnostics().getFirst().line(), refused.diagnostics().getFirst().format());
        assertTrue(refused.diagnostics().getFirst().message().contains("local shape [6, 2]"),
                refused.diagnostics().getFirst().message());
        // N = 2 puts one element per rank first: check and the run agree that it is fine
        LoadedFusion one = Engine.load(new FusionSource.Text(text, "a2a.fusion"), 2, Map.of("N", 2L));
        Engine.check(one, SeedGeneration.DEFAULTS);
        try (CpuBackend backend = new CpuBackend(2, 10_000)) {
            assertTrue(Runs.run(one, 2, Map.of(), backend, s -> { }).validation()
                    .orElseThrow().passed());
        }
        try (CpuBackend backend = new CpuBackend(2, 10_000)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> Runs.run(loaded, 2, Map.of(), backend, s -> { }));
            assertTrue(e.getMessage().contains("AllToAll") && e.getMessage().contains("local shape [6, 2]"),
                    e.getMessage());
            // a run without check names the set's line too (the failure's first tensor is the output)
            assertEquals(4, RunFailures.located(e, loaded).line(), e.getMessage());
        }
    }
    /**
     * Issue 32: check and run decide the AllToAll layout in one place (the engine's admission of each rank's program
     * from the same Compilation), so a run through the engine refuses it up front with check's very diagnostic
     * instead of failing half-way with a message.
     */
    @Test
    void aRunThroughTheEngineRefusesWhatCheckRefusesWithTheSameDiagnostic() throws Exception {
        String text = fusion("hostir-fusion/2", "\"axes\": [\"N\", \"D\"], \"loop\": [{\"outer_split\": 0,"
                + " \"factor\": \"D\"}, {\"parallelize\": 0, \"type\": \"DIDx\"}]",
                "\"axes\": [\"N\", {\"extent\": \"D\", \"parallel\": \"DIDx\"}]");
        LoadedFusion loaded = load(text, 2);
        EngineFailure checked = assertThrows(EngineFailure.class, () -> Engine.check(loaded, SeedGeneration.DEFAULTS));
        RunRequest request = new RunRequest(RunRequest.BackendChoice.CPU, 2, SeedGeneration.DEFAULTS, 1, 0,
                ValidationMode.AUTO, 1, 10_000, false, Optional.empty(), false);
        EngineFailure ran = assertThrows(EngineFailure.class,
                () -> Engine.run(loaded, BackendPlan.choose(request, "a2a.fusion"), line -> { }));
        assertEquals(EngineFailure.Kind.BAD_INPUT, ran.kind());
        assertEquals(checked.diagnostics(), ran.diagnostics());
    }
}
