package org.hostir.studio.tests.reliability;

import static org.hostir.studio.tests.reliability.ReliabilityFiles.oneLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, the "malformed files" kind of the 163 inputs: whatever bytes a fusion file holds, {@code check},
 * {@code lower} and {@code run} answer with the same one {@code error:} line (exit 2), never a stack trace, a
 * hang or an internal error, and never accept it.
 */
class MalformedFilesTest {
    private static Map<String, byte[]> cases() {
        Map<String, byte[]> c = new LinkedHashMap<>();
        c.put("empty", new byte[0]);
        c.put("truncated", "{\"format\": \"hostir-fusion/1\", \"name\": \"x\", \"tensors\": [".getBytes());
        c.put("binary", new byte[] {0, (byte) 0xff, (byte) 0xfe, 1, 2, 3, (byte) 0x80});
        c.put("nested", ("{\"a\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}").getBytes());
        c.put("duplicate-key", "{\"format\": \"hostir-fusion/1\", \"format\": \"hostir-fusion/1\"}".getBytes());
        c.put("not-an-object", "[1, 2, 3]".getBytes());
        c.put("wrong-format", "{\"format\": \"hostir-fusion/99\"}".getBytes());
        c.put("huge-number", ("{\"format\": \"hostir-fusion/1\", \"name\": \"x\", \"symbols\": {\"M\": 1"
                + "0".repeat(400) + "}}").getBytes());
        return c;
    }

    @Test
    void everyCommandRefusesEachMalformedFileInOneLine(@TempDir Path dir) throws IOException {
        for (var e : cases().entrySet()) {
            Path f = dir.resolve(e.getKey() + ".fusion");
            Files.write(f, e.getValue());
            String first = null;
            for (String command : new String[] {"check", "lower", "run"}) {
                CliRun r = CliRun.of(command, f.toString(), "--backend", "cpu");
                if (command.equals("check") || command.equals("lower")) {
                    r = CliRun.of(command, f.toString());
                }
                oneLine(r, 2, f.toString());
                assertTrue(r.err().matches("error: \\S+?:\\d+: .*\\[[a-z.-]+\\]\\s*"), e.getKey() + ": " + r.err());
                if (first == null) first = r.err();
                assertEquals(first, r.err(), e.getKey() + ": " + command + " reports as check does");
            }
        }
    }
}
