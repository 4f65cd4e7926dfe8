package org.hostir.studio.tests.hostile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.tests.CliRun;

/**
 * The well-formed files every case starts from, made hostile one part at a time: a small fusion (an allgather in a
 * stream loop, so every command has real work), the built-in profile it is simulated on, the dump {@code lower}
 * prints of it, and a trace and saved tensors that this tool wrote (made once, by running it).
 */
final class Fixtures {
    static final String FUSION = "f.fusion";
    static final String NAME = "f", DESCRIPTION = "an allgather in a stream loop";
    private static final String TEMPLATE = """
            {
              "format": "hostir-fusion/1",
              "name": "%s",
              "description": "%s",
              "symbols": {"M": %s},
              "tensors": [
                {"name": "in", "dtype": "float", "axes": ["M", {"extent": "D", "parallel": "DIDx"}], "mesh": "all"},
                {"name": "out", "dtype": "float", "axes": [{"extent": "M", "parallel": "Stream"}, "D"], "mesh": "all"}
              ],
              "ops": [{"op": "set", "inputs": ["in"], "output": "out"}],
              "inputs": ["in"],
              "outputs": ["out"]
            }
            """;
    private static String dump;
    private static byte[] trace;
    private static Map<String, byte[]> npy;

    private Fixtures() {}

    /** The fusion with these texts put between the quotes of its name and description, and M's value. */
    static String fusion(String nameBody, String descriptionBody, String m) {
        return TEMPLATE.formatted(nameBody, descriptionBody, m);
    }

    static String fusion() { return fusion(NAME, DESCRIPTION, "4"); }

    /** {@code text} as the inside of a JSON string, every character outside printable ASCII escaped. */
    static String escaped(String text) {
        StringBuilder b = new StringBuilder();
        for (char ch : text.toCharArray()) {
            if (ch == '"' || ch == '\\') b.append('\\').append(ch);
            else if (ch >= 0x20 && ch < 0x7f) b.append(ch);
            else b.append(String.format("\\u%04x", (int) ch));
        }
        return b.toString();
    }

    static Path write(Path dir, String name, String text) throws IOException {
        return write(dir, name, text.getBytes(StandardCharsets.UTF_8));
    }

    static Path write(Path dir, String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.write(file, bytes);
    }

    static Path fusionFile(Path dir) throws IOException { return write(dir, FUSION, fusion()); }

    /** The built-in profile {@code h100x8-nvlink} as its file holds it. */
    static String profile() {
        try (InputStream in = ProfileJson.class.getResourceAsStream("profiles/h100x8-nvlink.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What {@code hirstudio lower f.fusion} prints: an {@code NVFUSER_DUMP=host_ir} program. */
    static synchronized String dump() {
        if (dump == null) dump = once((dir, f) -> CliRun.of("lower", f.toString()).out());
        return dump;
    }

    /** A trace this tool wrote (a later run may replace it without --force). */
    static synchronized byte[] trace() {
        if (trace == null) {
            trace = once((dir, f) -> {
                Path t = dir.resolve("t.json");
                CliRun.of("run", f.toString(), "--backend", "cpu", "--iterations", "1", "--warmup", "0", "--trace",
                        t.toString());
                return Files.readAllBytes(t);
            });
        }
        return trace.clone();
    }

    /** The files of {@code --save-npy DIR} of this tool, by name. */
    static synchronized Map<String, byte[]> savedNpy() {
        if (npy == null) {
            npy = once((dir, f) -> {
                Path out = dir.resolve("npy");
                CliRun.of("run", f.toString(), "--backend", "cpu", "--iterations", "1", "--warmup", "0",
                        "--save-npy", out.toString());
                Map<String, byte[]> files = new TreeMap<>();
                try (Stream<Path> s = Files.list(out)) {
                    for (Path p : s.toList()) files.put(p.getFileName().toString(), Files.readAllBytes(p));
                }
                return Map.copyOf(files);
            });
        }
        return npy;
    }

    static void writeNpy(Path dir, String folder) throws IOException {
        for (var e : savedNpy().entrySet()) write(dir, folder + "/" + e.getKey(), e.getValue());
    }

    @FunctionalInterface
    private interface Made<T> {
        T make(Path dir, Path fusion) throws IOException;
    }

    private static <T> T once(Made<T> made) {
        try {
            Path dir = Files.createTempDirectory("hostile-fixture");
            try {
                return made.make(dir, fusionFile(dir));
            } finally {
                try (Stream<Path> s = Files.walk(dir)) {
                    for (Path p : s.sorted((a, b) -> b.compareTo(a)).toList()) Files.delete(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
