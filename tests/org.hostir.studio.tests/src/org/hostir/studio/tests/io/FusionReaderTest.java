package org.hostir.studio.tests.io;

import static org.hostir.studio.tests.io.Fixtures.base;
import static org.hostir.studio.tests.io.Fixtures.j;
import static org.hostir.studio.tests.io.Fixtures.tensor;
import static org.hostir.studio.tests.io.Fixtures.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.Limits;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.ParsedFusion;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.junit.jupiter.api.Test;

/** Reading fusion files: the document it gives, and the diagnostics (rule, path, line) for broken files. */
class FusionReaderTest {

    private static List<Diagnostic> errors(String text) {
        return assertThrows(FusionFileException.class, () -> FusionReader.read(text, "t.fusion")).diagnostics();
    }

    private static Diagnostic error(String text) {
        List<Diagnostic> ds = errors(text);
        assertEquals(1, ds.size(), ds.toString());
        Fixtures.assertWellFormed(ds.getFirst(), "t.fusion");
        return ds.getFirst();
    }

    @Test
    void readsTheDocument() throws Exception {
        FusionDocument d = FusionReader.read(text(base()), "t.fusion").document();
        assertEquals("base", d.name());
        assertEquals(List.of("M", "K", "N"), List.copyOf(d.symbols().keySet()));
        assertEquals(8L, d.symbols().get("M"));
        assertEquals(List.of(AxisSpec.of(ExtentSpec.symbol("D"), ParallelType.DIDX),
                AxisSpec.of(ExtentSpec.symbol("M")), AxisSpec.of(ExtentSpec.symbol("K"))), d.tensors().get(0).axes());
        assertEquals(new AxisSpec(ExtentSpec.symbol("K"), IterType.REDUCTION, ParallelType.SERIAL),
                d.tensors().get(2).axes().get(3));
        assertEquals(MeshSpec.ALL, d.tensors().get(1).mesh());
        assertEquals(List.of("a", "b"), d.inputs());
        assertEquals(null, d.description());
        assertEquals(null, d.layout());
    }

    @Test
    void readsOptionalPartsAndDefaults() throws Exception {
        String t = text(base(d -> {
            tensor(d, "b").addProperty("memory", "local");
            tensor(d, "b").add("mesh", j("[1, 0]"));
            tensor(d, "b").getAsJsonArray("axes").set(0, j("{'extent': 4}"));
            tensor(d, "a").remove("mesh");
            d.add("layout", j("{'nodes': {'a': [10, 20.5]}, 'zoom': 1.25, 'note': null}"));
            d.addProperty("description", "");
        }));
        FusionDocument d = FusionReader.read(t, "t.fusion").document();
        assertEquals(MemoryType.LOCAL, d.tensors().get(1).memory());
        assertEquals(null, d.tensors().get(0).memory());
        assertEquals(MemoryType.GLOBAL, d.tensors().get(0).memoryOrDefault());
        assertEquals(MeshSpec.of(1, 0), d.tensors().get(1).mesh());
        assertEquals(MeshSpec.ABSENT, d.tensors().get(0).mesh());
        assertEquals(AxisSpec.of(ExtentSpec.size(4)), d.tensors().get(1).axes().get(0));
        assertEquals(j("{'nodes': {'a': [10, 20.5]}, 'zoom': 1.25, 'note': null}"), d.layout());
        assertEquals("", d.description());
    }

    @Test
    void aBroadcastAxisHasExtentOne() throws Exception {
        String t = text(base(d -> tensor(d, "b").getAsJsonArray("axes").add(j("{'iter': 'broadcast'}"))));
        AxisSpec a = FusionReader.read(t, "t.fusion").document().tensors().get(1).axes().get(2);
        assertEquals(new AxisSpec(ExtentSpec.size(1), IterType.BROADCAST, ParallelType.SERIAL), a);
        Diagnostic e = error(text(base(d -> tensor(d, "b").getAsJsonArray("axes")
                .add(j("{'extent': 2, 'iter': 'broadcast'}")))));
        assertEquals("schema.range", e.rule());
        assertEquals("$.tensors[1].axes[2].extent", e.path());
    }

