package org.hostir.studio.tests.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.io.FusionDocument;
import org.hostir.studio.io.FusionReader;
import org.hostir.studio.io.FusionWriter;
import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;

/**
 * Issue 31: every JSON file this tool writes is written by the JSON library, so a name with a newline, a NUL, a
 * quote, a backslash, other control characters or a Unicode line separator is escaped and reads back as it was:
 * the {@code --save-npy} manifest (which once broke on such a name), the trace, {@code lower --json}, a profile
 * ({@code calibrate}) and a fusion written back. Each is parsed strictly (RFC 8259) and the name compared.
 */
class JsonOutputsTest {
    /** What a hostile fusion name holds; written into the fusion file with JSON escapes. */
    private static final String NAME = "pwn\n\"quoted\" back\\slash\u0000nul\u001b[31m\u0007\t\u2028\u2029</script>";

    @Test
    void aHostileNameRoundTripsThroughTheManifestAndTheTrace(@TempDir Path dir) throws IOException {
        Path fusion = hostile(dir.resolve("odd \"file\"\\name\n.fusion"));
        Path npy = dir.resolve("npy");
        Path trace = dir.resolve("t.json");
        CliRun r = CliRun.of("run", fusion.toString(), "--backend", "cpu", "--save-npy", npy.toString(), "--trace",
                trace.toString());
        assertEquals(0, r.code(), r.err());
        JsonObject manifest = strict(Files.readString(npy.resolve("manifest.json"))).getAsJsonObject();
        assertEquals(NAME, manifest.get("name").getAsString());
        assertEquals(fusion.toString(), manifest.get("fusion").getAsString());
        assertEquals(List.of("in_in.npy", "out_out.npy"), manifest.getAsJsonArray("tensors").asList().stream()
                .map(t -> t.getAsJsonObject().get("file").getAsString()).toList());
        JsonObject root = strict(Files.readString(trace)).getAsJsonObject();
        assertEquals(NAME, root.getAsJsonObject("otherData").get("fusion").getAsString());
        assertEquals(0, CliRun.of("run", fusion.toString(), "--backend", "cpu", "--save-npy", npy.toString()).code(),
                "the manifest is recognised as this tool's, so its folder is written again");
    }

    @Test
    void aHostileNameRoundTripsThroughTheLoweringTrace(@TempDir Path dir) throws IOException {
        CliRun r = CliRun.of("lower", hostile(dir.resolve("f.fusion")).toString(), "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals(NAME, strict(r.out()).getAsJsonObject().get("fusion").getAsString());
    }

    @Test
    void aHostileNameRoundTripsThroughAProfileAndAFusionWrittenBack(@TempDir Path dir) throws Exception {
        HardwareProfile base = ProfileFiles.builtIn("h200x2-measured");
        HardwareProfile named = new HardwareProfile(NAME, NAME, NAME, base.gpusPerNode(), base.gemm(), base.nvlink(),
                base.network(), base.copyEngine(), base.contention(), base.dispatch());
        JsonObject profile = strict(ProfileJson.write(named)).getAsJsonObject();
        assertEquals(NAME, profile.get("name").getAsString());
        assertEquals(NAME, profile.get("description").getAsString());
        assertEquals(NAME, ProfileFiles.read(ProfileJson.write(named), "p.json").name());

        FusionDocument doc = FusionReader.read(hostile(dir.resolve("f.fusion"))).document();
        FusionDocument described = new FusionDocument(doc.name(), NAME, doc.symbols(), doc.tensors(), doc.ops(),
                doc.inputs(), doc.outputs(), doc.layout());
        String written = FusionWriter.write(described);
        assertEquals(NAME, strict(written).getAsJsonObject().get("name").getAsString());
        assertEquals(NAME, strict(written).getAsJsonObject().get("description").getAsString());
        assertEquals(described, FusionReader.read(written, "f.fusion").document());
    }

    private static Path hostile(Path file) throws IOException {
        JsonObject name = new JsonObject();
        name.addProperty("n", NAME);
        String quoted = name.get("n").toString(); // escaped by Gson, so the file itself is valid JSON
        return Files.writeString(file, """
                {"format": "hostir-fusion/1", "name": %s, "symbols": {"M": 4},
                 "tensors": [{"name": "in", "dtype": "float", "axes": ["M", 8]},
                             {"name": "out", "dtype": "float", "axes": ["M", 8]}],
                 "ops": [{"op": "set", "inputs": ["in"], "output": "out"}], "inputs": ["in"], "outputs": ["out"]}
                """.formatted(quoted));
    }

    /** Parsed as RFC 8259 says (Gson's strict mode): a raw control character in a string fails. */
    private static JsonElement strict(String text) {
        JsonReader reader = new JsonReader(new StringReader(text));
        reader.setStrictness(Strictness.STRICT);
        return JsonParser.parseReader(reader);
    }
}
