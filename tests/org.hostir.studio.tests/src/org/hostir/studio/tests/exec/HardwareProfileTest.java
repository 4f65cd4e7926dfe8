package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.ProfileField;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Profiles are files a user can copy and edit: the built-in ones load, what is written reads back, and a field
 * that is unknown, missing, of the wrong type or out of its declared range ({@link ProfileField}) is refused with
 * the file, line, field and range (issue 31).
 */
class HardwareProfileTest {
    @Test
    void everyBuiltInProfileLoadsAndSaysWhereItsFiguresComeFrom() throws Exception {
        for (String name : ProfileJson.BUILT_IN) {
            HardwareProfile p = ProfileFiles.builtIn(name);
            assertEquals(name, p.name());
            assertTrue(p.source().length() > 40, name + " cites its source");
            assertTrue(p.gemm().peakTflops().containsKey(DataType.BFLOAT16), name);
        }
        assertEquals(72, ProfileFiles.builtIn("gb200-nvl72").gpusPerNode());
    }

    @Test
    void aWrittenProfileReadsBackAndAnEditedCopyIsUsedByPath(@TempDir Path dir) throws Exception {
        HardwareProfile p = ProfileFiles.builtIn("h200x2-measured");
        String text = ProfileJson.write(p);
        HardwareProfile back = ProfileFiles.read(text, "copy");
        assertEquals(ProfileJson.write(back), text);
        assertEquals(62.3, back.nvlink().callUs(), "the per-call latency is written and read back");
        assertEquals(0, ProfileFiles.builtIn("h200x8-nvlink").nvlink().callUs(), "none given: 0");
        Path edited = dir.resolve("mine.json");
        Files.writeString(edited, text.replace("\"gpusPerNode\": 8", "\"gpusPerNode\": 4"));
        assertEquals(4, ProfileFiles.resolve(edited.toString(), "f.fusion").gpusPerNode());
    }

    private static List<String> refused(String text) {
        return assertThrows(EngineFailure.class, () -> ProfileFiles.read(text, "my.json")).lines();
    }

    @Test
    void aBrokenProfileIsRefusedNamingTheFileLineAndField() throws Exception {
        String good = text("h100x8-nvlink");
        int nvlinkBus = line(good, "\"busGBps\": 360");
        assertEquals(List.of("error: my.json:" + nvlinkBus + ": $.links.nvlink.busGBps: links.nvlink.busGBps is -1;"
                + " it must be in [0.001, 100000] GB/s [profile.range]"), refused(good.replace("\"busGBps\": 360",
                "\"busGBps\": -1")));
        assertEquals(List.of("error: my.json:" + line(good, "\"links\"") + ": $.linkz: unknown field 'linkz'; the fields"
                + " are format, name, description, source, gpusPerNode, gemm, links, contention, dispatchUs (and 1 more"
                + " problem in the profile) [profile.unknown-field]"), refused(good.replace("\"links\"", "\"linkz\"")));
        assertEquals(List.of("error: my.json:1: $.description: missing field 'description' (and 6 more problems in"
                + " the profile) [profile.required]"), refused("{\"format\": \"hirstudio-profile/1\", \"name\": \"x\"}"));
        assertEquals(List.of("error: my.json:1: $: a profile is a JSON object, not an array [profile.type]"),
                refused("[1]"));
        var e = assertThrows(EngineFailure.class, () -> ProfileFiles.resolve("no-such-machine", "f.fusion"));
        assertTrue(e.lines().getFirst().startsWith("error: f.fusion: --profile: no profile named 'no-such-machine'"
                + " and no such file; built-in"), e.lines().getFirst());
    }