    @Test
    void syntaxErrorsCarryTheLineAndPath() {
        Diagnostic d = error("{\n  \"format\": \"hostir-fusion/1\",\n  \"name\": \"x\"\n  \"tensors\": []\n}\n");
        assertEquals("json.syntax", d.rule());
        // issue 35: Gson calls a missing comma an "unterminated object" on the next line; the user needs its line
        assertEquals(3, d.line());
        assertEquals("missing ',' after this member (the next one starts on line 4)", d.message());
        Diagnostic element = error("{\n  \"format\": \"hostir-fusion/1\",\n  \"tensors\": [{}\n  {}]\n}\n");
        assertEquals(3, element.line());
        assertEquals("missing ',' after this element (the next one starts on line 4)", element.message());
        Diagnostic unclosed = error("{\n  \"format\": \"hostir-fusion/1\"\n]\n");
        assertTrue(unclosed.message().startsWith("unterminated object"), unclosed.message());
        Diagnostic eof = error("{\n  \"format\": \"hostir-fusion/1\",\n  \"tensors\": [\n");
        assertEquals("unexpected end of file", eof.message());
        assertEquals("$.tensors[0]", eof.path());
    }

    @Test
    void notJsonIsASyntaxError() {
        assertEquals("the file is empty (expected a JSON object)", error("  \n ").message());
        for (String bad : List.of("{\"format\": NaN}", "// comment\n{}", "{'format': 1}", "{\"a\": 1} {}",
                "{\"a\": 01}", "{\"a\": [1,]}")) {
            assertEquals("json.syntax", error(bad).rule(), bad);
        }
        assertEquals("unexpected content after the end of the top-level value", error("{} x").message());
    }

    @Test
    void theTopLevelMustBeAnObject() {
        Diagnostic d = error("[1, 2]");
        assertEquals("schema.type", d.rule());
        assertEquals("expected an object, got an array", d.message());
    }

    @Test
    void duplicateKeysAreReportedWithBothLines() {
        String t = "{\n\"format\": \"hostir-fusion/1\",\n\"name\": \"a\",\n\"name\": \"b\"\n}";
        Diagnostic d = errors(t).getFirst();
        assertEquals("json.duplicate-key", d.rule());
        assertEquals(4, d.line());
        assertEquals("duplicate key 'name' (first on line 3)", d.message());
    }

    @Test
    void numbersMustBeIntegersInRange() {
        for (String v : List.of("1.5", "4.0", "1e3", "-3", "0", "99999999999999999999999", "1099511627777")) {
            Diagnostic d = error(text(base()).replace("\"N\": 6", "\"N\": " + v));
            assertEquals("schema.range", d.rule(), v);
            assertEquals("$.symbols.N", d.path());
        }
        // 2^40 is the largest extent
        String max = text(base()).replace("\"N\": 6", "\"N\": 1099511627776");
        assertTrue(assertTimeoutPreemptively(Duration.ofSeconds(5), () -> FusionReader.read(max, "t"))
                .document().symbols().get("N") == 1L << 40);
    }

    @Test
    void reportsEveryStructuralProblemInOnePass() {
        String t = text(base(d -> {
            tensor(d, "a").addProperty("dtype", "float64");
            tensor(d, "b").add("mesh", j("[-1]"));
            d.getAsJsonArray("ops").get(0).getAsJsonObject().addProperty("op", "conv");
            d.remove("outputs");
        }));
        List<Diagnostic> ds = errors(t);
        assertEquals(List.of("schema.enum", "schema.range", "schema.enum", "schema.required"),
                ds.stream().map(Diagnostic::rule).toList());
        assertEquals("unknown dtype 'float64' (expected float, bfloat16, half, int64, double, int32, bool,"
                + " float8_e4m3fn, float8_e5m2)", ds.get(0).message());
        assertEquals("$.tensors[1].mesh[0]", ds.get(1).path());
        // the ops in the format's order, as the op definitions declare them (SchemaTest holds them to the schema)
        assertEquals("unknown op 'conv' (expected " + OpKind.fileNames() + ")", ds.get(2).message());
        assertTrue(OpKind.fileNames().startsWith("set, neg, abs, "), OpKind.fileNames());
        assertEquals("missing required field 'outputs'", ds.get(3).message());
    }

