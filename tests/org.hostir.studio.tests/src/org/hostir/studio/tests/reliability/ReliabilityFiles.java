package org.hostir.studio.tests.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.hostir.studio.tests.CliRun;

/** Small fusion files written into a test's folder, and the assertions every case of this package shares. */
final class ReliabilityFiles {
    private ReliabilityFiles() {}

    /** A copy {@code in} -> {@code out} of the given axes (JSON), with {@code symbols} (JSON object) as defaults. */
    static Path copy(Path dir, String name, String symbols, String axes) throws IOException {
        return write(dir, name, """
                {
                  "format": "hostir-fusion/1",
                  "name": "%s",
                  "symbols": %s,
                  "tensors": [
                    {"name": "in", "dtype": "float", "axes": %s},
                    {"name": "out", "dtype": "float", "axes": %s}
                  ],
                  "ops": [{"op": "set", "inputs": ["in"], "output": "out"}],
                  "inputs": ["in"],
                  "outputs": ["out"]
                }
                """.formatted(name, symbols, axes, axes));
    }

    /** A small fusion that runs in milliseconds on the CPU backend. */
    static Path small(Path dir, String name) throws IOException {
        return copy(dir, name, "{\"M\": 4}", "[\"M\", 8]");
    }

    static Path write(Path dir, String name, String text) throws IOException {
        Path file = dir.resolve(name + ".fusion");
        Files.writeString(file, text);
        return file;
    }

    /** Exit {@code code} with exactly one line on stderr, an {@code error:} line containing {@code part}. */
    static void oneLine(CliRun r, int code, String part) {
        assertEquals(code, r.code(), () -> "exit code; stderr:\n" + r.err() + "\nstdout:\n" + r.out());
        assertEquals(1, r.err().lines().count(), () -> "one line on stderr:\n" + r.err());
        assertTrue(r.err().startsWith("error: "), r.err());
        assertTrue(r.err().contains(part), () -> part + " missing in: " + r.err());
        assertTrue(!r.err().contains("internal error") && !r.err().contains("java.lang"), r.err());
    }

    /** A usage error: exit 2, the {@code error:} line first (then the usage line), no exception class named. */
    static void usage(CliRun r, String part) {
        assertEquals(2, r.code(), () -> "exit code; stderr:\n" + r.err());
        String first = r.err().lines().findFirst().orElse("");
        assertTrue(first.startsWith("error: ") && first.contains(part), () -> part + " missing in: " + first);
        assertEquals(1, r.err().lines().filter(l -> l.startsWith("error: ")).count(), r.err());
        assertTrue(!r.err().contains("java.lang"), r.err());
    }
}
