package org.hostir.studio.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * docs/hostir-fusion-1.schema.json cannot drift from the reader: the examples have the fields it requires, and
 * its field names and enums are the ones the code reads and writes.
 */
class SchemaTest {

    static JsonObject schema() {
        return JsonParser.parseString(Fixtures.read(TestPaths.repo("docs", "hostir-fusion-1.schema.json")))
                .getAsJsonObject();
    }

    static List<Path> examples() { return Fixtures.exampleFiles(); }

    private static Set<String> strings(JsonArray a) {
        Set<String> out = new HashSet<>();
        a.forEach(e -> out.add(e.getAsString()));
        return out;
    }

    private static JsonObject def(String name) { return schema().getAsJsonObject("$defs").getAsJsonObject(name); }

    @Test
    void isDraft2020_12AndNamesTheFormat() {
        JsonObject s = schema();
        assertEquals("https://json-schema.org/draft/2020-12/schema", s.get("$schema").getAsString());
        assertEquals(Set.of(FusionDocument.FORMAT, FusionDocument.FORMAT_2),
                strings(s.getAsJsonObject("properties").getAsJsonObject("format").getAsJsonArray("enum")));
        assertEquals(Set.of("format", "name", "tensors", "ops", "inputs", "outputs"), strings(s.getAsJsonArray("required")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyExampleHasTheRequiredTopLevelFieldsAndNoOthers(Path file) {
        JsonObject example = JsonParser.parseString(Fixtures.read(file)).getAsJsonObject();
        for (String field : strings(schema().getAsJsonArray("required"))) {
            assertTrue(example.has(field), file + " lacks " + field);
        }
        Set<String> allowed = schema().getAsJsonObject("properties").keySet();
        assertTrue(allowed.containsAll(example.keySet()), file + ": " + example.keySet() + " not all in " + allowed);
        assertTrue(Set.of(FusionDocument.FORMAT, FusionDocument.FORMAT_2).contains(example.get("format").getAsString()));
    }

    @Test
    void whatTheWriterWritesTheSchemaDescribes() {
        JsonObject written = JsonParser.parseString(FusionWriter.write(FusionWriterTest.everything())).getAsJsonObject();
        assertEquals(schema().getAsJsonObject("properties").keySet(), written.keySet());
        Set<String> tensorFields = def("tensor").getAsJsonObject("properties").keySet();
        Set<String> opFields = def("op").getAsJsonObject("properties").keySet();
        Set<String> axisFields = def("axis").getAsJsonArray("oneOf").get(1).getAsJsonObject()
                .getAsJsonObject("properties").keySet();
        Set<String> seenTensor = new HashSet<>();
        Set<String> seenOp = new HashSet<>();
        Set<String> seenAxis = new HashSet<>();
        for (JsonElement t : written.getAsJsonArray("tensors")) {
            seenTensor.addAll(t.getAsJsonObject().keySet());
            for (JsonElement a : t.getAsJsonObject().getAsJsonArray("axes")) {
                if (a.isJsonObject()) seenAxis.addAll(a.getAsJsonObject().keySet());
            }
        }
        written.getAsJsonArray("ops").forEach(o -> seenOp.addAll(o.getAsJsonObject().keySet()));
        Set<String> stepFields = new HashSet<>();
        def("loopStep").getAsJsonArray("oneOf").forEach(v -> stepFields.addAll(v.getAsJsonObject()
                .getAsJsonObject("properties").keySet()));
        Set<String> seenStep = new HashSet<>();
        for (JsonElement t : written.getAsJsonArray("tensors")) {
            JsonArray steps = t.getAsJsonObject().getAsJsonArray("loop");
            if (steps != null) steps.forEach(st -> seenStep.addAll(st.getAsJsonObject().keySet()));
        }
        assertEquals(stepFields, seenStep);
        assertEquals(FusionDocument.FORMAT_2, written.get("format").getAsString());
        assertEquals(tensorFields, seenTensor);
        assertEquals(opFields, seenOp);
        assertEquals(axisFields, seenAxis);
    }

    @Test
    void enumsMatchTheCode() {
        JsonObject tensor = def("tensor").getAsJsonObject("properties");
        assertEquals(names(DataType.values(), DataType::fileName),
                strings(tensor.getAsJsonObject("dtype").getAsJsonArray("enum")));
        assertEquals(names(MemoryType.values(), MemoryType::dumpName),
                strings(tensor.getAsJsonObject("memory").getAsJsonArray("enum")));
        JsonObject axis = def("axis").getAsJsonArray("oneOf").get(1).getAsJsonObject().getAsJsonObject("properties");
        assertEquals(names(IterType.values(), IterType::fileName), strings(axis.getAsJsonObject("iter").getAsJsonArray("enum")));
        assertEquals(names(ParallelType.values(), ParallelType::fileName),
                strings(axis.getAsJsonObject("parallel").getAsJsonArray("enum")));
        assertEquals(names(OpKind.values(), OpKind::fileName),
                strings(def("op").getAsJsonObject("properties").getAsJsonObject("op").getAsJsonArray("enum")));
    }

    @Test
    void limitsMatchTheCode() {
        JsonObject props = schema().getAsJsonObject("properties");
        assertEquals(org.hostir.studio.file.Limits.MAX_TENSORS, props.getAsJsonObject("tensors").get("maxItems").getAsInt());
        assertEquals(org.hostir.studio.file.Limits.MAX_OPS, props.getAsJsonObject("ops").get("maxItems").getAsInt());
        assertEquals(org.hostir.studio.file.Limits.MAX_EXTENT, def("extentValue").get("maximum").getAsLong());
        assertEquals(org.hostir.studio.file.Limits.MAX_DEVICES,
                def("mesh").getAsJsonArray("oneOf").get(1).getAsJsonObject().get("maxItems").getAsInt());
        assertEquals(org.hostir.studio.file.Limits.MAX_AXES,
                def("tensor").getAsJsonObject("properties").getAsJsonObject("axes").get("maxItems").getAsInt());
    }

    @Test
    void theFormatDocumentListsEveryRule() {
        String doc = Fixtures.read(TestPaths.repo("docs", "fusion-file-format.md"));
        for (org.hostir.studio.diag.Rule rule : org.hostir.studio.diag.Rule.values()) {
            assertTrue(doc.contains("| `" + rule.id() + "` |"), rule.id() + " is missing from docs/fusion-file-format.md");
        }
        assertTrue(doc.contains("hostir-fusion-1.schema.json"));
    }

    private static <T> Set<String> names(T[] values, java.util.function.Function<T, String> name) {
        return new HashSet<>(new ArrayList<>(Arrays.stream(values).map(name).toList()));
    }
}