    /** Values that used to print a 300-digit span, and fields that used to be ignored. */
    @Test
    void everyFieldIsCheckedAgainstItsDeclaredRange() throws Exception {
        String good = text("h200x8-nvlink");
        Map<String, String> bad = Map.ofEntries(
                Map.entry("\"busGBps\": 360", "\"busGBps\": 0"),
                Map.entry("\"alphaUs\": 10", "\"alphaUs\": 1e300"),
                Map.entry("\"alphaUs\": 20", "\"alphaUs\": 1e999"),
                Map.entry("\"memoryGBps\": 4080", "\"memoryGBps\": -4080"),
                Map.entry("\"gpusPerNode\": 8", "\"gpusPerNode\": 8.5"),
                Map.entry("\"launchUs\": 5", "\"launchUs\": -0.001"),
                Map.entry("\"computeSlowdown\": 0.15", "\"computeSlowdown\": 11"),
                Map.entry("\"bfloat16\": 989", "\"bfloat16\": 1e9"));
        for (var b : bad.entrySet()) {
            assertTrue(good.contains(b.getKey()), b.getKey());
            List<String> lines = refused(good.replace(b.getKey(), b.getValue()));
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(lines.getFirst().matches("error: my\\.json:" + line(good, b.getKey()) + ": \\$\\.\\S+: \\S+ is "
                    + b.getValue().substring(b.getValue().indexOf(": ") + 2).replace(".", "\\.").replace("+", "\\+")
                    + "; it must be .* \\[profile\\.range]"), lines.getFirst());
        }
        assertEquals(List.of("error: my.json:" + line(good, "\"ncclSlowdown\"") + ": $.contention.typo: unknown field"
                + " 'typo' in contention; the fields are computeSlowdown, ncclSlowdown [profile.unknown-field]"),
                refused(good.replace("\"ncclSlowdown\": 0.3", "\"ncclSlowdown\": 0.3, \"typo\": 1")));
        assertTrue(refused(good.replace("\"HostOp\"", "\"HostOP\"")).getFirst().contains("unknown field 'HostOP' in"
                + " dispatchUs; the fields are default, Allocate,"));
        assertTrue(refused(good.replace("\"bfloat16\"", "\"bf16\"")).getFirst().contains("unknown field 'bf16'"));
        assertTrue(refused(good.replace("{", "{\"colour\": \"red\",")).getFirst().contains("unknown field 'colour';"));
        assertEquals(List.of("error: my.json:" + line(good, "\"gpusPerNode\"") + ": $.gpusPerNode: gpusPerNode must"
                + " be a number, not a string [profile.type]"), refused(good.replace("\"gpusPerNode\": 8",
                "\"gpusPerNode\": \"8\"")));
    }

    @Test
    void garbageIsOneLineWithALineNumberNotAParserException() {
        for (String garbage : List.of("garbage {", "{\"format\": ", "", "{\"a\": 1,\n\"a\": 2}", "{\"name\": \"x\u0001\"}",
                "\u0000\u0001")) {
            List<String> lines = refused(garbage);
            assertEquals(1, lines.size(), garbage + ": " + lines);
            assertTrue(lines.getFirst().matches("error: my\\.json:\\d+: .* \\[json\\.[a-z-]+]"), lines.getFirst());
            assertTrue(!lines.getFirst().contains("Exception") && !lines.getFirst().contains("gson"), lines.getFirst());
        }
    }

    /** docs/simulation.md's field table is the declaration's, row for row. */
    @Test
    void theDocumentedFieldsAreTheDeclaredOnes() throws Exception {
        String doc = Files.readString(RepoPaths.repo().resolve("docs/simulation.md"));
        StringBuilder table = new StringBuilder();
        for (ProfileField f : ProfileField.values()) table.append(f.docRow()).append('\n');
        assertTrue(doc.contains(table), "docs/simulation.md's profile field table must read:\n" + table);
    }

    /** A built-in profile's text as shipped. */
    private static String text(String name) throws Exception {
        return Files.readString(RepoPaths.repo().resolve("src/org/hostir/studio/exec/sim/profiles/" + name + ".json"));
    }

    private static int line(String text, String fragment) {
        int at = text.indexOf(fragment);
        assertTrue(at >= 0, fragment);
        return (int) text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
    }
}
