package org.hostir.studio.tests.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.export.CppTestExporter;
import org.hostir.studio.export.ExportException;
import org.hostir.studio.export.PythonExporter;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * User text cannot become code in an export (issue 31): a fusion exported with a hostile name, description and
 * source file name gives, in Python, the same syntax tree as the fusion with plain ones (comments aside: the
 * statements are the fusion's and nothing else), and in C++ the same token stream with only the contents of
 * comments and string literals different; in both, the comments hold the hostile text whole (decoded, it is the
 * text given). The fusion's name cannot be hostile in a file ({@code schema.name}), so the test builds the
 * fusion in memory, as any caller of the exporters could.
 */
public class ExportInjectionTest {
    /** Text that ends a comment or a literal, or changes how the file is read, in one language or the other. */
    static final List<String> HOSTILE = List.of(
            "pwn\nimport os; os.system('touch X')\n#",
            "cr\rimport os\r#",
            "crlf\r\nos.system('x')",
            "q\"uote's \"\"\" ''' triple",
            "back\\slash at the end\\",
            "*/ int injected = 1; /*",
            "esc\u001b]0;title\u0007\u001b[31mred",
            "nul\u0000byte",
            "line\u2028separator\u2029paragraph",
            "bidi \u202Eevil\u202C isolate \u2066x\u2069",
            "lone \uD800 high",
            "lone \uDFFF low",
            "trigraph ??/ ??= ???",
            "coding: utf-7 +AAo-import os",
            "nel\u0085 vt\u000B ff\u000C del\u007F csi\u009B",
            "bom\uFEFF zwsp\u200B tag\uDB40\uDC01 emoji \uD83D\uDE00",
            "tab\tand a newline at the end\n",
            "format %s %n %% {} {0} ${HOME} $(touch X) `id` #{x}",
            "long " + "x".repeat(10_000));

    /** {@link #HOSTILE}, for the other places names are shown. */
    public static List<String> hostileTexts() { return HOSTILE; }

    private static LoadedFusion loaded;

    @BeforeAll
    static void load() throws Exception {
        Path file = RepoPaths.repo().resolve("examples/seeds/ag_matmul_p2p.fusion");
        loaded = Engine.load(new FusionSource.File(file), 8, Map.of());
    }

    private static Fusion named(String name) {
        Fusion f = loaded.fusion();
        return new Fusion(name, f.inputs(), f.ops(), f.outputs(), f.symbols(), f.counters());
    }

    static String python(String text) throws Exception {
        return PythonExporter.export(named(text), text, 8, loaded.bindings().asMap(), text);
    }

    static String cpp(String text) throws Exception {
        return CppTestExporter.export(named(text), text, 8, loaded.bindings().asMap(), text);
    }

    @Test
    void noUnsafeCharacterIsWrittenRaw() throws Exception {
        for (String h : HOSTILE) {
            for (String code : List.of(python(h), cpp(h))) {
                assertTrue(code.codePoints().allMatch(c -> c == '\n' || !TerminalText.isUnsafe(c)),
                        () -> "raw control character in\n" + code);
            }
            assertFalse(cpp(h).contains("??"), "no trigraph can form");
        }
    }

    /** python3 parses each export (as bytes, so a PEP 263 declaration would count) and reads its comments back. */
    @Test
    void pythonExportsParseToTheFusionsStatementsOnly(@TempDir Path dir) throws Exception {
        assumeTrue(hasPython(), "skipped: python3 is not on this machine's PATH");
        List<String> files = new ArrayList<>();
        files.add(write(dir, "plain.py", python("plain")));
        for (int i = 0; i < HOSTILE.size(); i++) files.add(write(dir, "hostile" + i + ".py", python(HOSTILE.get(i))));
        JsonArray parsed = runPython(dir, files);
        JsonObject plain = parsed.get(0).getAsJsonObject();
        assertTrue(plain.get("statements").getAsInt() >= 8, plain::toString);
        for (int i = 0; i < HOSTILE.size(); i++) {
            JsonObject r = parsed.get(i + 1).getAsJsonObject();
            String what = "hostile text " + i + " " + TerminalText.escape(HOSTILE.get(i));
            assertEquals("utf-8", r.get("encoding").getAsString(), what);
            assertEquals(plain.get("ast").getAsString(), r.get("ast").getAsString(), what + ": other statements");
            assertEquals(plain.get("comments").getAsInt(), r.get("comments").getAsInt(), what + ": other comments");
            List<String> quoted = new ArrayList<>();
            r.getAsJsonArray("quoted").forEach(e -> quoted.add(e.getAsString()));
            // the fusion's name, the file it came from, its description: each whole
            assertEquals(List.of(HOSTILE.get(i), HOSTILE.get(i), HOSTILE.get(i)), quoted, what);
        }
    }

    private static final String READER = """
            import ast, io, json, sys, tokenize
            out = []
            for path in sys.argv[1:]:
                src = open(path, 'rb').read()
                tree = ast.parse(src)
                encoding = tokenize.detect_encoding(io.BytesIO(src).readline)[0]
                comments = [t.string for t in tokenize.tokenize(io.BytesIO(src).readline) if t.type == tokenize.COMMENT]
                quoted = [ast.literal_eval(t.string) for c in comments
                          for t in tokenize.generate_tokens(io.StringIO(c[1:]).readline) if t.type == tokenize.STRING]
                out.append({"ast": ast.dump(tree), "statements": len(tree.body), "encoding": encoding,
                            "comments": len(comments), "quoted": quoted})
            print(json.dumps(out))
            """;

    private static JsonArray runPython(Path dir, List<String> files) throws IOException, InterruptedException {
        Path reader = Files.writeString(dir.resolve("read_exports.py"), READER);
        List<String> command = new ArrayList<>(List.of("python3", reader.toString()));
        command.addAll(files);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python3 hung");
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        return JsonParser.parseString(text).getAsJsonArray();
    }

    private static boolean hasPython() {
        try {
            return new ProcessBuilder("python3", "--version").start().waitFor(30, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static String write(Path dir, String name, String code) throws IOException {
        return Files.writeString(dir.resolve(name), code, StandardCharsets.UTF_8).toString();
    }

    @Test
    void cppExportsHaveTheFusionsTokensOnly() throws Exception {
        List<CppTokens.Token> plain = CppTokens.of(cpp("plain"));
        assertTrue(plain.size() > 100, "tokens of the plain export: " + plain.size());
        for (String h : HOSTILE) {
            String what = "hostile text " + TerminalText.escape(h);
            List<CppTokens.Token> hostile = CppTokens.of(cpp(h));
            assertEquals(shapes(plain), shapes(hostile), what + ": other tokens");
            List<String> quoted = new ArrayList<>();
            for (CppTokens.Token t : hostile) {
                if (t.kind() != CppTokens.Kind.COMMENT) continue;
                CppTokens.literalsIn(t.text()).forEach(l -> quoted.add(CppTokens.literalValue(l)));
            }
            assertEquals(List.of(h, h, h), quoted, what);
        }
    }

    /** Tokens with the contents of comments and string literals blanked: what must not change. */
    private static List<String> shapes(List<CppTokens.Token> tokens) {
        return tokens.stream().map(t -> switch (t.kind()) {
            case COMMENT -> "//";
            case STRING -> "\"\"";
            case CHAR, WORD, PUNCT -> t.kind() + " " + t.text();
        }).toList();
    }

    /**
     * Tensor names reach the code only through {@code ExportPlan}'s variable names (an unusable label becomes
     * {@code tvN}) and C++ comments: the MoE ops' exports (topk, scatter, grouped_mm; index_select,
     * take_along_axis) with every tensor hostile give the statements and tokens of the same fusion with plain
     * unusable names ("plain name N"), and no raw control character.
     */
    @Test
    void moeOpsWithHostileTensorNamesExportTheSameStatements(@TempDir Path dir) throws Exception {
        boolean python = hasPython();
        List<String> files = new ArrayList<>();
        for (String example : List.of("moe/moe_topk_grouped_experts", "moe/moe_router_expert_ffn_tp")) {
            LoadedFusion moe = Engine.load(new FusionSource.File(RepoPaths.repo().resolve("examples/" + example
                    + ".fusion")), 2, Map.of());
            Fusion plain = relabelled(moe.fusion(), id -> "plain name " + id);
            Fusion hostile = relabelled(moe.fusion(), id -> HOSTILE.get(id % HOSTILE.size()));
            Map<String, Long> symbols = moe.bindings().asMap();
            String cppPlain = CppTestExporter.export(plain, "d", 2, symbols, "f");
            String cppHostile = CppTestExporter.export(hostile, "d", 2, symbols, "f");
            assertEquals(shapes(CppTokens.of(cppPlain)), shapes(CppTokens.of(cppHostile)), example + ": other tokens");
            String pyHostile = PythonExporter.export(hostile, "d", 2, symbols, "f");
            for (String code : List.of(cppHostile, pyHostile)) {
                assertTrue(code.codePoints().allMatch(c -> c == '\n' || !TerminalText.isUnsafe(c)), code);
            }
            assertFalse(cppHostile.contains("??"), "no trigraph can form");
            files.add(write(dir, files.size() + ".py", PythonExporter.export(plain, "d", 2, symbols, "f")));
            files.add(write(dir, files.size() + ".py", pyHostile));
        }
        assumeTrue(python, "the C++ tokens compared; the Python ASTs skipped: python3 is not on this machine's PATH");
        JsonArray parsed = runPython(dir, files);
        for (int i = 0; i < files.size(); i += 2) {
            JsonObject p = parsed.get(i).getAsJsonObject();
            JsonObject h = parsed.get(i + 1).getAsJsonObject();
            assertTrue(p.get("statements").getAsInt() >= 5, p::toString);
            assertEquals(p.get("ast").getAsString(), h.get("ast").getAsString(), "example " + i / 2);
            assertEquals(p.get("comments").getAsInt(), h.get("comments").getAsInt(), "example " + i / 2);
        }
    }

    /** A refusal that names a tensor stays one line whatever its name (quoted, escaped, shortened). */
    @Test
    void aRefusalNamingAHostileTensorIsOneLine() throws Exception {
        LoadedFusion grid = Engine.load(new FusionSource.File(RepoPaths.repo().resolve(
                "examples/parallelism/dp_tp_linear_2x2.fusion")), 4, Map.of());
        for (String h : HOSTILE) {
            Fusion f = relabelled(grid.fusion(), id -> h);
            var refused = assertThrows(ExportException.class,
                    () -> CppTestExporter.export(f, "d", 4, grid.bindings().asMap(), "f"));
            String m = refused.getMessage();
            assertTrue(m.contains("is 2-D") && m.length() < 200, m);
            assertTrue(m.codePoints().noneMatch(TerminalText::isUnsafe), TerminalText.escape(m));
        }
    }

    /** {@code fusion} with each tensor's label replaced by {@code label.apply(id)}, in its inputs, ops and outputs. */
    public static Fusion relabelled(Fusion fusion, IntFunction<String> label) {
        UnaryOperator<TensorView> f = t -> new TensorView(t.id(), label.apply(t.id()), t.dtype(), t.memoryType(),
                t.axes(), t.mesh(), t.loop());
        return new Fusion(fusion.name(), fusion.inputs().stream().map(f).toList(),
                fusion.ops().stream().map(o -> o.mapTensors(f)).toList(), fusion.outputs().stream().map(f).toList(),
                fusion.symbols(), fusion.counters());
    }

    /** The descriptions of the files are kept: each export quotes it. */
    @Test
    void anExampleDescriptionIsExportedEscaped() throws Exception {
        String description = loaded.document().description();
        assertTrue(description != null && !description.isBlank());
        String py = Engine.export(loaded, Engine.ExportLanguage.PYTHON);
        String cc = Engine.export(loaded, Engine.ExportLanguage.CPP);
        JsonElement asJson = JsonParser.parseString(py.lines().filter(l -> l.startsWith("# description: "))
                .findFirst().orElseThrow().substring("# description: ".length()));
        assertEquals(description, asJson.getAsString(), "the plain description reads back (JSON's quoting agrees)");
        assertTrue(cc.lines().anyMatch(l -> l.startsWith("// description: \"")), cc);
    }
}
