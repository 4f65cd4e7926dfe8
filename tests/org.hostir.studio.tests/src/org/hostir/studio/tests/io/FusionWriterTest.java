package org.hostir.studio.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.google.gson.JsonObject;

/** Writing fusion files: read(write(doc)) equals doc, the text is stable, fields come in a fixed order. */
class FusionWriterTest {

    static List<Path> examples() { return Fixtures.exampleFiles(); }

    private static FusionDocument roundTrip(FusionDocument doc) throws Exception {
        return FusionReader.read(FusionWriter.write(doc), "written.fusion").document();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void examplesRoundTrip(Path file) throws Exception {
        FusionDocument doc = FusionReader.read(file).document();
        String text = FusionWriter.write(doc);
        assertEquals(doc, roundTrip(doc));
        assertEquals(text, FusionWriter.write(roundTrip(doc)), "writing is deterministic");
    }

    /** A document using every feature of the format. */
    static FusionDocument everything() {
        JsonObject layout = Fixtures.obj("{'nodes': {'x': {'x': 10, 'y': -2.5}}, 'tags': ['a', null, true]}");
        Map<String, Long> symbols = new LinkedHashMap<>();
        symbols.put("N", 6L);
        symbols.put("M", 1L << 40);
        List<TensorSpec> tensors = List.of(
                new TensorSpec("x", DataType.BFLOAT16, MemoryType.LOCAL, List.of(
                        AxisSpec.of(ExtentSpec.symbol("D"), ParallelType.DIDY),
                        new AxisSpec(ExtentSpec.size(1), IterType.BROADCAST, ParallelType.SERIAL),
                        new AxisSpec(ExtentSpec.symbol("M"), IterType.REDUCTION, ParallelType.STREAM),
                        AxisSpec.of(ExtentSpec.size(7))), MeshSpec.of(3, 1)),
                new TensorSpec("y", DataType.HALF, null, List.of(AxisSpec.of(ExtentSpec.symbol("N"))), MeshSpec.ALL),
                new TensorSpec("z", DataType.FLOAT, MemoryType.GLOBAL, List.of(), MeshSpec.ABSENT),
                new TensorSpec("w", DataType.FLOAT, null, List.of(AxisSpec.of(ExtentSpec.symbol("N")),
                        AxisSpec.of(ExtentSpec.size(8))), new MeshSpec.Devices(List.of(0, 1, 2, 3), List.of(2, 2)),
                        List.of(
                        new LoopStep.Split(0, ExtentSpec.symbol("D"), false), new LoopStep.Split(2, ExtentSpec.size(4), true),
                        new LoopStep.Merge(2), new LoopStep.Reorder(List.of(2, 0, 1)),
                        new LoopStep.Parallelize(1, ParallelType.DIDX), new LoopStep.Swizzle1D(0, ParallelType.DIDX)),
                        true));
        List<OpSpec> ops = List.of(
                OpSpec.of(OpKind.SET, "y", "x").withPermute(List.of(1, 0)),
                OpSpec.of(OpKind.MAX, "z", "y").withAxes(List.of(0, 2)),
                OpSpec.of(OpKind.BROADCAST, "x", "z").withFlags(List.of(true, false)),
                OpSpec.of(OpKind.LINEAR, "z", "x", "y", "z"),
                OpSpec.of(OpKind.DIV, "z", "x", "y"));
        // a fusion's name is an identifier; the description carries the text JSON must escape
        return new FusionDocument("every_thing", "every \"thing\" \u00e9\na\nmulti-line\tdescription", symbols,
                tensors, ops, List.of("x"), List.of("z", "y"), layout);
    }

    @Test
    void everyFeatureRoundTrips() throws Exception {
        FusionDocument doc = everything();
        assertEquals(doc, roundTrip(doc));
        FusionDocument noOptional = new FusionDocument("n", null, Map.of(), doc.tensors(), doc.ops(), List.of(),
                List.of("z"), null);
        assertEquals(noOptional, roundTrip(noOptional));
        assertNotEquals(noOptional, doc);
    }

    @Test
    void fieldsComeInAFixedOrderAndDefaultsAreLeftOut() {
        String text = FusionWriter.write(everything());
        List<String> keys = List.of("\"format\"", "\"name\"", "\"description\"", "\"symbols\"", "\"tensors\"", "\"ops\"",
                "\"inputs\"", "\"outputs\"", "\"layout\"");
        int last = -1;
        for (String k : keys) {
            int at = text.indexOf("\n  " + k);
            assertTrue(at > last, k + " out of order in\n" + text);
            last = at;
        }
        // w has loop steps: only version 2 can say them
        assertTrue(text.startsWith("{\n  \"format\": \"hostir-fusion/2\",\n"), text);
        for (String step : List.of("{\"outer_split\": 0, \"factor\": \"D\"}", "{\"split\": 2, \"factor\": 4}",
                "{\"merge\": 2}", "{\"reorder\": [2, 0, 1]}", "{\"parallelize\": 1, \"type\": \"DIDx\"}", "{\"swizzle1d\": 0, \"type\": \"DIDx\"}",
                "\"allocation\": \"loop\"", "\"mesh\": [[0, 1], [2, 3]]")) {
            assertTrue(text.contains(step), step + " in\n" + text);
        }
        // y: no memory, plain axis as a bare extent; z: no mesh
        assertTrue(text.contains("{\"name\": \"y\", \"dtype\": \"half\", \"axes\": [\"N\"], \"mesh\": \"all\"}"), text);
        assertTrue(text.contains("{\"name\": \"z\", \"dtype\": \"float\", \"memory\": \"global\", \"axes\": []}"), text);
        assertTrue(text.contains("{\"extent\": \"M\", \"iter\": \"reduction\", \"parallel\": \"Stream\"}"), text);
        assertTrue(text.endsWith("}\n"));
    }

    /** A version 1 file is written back as version 1: upgrading it is the user's choice (adding loop steps). */
    @Test
    void aVersion1DocumentStaysVersion1() throws Exception {
        String text = Fixtures.read(TestPaths.repo("examples", "conformance", "lower_collective_allgather.fusion"));
        FusionDocument doc = FusionReader.read(text, "allgather.fusion").document();
        assertTrue(FusionWriter.write(doc).startsWith("{\n  \"format\": \"hostir-fusion/1\",\n"));
    }

    @Test
    void layoutIsKeptVerbatimAndTheDocumentStaysImmutable() throws Exception {
        FusionDocument doc = everything();
        JsonObject copy = doc.layout();
        copy.addProperty("added", 1);
        assertEquals(everything().layout(), doc.layout());
        assertEquals(Fixtures.obj("{'nodes': {'x': {'x': 10, 'y': -2.5}}, 'tags': ['a', null, true]}"),
                roundTrip(doc).layout());
    }
}
