package org.hostir.studio.tests.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.TestPaths;

/**
 * The walk the Python export tests of both nvFuser generations share: every example but those refused on purpose,
 * loaded on 8 devices and exported; a refusal must be {@code [export.unsupported]}, a script must pass
 * {@code python3 -m py_compile}, and each call the generation's pattern finds in it is looked up in
 * docs/nvfuser-interop.md. The tests assert on what the walk collected.
 */
final class PythonExports {
    private PythonExports() {}

    /** One example's export: its script, or the first line of its refusal (then the script is null). */
    record Export(Path example, LoadedFusion loaded, String script, String refusal) {
        String name() { return example.getFileName().toString(); }
    }

    /** Every example's export in the examples' order, and the calls docs/nvfuser-interop.md does not list. */
    record Walk(List<Export> exports, Set<String> undocumented) {
        List<Export> compiled() { return exports.stream().filter(x -> x.script() != null).toList(); }

        List<Export> refused() { return exports.stream().filter(x -> x.script() == null).toList(); }
    }

    static Walk exportAll(Path dir, NvFuserGeneration generation, Pattern calls) throws Exception {
        String doc = Files.readString(RepoPaths.repo().resolve("docs/nvfuser-interop.md"));
        Set<String> undocumented = new TreeSet<>();
        List<Export> exports = new ArrayList<>();
        Map<Path, Export> written = new java.util.LinkedHashMap<>();
        for (Path example : examples()) {
            var loaded = Engine.load(new FusionSource.File(example), 8, Map.of());
            String script;
            try {
                script = Engine.export(loaded, Engine.ExportLanguage.PYTHON, generation);
            } catch (EngineFailure e) {
                assertTrue(e.lines().get(0).contains("[export.unsupported]"), e.lines()::toString);
                exports.add(new Export(example, loaded, null, e.lines().get(0)));
                continue;
            }
            Export x = new Export(example, loaded, script, null);
            written.put(write(dir, example, script), x);
            exports.add(x);
            for (Matcher m = calls.matcher(script); m.find(); ) {
                if (!doc.contains("`" + m.group())) undocumented.add(m.group());
            }
        }
        pyCompile(written);
        return new Walk(exports, undocumented);
    }

    private static List<Path> examples() throws Exception {
        try (Stream<Path> s = Files.walk(RepoPaths.repo().resolve("examples"))) {
            return s.filter(p -> p.toString().endsWith(".fusion")).filter(p -> !TestPaths.refusedOnPurpose(p))
                    .sorted().toList();
        }
    }

    private static Path write(Path dir, Path example, String script) throws Exception {
        Path file = dir.resolve(example.getFileName().toString().replace(".fusion", ".py"));
        Files.writeString(file, script);
        return file;
    }

    /**
     * What {@code python3 -m py_compile FILE} does for each script (py_compile.compile with doraise), in one Python
     * process for all of them: a process per script took about 20 s of CI per generation. A failing file is named on
     * a line "FAILED FILE" followed by Python's message (the first is reported with its script); the last line counts
     * the scripts compiled, so that a Python that stopped early cannot pass.
     */
    private static void pyCompile(Map<Path, Export> scripts) throws Exception {
        if (scripts.isEmpty()) return;
        List<String> cmd = new ArrayList<>(List.of("python3", "-c", String.join("\n",
                "import py_compile, sys",
                "ok = 0",
                "for f in sys.argv[1:]:",
                "    try:",
                "        py_compile.compile(f, doraise=True)",
                "        ok += 1",
                "    except py_compile.PyCompileError as e:",
                "        print('FAILED ' + f)",
                "        print(e.msg)",
                "print('compiled %d' % ok)")));
        scripts.keySet().forEach(f -> cmd.add(f.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "py_compile hung");
        Matcher failed = Pattern.compile("(?m)^FAILED (.*)$").matcher(output);
        if (failed.find()) {
            Export x = scripts.get(Path.of(failed.group(1)));
            throw new AssertionError((x == null ? failed.group(1) : x.example()) + ":\n" + output + "\n"
                    + (x == null ? "" : x.script()));
        }
        assertEquals(0, p.exitValue(), () -> "python3 failed:\n" + output);
        assertEquals("compiled " + scripts.size(), output.strip(), "every script compiled");
    }
}
