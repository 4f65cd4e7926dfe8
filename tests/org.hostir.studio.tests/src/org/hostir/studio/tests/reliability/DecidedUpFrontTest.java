package org.hostir.studio.tests.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunFailures;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.lower.AllgatherLowering;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 16, Deliver 2: what can be decided before running is decided by {@code check} (the loader every command
 * shares): extents against symbol values (defaults and {@code --set}), a Stream extent against the DID extent it
 * pipelines, sets between meshes. A generated family of sets (extents, parallel types, meshes) shows that what
 * {@code check} and lowering accept validates on the CPU backend; what fails at run time all the same is located
 * at a file line with the file's tensor names.
 */
class DecidedUpFrontTest {
    private static Diagnostic refused(String text, int devices, Map<String, Long> set) {
        EngineFailure e = assertThrows(EngineFailure.class,
                () -> Engine.load(new FusionSource.Text(text, "x.fusion"), devices, set));
        assertEquals(EngineFailure.Kind.BAD_INPUT, e.kind(), String.join("\n", e.lines()));
        Diagnostic d = e.diagnostics().getFirst();
        assertTrue(d.line() > 0, "a file line: " + d);
        return d;
    }

    private static String add(String bAxes) {
        return """
                {"format": "hostir-fusion/1", "name": "add", "symbols": {"M": 8},
                 "tensors": [
                  {"name": "a", "dtype": "float", "axes": ["M", "M"]},
                  {"name": "b", "dtype": "float", "axes": %s},
                  {"name": "c", "dtype": "float", "axes": ["M", "M"]}],
                 "ops": [{"op": "add", "inputs": ["a", "b"], "output": "c"}],
                 "inputs": ["a", "b"], "outputs": ["c"]}
                """.formatted(bAxes);
    }

    @Test
    void aConstantExtentAgainstASymbolsDefaultIsRefused() throws EngineFailure {
        Diagnostic d = refused(add("[\"M\", 3]"), 2, Map.of());
        assertEquals("shape.binary", d.rule(), d.toString());
        assertTrue(d.message().contains("M (8)"), d.message());
        assertEquals(6, d.line(), "the add: " + d);
        Engine.load(new FusionSource.Text(add("[\"M\", 3]"), "x.fusion"), 2, Map.of("M", 3L)); // --set M=3 agrees
        assertEquals("shape.binary", refused(add("[\"M\", 8]"), 2, Map.of("M", 5L)).rule(), "--set M=5 against 8");
    }

    @Test
    void aMatmulsContractedExtentAgainstASymbolIsRefused() throws Exception {
        String text = java.nio.file.Files.readString(org.hostir.studio.tests.TestPaths.repo("examples", "seeds",
                "ag_matmul_p2p.fusion")).replace("\"axes\": [\"K\", \"N\"]", "\"axes\": [5, \"N\"]");
        assertTrue(text.contains("[5, \"N\"]"), "the seed's B is [K, N]");
        Diagnostic d = refused(text, 2, Map.of());
        assertEquals("shape.matmul", d.rule(), d.toString());
        assertTrue(d.message().contains("K (4)"), d.message());
    }

    @Test
    void aStreamExtentOtherThanTheDidExtentItPipelinesIsRefused() throws Exception {
        String text = java.nio.file.Files.readString(org.hostir.studio.tests.TestPaths.repo("examples", "seeds",
                "allgather_p2p.fusion")).replace("{\"extent\": \"D\", \"parallel\": \"Stream\"}",
                "{\"extent\": 3, \"parallel\": \"Stream\"}");
        assertTrue(text.contains("\"extent\": 3"), "the seed pipelines D");
        Diagnostic d = refused(text, 2, Map.of());
        assertEquals("shape.set", d.rule(), d.toString());
        assertTrue(d.message().contains("D (2)"), d.message());
    }