    @Test
    void opAttributesBelongToTheirOps() {
        String t = text(base(d -> d.getAsJsonArray("ops").get(0).getAsJsonObject().add("flags", j("[true]"))));
        assertEquals("'flags' is not an attribute of matmul (only broadcast, squeeze, topk and topk_indices have it)", error(t).message());
        t = Fixtures.text(Fixtures.single("[{'name': 'p', 'dtype': 'float', 'axes': ['M']}]",
                "[{'op': 'sum', 'inputs': ['p'], 'output': 'p', 'axes': []}]", "['p']", "['p']"));
        assertEquals("sum needs at least one axis", error(t).message());
    }

    @Test
    void deepNestingIsRefusedQuicklyWithoutRecursion() {
        String deep = "[".repeat(100_000);
        Diagnostic d = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> error(deep));
        assertEquals("json.limit", d.rule());
        assertEquals("nesting deeper than " + Limits.MAX_DEPTH + " levels", d.message());
        String objects = "{\"a\":".repeat(50_000);
        assertEquals("json.limit", assertTimeoutPreemptively(Duration.ofSeconds(5), () -> error(objects)).rule());
    }

    @Test
    void tooManyValuesAndTooLargeFilesAreRefused() {
        String many = text(base()).replaceFirst("\\{", "{\"layout\": {\"x\": [" + "0,".repeat(Limits.MAX_JSON_VALUES)
                + "0]},");
        Diagnostic d = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> error(many));
        assertEquals("json.limit", d.rule());
        byte[] huge = new byte[(int) Limits.MAX_FILE_BYTES + 1];
        FusionFileException e = assertThrows(FusionFileException.class, () -> FusionReader.read(huge, "big.fusion"));
        assertEquals("error: big.fusion: $: the file has 16777217 bytes; a fusion file has at most 16777216"
                + " [json.limit]", e.diagnostics().getFirst().format());
    }

    @Test
    void encodingErrorsPointAtTheirLine() {
        byte[] bytes = "{\n\"format\": \"hostir-fusion/1\",\n\"name\": \"\u00ff\u00fe\"\n}".getBytes(StandardCharsets.ISO_8859_1);
        FusionFileException e = assertThrows(FusionFileException.class, () -> FusionReader.read(bytes, "t.fusion"));
        assertEquals("json.encoding", e.diagnostics().getFirst().rule());
        assertEquals(3, e.diagnostics().getFirst().line());
    }

    @Test
    void aByteOrderMarkIsAccepted() throws Exception {
        ParsedFusion p = FusionReader.read(("\ufeff" + text(base())).getBytes(StandardCharsets.UTF_8), "bom.fusion");
        assertEquals("base", p.document().name());
    }

    @Test
    void hostileNamesStayOnOneLineInMessages() {
        Diagnostic d = error(text(base(d2 -> tensor(d2, "b").addProperty("name", "x\ny\u0000" + "z".repeat(100)))));
        assertEquals("schema.name", d.rule());
        assertTrue(d.format().contains("'x\\u000ay\\u0000zzz"), d.format());
        assertTrue(d.format().length() < 300, d.format());
    }

    @Test
    void sourceMapGivesTheLineOfAnyPath() throws Exception {
        ParsedFusion p = FusionReader.read(text(base()), "t.fusion");
        String[] lines = text(base()).split("\n");
        int ops = p.lines().line("$.ops[0].output");
        assertTrue(lines[ops - 1].contains("\"output\": \"c\""), lines[ops - 1]);
        int axis = p.lines().line("$.tensors[2].axes[3]");
        assertTrue(lines[axis - 1].strip().startsWith("{"), lines[axis - 1]);
        // beyond the file: the deepest existing part
        assertEquals(p.lines().line("$.tensors[2]"), p.lines().line("$.tensors[2].nothing[7]"));
        assertEquals(0, org.hostir.studio.file.SourceMap.NONE.line("$.tensors[0]"));
    }
}
