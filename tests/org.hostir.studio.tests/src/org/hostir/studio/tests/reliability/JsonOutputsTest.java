package org.hostir.studio.tests.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTraceJson;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;

/**
 * Issue 31: every JSON file this tool writes is written by the JSON library, so text with a newline, a NUL, a
 * quote, a backslash, other control characters or a Unicode line separator is escaped and reads back as it was.
 * The text comes in where it stays free text (fusion names are identifiers, refused by {@code check} otherwise):
 * the fusion file's path in the {@code --save-npy} manifest (which once broke on such text), event names and the
 * caller's data in the trace, the fusion name {@code lower --json} is given, a profile's name ({@code calibrate})
 * and a fusion's description written back. Each file is parsed strictly (RFC 8259) and the text compared.
 */
class JsonOutputsTest {
    /** Hostile text: control characters, quotes, a backslash, line separators, markup. */
    private static final String TEXT = "pwn\n\"quoted\" back\\slash\u0000nul\u001b[31m\u0007\t\u2028\u2029</script>";
    /** As much of it as a file name may hold (no NUL, no slash). */
    private static final String FILE_NAME = "odd\n\"file\" back\\slash\u001b[31m\t\u2028.fusion";

    @Test
    void aHostilePathRoundTripsThroughTheManifest(@TempDir Path dir) throws IOException {
        Path fusion = Files.copy(ReliabilityFiles.small(dir, "f"), dir.resolve(FILE_NAME));
        Path npy = dir.resolve("npy");
        CliRun r = CliRun.of("run", fusion.toString(), "--backend", "cpu", "--save-npy", npy.toString());
        assertEquals(0, r.code(), r.err());
        JsonObject manifest = strict(Files.readString(npy.resolve("manifest.json"))).getAsJsonObject();
        assertEquals(fusion.toString(), manifest.get("fusion").getAsString());
        assertEquals("f", manifest.get("name").getAsString());
        assertEquals(List.of("in_in.npy", "out_out.npy"), manifest.getAsJsonArray("tensors").asList().stream()
                .map(t -> t.getAsJsonObject().get("file").getAsString()).toList());
        assertEquals(0, CliRun.of("run", fusion.toString(), "--backend", "cpu", "--save-npy", npy.toString()).code(),
                "the manifest is recognised as this tool's, so its folder is written again");
    }

    @Test
    void hostileTextRoundTripsThroughTheTrace() {
        Timeline timeline = new Timeline(List.of(new TimelineEvent(0, 0, EventKind.KERNEL, TEXT, 1, 0, 0, 1_000, 0,
                0, -1, -1)), Map.of(0, Map.of(0, TEXT)));
        JsonObject root = strict(ChromeTraceWriter.write(timeline, Map.of("fusion", TEXT, TEXT, "key"))).getAsJsonObject();
        assertEquals(TEXT, root.getAsJsonObject("otherData").get("fusion").getAsString());
        assertEquals("key", root.getAsJsonObject("otherData").get(TEXT).getAsString());
        List<String> names = root.getAsJsonArray("traceEvents").asList().stream()
                .map(e -> e.getAsJsonObject().get("ph").getAsString() + " " + (e.getAsJsonObject().has("args")
                        && e.getAsJsonObject().getAsJsonObject("args").has("name")
                        ? e.getAsJsonObject().getAsJsonObject("args").get("name").getAsString()
                        : e.getAsJsonObject().get("name").getAsString())).toList();
        assertTrue(names.contains("X " + TEXT), names.toString());
        assertTrue(names.contains("M " + TEXT), "the stream's name: " + names);
    }

    @Test
    void hostileTextRoundTripsThroughTheLoweringTraceAProfileAndAFusionWrittenBack(@TempDir Path dir)
            throws Exception {
        String lowered = new PassTraceJson.Programs(TEXT, 2, SeedGeneration.DEFAULTS).json();
        assertEquals(TEXT, strict(lowered).getAsJsonObject().get("fusion").getAsString());

        HardwareProfile base = ProfileFiles.builtIn("h200x2-measured");
        HardwareProfile named = new HardwareProfile(TEXT, TEXT, TEXT, base.gpusPerNode(), base.gemm(), base.nvlink(),
                base.network(), base.copyEngine(), base.contention(), base.dispatch());
        JsonObject profile = strict(ProfileJson.write(named)).getAsJsonObject();
        assertEquals(TEXT, profile.get("name").getAsString());
        assertEquals(TEXT, profile.get("description").getAsString());

        FusionDocument doc = FusionReader.read(ReliabilityFiles.small(dir, "f")).document();
        FusionDocument described = new FusionDocument(doc.name(), TEXT, doc.symbols(), doc.tensors(), doc.ops(),
                doc.inputs(), doc.outputs(), doc.layout());
        String written = FusionWriter.write(described);
        assertEquals(TEXT, strict(written).getAsJsonObject().get("description").getAsString());
        assertEquals(described, FusionReader.read(written, "f.fusion").document());
    }

    /** Parsed as RFC 8259 says (Gson's strict mode): a raw control character in a string fails. */
    private static JsonElement strict(String text) {
        JsonReader reader = new JsonReader(new StringReader(text));
        reader.setStrictness(Strictness.STRICT);
        return JsonParser.parseReader(reader);
    }
}
