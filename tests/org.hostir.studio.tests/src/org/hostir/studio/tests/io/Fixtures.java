package org.hostir.studio.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.tests.TestPaths;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/** Fusion texts for the io tests: the examples, a small valid base fusion, and JSON written with single quotes. */
final class Fixtures {
    private Fixtures() {}

    /** {@code j("{'a': 1}")}: JSON with single quotes, so that test fixtures stay readable in Java strings. */
    static JsonElement j(String singleQuoted) {
        return JsonParser.parseString(singleQuoted.replace('\'', '"'));
    }

    static JsonObject obj(String singleQuoted) { return j(singleQuoted).getAsJsonObject(); }

    /** One line per member, as people write files, so that lines in diagnostics are meaningful. */
    static String text(JsonElement e) {
        return new GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping().create().toJson(e) + "\n";
    }

    /**
     * A valid multi-device fusion: a [DIDx D, M, K] x b [K, N] -> c [Stream D, M, N, rK], all on mesh "all" (the
     * AG+matmul P2P seed).
     */
    static JsonObject base() {
        return obj("""
                {'format': 'hostir-fusion/1', 'name': 'base', 'symbols': {'M': 8, 'K': 4, 'N': 6},
                 'tensors': [
                   {'name': 'a', 'dtype': 'float', 'axes': [{'extent': 'D', 'parallel': 'DIDx'}, 'M', 'K'], 'mesh': 'all'},
                   {'name': 'b', 'dtype': 'float', 'axes': ['K', 'N'], 'mesh': 'all'},
                   {'name': 'c', 'dtype': 'float', 'axes': [{'extent': 'D', 'parallel': 'Stream'}, 'M', 'N',
                                                        {'extent': 'K', 'iter': 'reduction'}], 'mesh': 'all'}],
                 'ops': [{'op': 'matmul', 'inputs': ['a', 'b'], 'output': 'c'}],
                 'inputs': ['a', 'b'], 'outputs': ['c']}""");
    }

    /** The base fusion after {@code change}. */
    static JsonObject base(Consumer<JsonObject> change) {
        JsonObject o = base();
        change.accept(o);
        return o;
    }

    /** A single-device fusion of the given tensors and ops, p an input and the last tensor the output. */
    static JsonObject single(String tensors, String ops, String inputs, String outputs) {
        return obj("{'format': 'hostir-fusion/1', 'name': 'single', 'symbols': {'M': 8, 'N': 6, 'K': 4},"
                + " 'tensors': " + tensors + ", 'ops': " + ops + ", 'inputs': " + inputs + ", 'outputs': " + outputs
                + "}");
    }

    static JsonObject tensor(JsonObject doc, String name) {
        for (JsonElement t : doc.getAsJsonArray("tensors")) {
            if (t.getAsJsonObject().get("name").getAsString().equals(name)) return t.getAsJsonObject();
        }
        throw new IllegalArgumentException("no tensor " + name);
    }

    /** Loading must fail; the diagnostics, each checked to be a well-formed single line. */
    static List<Diagnostic> failures(String text, String file, int devices) {
        FusionFileException e = assertThrows(FusionFileException.class, () -> FusionLoader.load(text, file, devices));
        assertFalse(e.diagnostics().isEmpty());
        for (Diagnostic d : e.diagnostics()) assertWellFormed(d, file);
        return e.diagnostics();
    }

    static void assertWellFormed(Diagnostic d, String file) {
        String line = d.format();
        assertTrue(line.startsWith("error: " + file), line);
        assertFalse(line.contains("\n") || line.contains("\r"), line);
        assertTrue(line.endsWith("[" + d.rule() + "]"), line);
        assertEquals(line, d.toString());
    }

    static Path examples() { return TestPaths.repo("examples"); }

    /** Every {@code .fusion} file under examples/, sorted. */
    static List<Path> exampleFiles() {
        try (Stream<Path> s = Files.walk(examples())) {
            return s.filter(p -> p.toString().endsWith(".fusion"))
                    .filter(p -> !TestPaths.refusedOnPurpose(p)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** examples/seeds/x.fusion as the repository-relative name the diagnostics use. */
    static String label(Path p) {
        return TestPaths.repoRoot().relativize(p).toString();
    }
}
