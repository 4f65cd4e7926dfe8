package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.ir.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Profiles are files a user can copy and edit: the built-in ones load, what is written reads back, errors name the field. */
class HardwareProfileTest {
    @Test
    void everyBuiltInProfileLoadsAndSaysWhereItsFiguresComeFrom() throws Exception {
        for (String name : ProfileJson.BUILT_IN) {
            HardwareProfile p = ProfileJson.builtIn(name);
            assertEquals(name, p.name());
            assertTrue(p.source().length() > 40, name + " cites its source");
            assertTrue(p.gemm().peakTflops().containsKey(DataType.BFLOAT16), name);
        }
        assertEquals(72, ProfileJson.builtIn("gb200-nvl72").gpusPerNode());
    }

    @Test
    void aWrittenProfileReadsBackAndAnEditedCopyIsUsedByPath(@TempDir Path dir) throws Exception {
        HardwareProfile p = ProfileJson.builtIn("h200x2-measured");
        String text = ProfileJson.write(p);
        HardwareProfile back = ProfileJson.read(text, "copy");
        assertEquals(ProfileJson.write(back), text);
        Path edited = dir.resolve("mine.json");
        Files.writeString(edited, text.replace("\"gpusPerNode\": 8", "\"gpusPerNode\": 4"));
        assertEquals(4, ProfileJson.resolve(edited.toString()).gpusPerNode());
    }

    @Test
    void aBrokenProfileIsRefusedNamingTheFileAndField() throws Exception {
        String good = ProfileJson.write(ProfileJson.builtIn("h100x8-nvlink"));
        var e = assertThrows(ProfileJson.ProfileException.class, () -> ProfileJson.read(
                good.replace("\"busGBps\": 360", "\"busGBps\": -1"), "my.json"));
        assertEquals("my.json: 'busGBps' must be a number >= 0", e.getMessage());
        e = assertThrows(ProfileJson.ProfileException.class, () -> ProfileJson.read(good.replace("\"links\"",
                "\"linkz\""), "my.json"));
        assertEquals("my.json: missing field 'links'", e.getMessage());
        e = assertThrows(ProfileJson.ProfileException.class, () -> ProfileJson.read("[1]", "my.json"));
        assertEquals("my.json: a profile is a JSON object", e.getMessage());
        e = assertThrows(ProfileJson.ProfileException.class, () -> ProfileJson.resolve("no-such-machine"));
        assertTrue(e.getMessage().startsWith("no profile named 'no-such-machine' and no such file; built-in"),
                e.getMessage());
    }
}