    /** A set {@code in -> out}; extents 2 or D, parallel types and meshes varied, run on 4 devices. */
    private static String set(String inExtent, String inParallel, String inMesh, String outExtent,
                              String outParallel, String outMesh) {
        return """
                {"format": "hostir-fusion/1", "name": "generated_set", "symbols": {"M": 4},
                 "tensors": [
                  {"name": "in", "dtype": "float", "axes": [{"extent": %s, "parallel": "%s"}, "M"], "mesh": %s},
                  {"name": "out", "dtype": "float", "axes": [{"extent": %s, "parallel": "%s"}, "M"], "mesh": %s}],
                 "ops": [{"op": "set", "inputs": ["in"], "output": "out"}],
                 "inputs": ["in"], "outputs": ["out"]}
                """.formatted(inExtent, inParallel, inMesh, outExtent, outParallel, outMesh);
    }

    @TestFactory
    Stream<DynamicTest> generatedSetsEitherValidateOrAreRefusedWithALine() {
        List<String> meshes = List.of("[0, 1]", "[1, 0]", "[2, 3]", "\"all\"");
        List<DynamicTest> tests = new ArrayList<>();
        for (String inExtent : List.of("2", "\"D\"")) {
            for (String inParallel : List.of("DIDx", "Serial")) {
                for (String inMesh : meshes) {
                    for (String outExtent : List.of("2", "\"D\"")) {
                        for (String outParallel : List.of("DIDx", "Serial", "Stream")) {
                            for (String outMesh : meshes) {
                                String name = inExtent + " " + inParallel + " " + inMesh + " -> " + outExtent + " "
                                        + outParallel + " " + outMesh;
                                String text = set(inExtent, inParallel, inMesh, outExtent, outParallel, outMesh);
                                tests.add(DynamicTest.dynamicTest(name, () -> MeshOrderTest.validatesOrIsRefused(
                                        name, text, new MeshVariant(List.of(0, 1, 2, 3), 4), AllgatherLowering.P2P)));
                            }
                        }
                    }
                }
            }
        }
        return tests.stream();
    }

    @Test
    void aRunTimeFailureNamesTheFileLineAndTheFilesTensors() throws EngineFailure {
        LoadedFusion loaded = Engine.load(new FusionSource.Text(add("[\"M\", \"M\"]"), "x.fusion"), 2, Map.of());
        List<TensorView> t = loaded.tensors();
        Diagnostic d = RunFailures.located(new RunFailure("rank 0: T2 = add(T0, T1): shapes [8, 8] and [8, 3] do"
                + " not broadcast", List.of(t.get(2).subject(), t.get(0).subject(), t.get(1).subject())), loaded);
        assertEquals(6, d.line(), "the op writing T2: " + d);
        assertEquals(new Subject.Op(0), d.subject());
        assertTrue(d.message().endsWith("(T2 = 'c', T0 = 'a', T1 = 'b')"), d.message());
        assertEquals(0, RunFailures.located(new RunFailure("no progress for 20000 ms"), loaded).line(),
                "nothing to point at");
    }

    /** The failure's tensors place it; its words are never read (a message naming T0 is not put at T0). */
    @Test
    void aRunTimeFailureIsLocatedByItsTensorsNotByItsMessage() throws EngineFailure {
        LoadedFusion loaded = Engine.load(new FusionSource.Text(add("[\"M\", \"M\"]"), "x.fusion"), 2, Map.of());
        Diagnostic unnamed = RunFailures.located(new RunFailure("T2 = add(T0, T1) failed"), loaded);
        assertEquals(0, unnamed.line(), unnamed.format());
        assertEquals(new Subject.Setting("run"), unnamed.subject());
        Diagnostic input = RunFailures.located(new RunFailure("T2 = add(T0, T1) failed",
                List.of(loaded.tensors().get(1).subject())), loaded);
        assertEquals(new Subject.Tensor(1, "b"), input.subject(), "an input: its declaration, no op writes it");
        assertEquals("$.tensors[1]", input.path());
        assertTrue(input.message().endsWith("(T1 = 'b')"), input.message());
    }
}
