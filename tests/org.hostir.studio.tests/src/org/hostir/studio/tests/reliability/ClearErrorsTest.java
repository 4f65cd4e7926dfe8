package org.hostir.studio.tests.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonParser;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, items 6 and 7 of "Why": JSON strings as RFC 8259 has them, and errors that used to be unclear (an
 * empty 2-D mesh, expand of a non-broadcast axis, a deleted working directory) say what and where in one line.
 */
class ClearErrorsTest {
    private static final String TENSORS = """
            {"format": "hostir-fusion/2", "name": "NAME", "symbols": {"M": 8, "N": 6, "K": 4},
             "tensors": [
               {"name": "p", "dtype": "float", "axes": IN, "mesh": MESH},
               {"name": "q", "dtype": "float", "axes": OUT, "mesh": MESH}],
             "ops": [{"op": "OP", "inputs": ["p"], "output": "q"}],
             "inputs": ["p"], "outputs": ["q"]}""";

    private static List<Diagnostic> refused(String text) {
        EngineFailure e = assertThrows(EngineFailure.class,
                () -> Engine.load(new FusionSource.Text(text, "t.fusion"), 2, Map.of()));
        return e.diagnostics();
    }

    private static String fusion(String name, String in, String out, String op, String mesh) {
        return TENSORS.replace("NAME", name).replace("IN", in).replace("OUT", out).replace("OP", op)
                .replace("MESH", mesh);
    }

    @Test
    void rawControlCharactersAndLoneSurrogatesInStringsAreRefusedAtTheirColumn() {
        for (String bad : List.of("a\u0000b", "a\u001bb", "a\tb", "a\nb", "a\\ud800b", "a\\udc00b", "ab\\ud800",
                "a\ud800b", "a\\ud800\\u0041")) {
            List<Diagnostic> ds = refused(fusion(bad, "[\"M\"]", "[\"M\"]", "set", "[0, 1]"));
            assertEquals(1, ds.size(), bad + ": " + ds);
            Diagnostic d = ds.getFirst();
            assertEquals("json.string", d.rule(), d.format());
            assertEquals(1, d.line(), d.format());
            assertEquals("$.name", d.path(), d.format());
            assertTrue(d.message().matches("column 4[0-9]: (raw control character U\\+00[01][0-9A-F]|lone surrogate) in"
                    + " a string .*"), d.format());
            assertFalse(d.format().chars().anyMatch(c -> c < 0x20), "one printable line");
        }
    }

    @Test
    void escapedControlCharactersAndPairedSurrogatesAreJson() throws Exception {
        // a name is an identifier (schema.name) since issue 31: the escapes are JSON in a description, which keeps them
        for (String good : List.of("a\\u0000b", "a\\u001bb", "a\\tb", "a\\ud83d\\ude00b", "a\ud83d\ude00b")) {
            String text = fusion("f", "[\"M\"]", "[\"M\"]", "set", "[0, 1]").replace("\"name\": \"f\"",
                    "\"name\": \"f\", \"description\": \"" + good + "\"");
            LoadedFusion loaded = Engine.load(new FusionSource.Text(text, "t.fusion"), 2, Map.of());
            assertEquals(2, loaded.tensors().size(), good);
            assertEquals(JsonParser.parseString("\"" + good + "\"").getAsString(), loaded.document().description(), good);
        }
    }

    @Test
    void anEmptyRowOfA2dMeshIsNamedAsOne() {
        for (String mesh : List.of("[[]]", "[[], []]", "[[0, 1], []]")) {
            Diagnostic d = refused(fusion("m", "[\"M\"]", "[\"M\"]", "set", mesh)).getFirst();
            assertEquals("mesh.empty", d.rule(), d.format());
            assertTrue(d.message().matches("row [01] of the 2-D mesh is empty \\(each row of a 2-D mesh holds at least"
                    + " one device\\)"), d.format());
            assertFalse(d.message().contains("-1"), d.format());
        }
        Diagnostic ragged = refused(fusion("m", "[\"M\"]", "[\"M\"]", "set", "[[0], [1, 2]]")).getFirst();
        assertEquals("row 1 of the 2-D mesh has 2 devices but row 0 has 1 device (the rows of a 2-D mesh have one"
                + " length)", ragged.message());
    }

    /** nvFuser's expand keeps a non-broadcast extent (csrc/ops/alias.cpp:1156-1168 at 81c4b22fd), as PyTorch's does. */
    @Test
    void expandOfANonBroadcastAxisIsRefusedForThatReason() {
        for (String out : List.of("[\"M\", \"K\"]", "[\"M\", 9]")) {
            Diagnostic d = refused(fusion("e", "[\"M\", \"N\"]", out, "expand", "[0, 1]")).getFirst();
            assertEquals("shape.expand", d.rule(), d.format());
            assertTrue(d.message().contains("input axis 1 of extent N (6) is not a broadcast axis, so it keeps its"
                    + " extent, not "), d.format());
            assertTrue(d.message().endsWith("(expand only expands broadcast, extent 1, axes)"), d.format());
            assertFalse(d.message().contains("no fusion input carries"), d.format());
        }
    }

    @Test
    void aDeletedWorkingDirectoryIsSaidToBeOne(@TempDir Path dir) throws IOException, InterruptedException {
        Path script = RepoPaths.repo().resolve("hirstudio");
        Process p = new ProcessBuilder("bash", "-c", "mkdir gone && cd gone && rmdir ../gone && exec \"$0\" check"
                + " x.fusion", script.toString()).directory(dir.toFile()).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the script ends");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("hirstudio: error: the current directory (" + dir.resolve("gone")
                + ") no longer exists; cd to an existing directory and run again"), out);
        assertFalse(out.contains("JDK"), out);
    }

    /** A profile without the GEMM peak a fusion's matmul needs: refused up front at the op, not a bug mid-run. */
    @Test
    void aProfileWithoutTheGemmPeakOfAMatmulIsRefusedAtTheOp(@TempDir Path dir) throws IOException {
        Path shipped = RepoPaths.repo().resolve("src/org/hostir/studio/exec/sim/profiles/h200x8-nvlink.json");
        String text = Files.readString(shipped);
        String noFloat = text.substring(0, text.indexOf("\"float\"")) + text.substring(text.indexOf("\"bfloat16\""));
        Path profile = Files.writeString(dir.resolve("no-float.json"), noFloat);
        String fusion = RepoPaths.repo().resolve("examples/seeds/ag_matmul_p2p.fusion").toString();
        for (List<String> args : List.of(List.of("run", fusion, "--backend", "sim", "--profile", profile.toString()),
                List.of("sweep", fusion, "--devices", "2,4", "--profile", profile.toString()))) {
            CliRun r = CliRun.of(args.toArray(String[]::new));
            assertEquals(2, r.code(), args + ": " + r.err());
            assertEquals(List.of("error: " + fusion + ":16: $.ops[0]: the profile h200x8-nvlink has no GEMM peak for"
                    + " float (its gemm.peakTflops lists bfloat16, half); add one to a copy of it [run.profile]"),
                    r.err().lines().toList(), args.toString());
        }
    }
}
