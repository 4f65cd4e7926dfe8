package org.hostir.studio.tests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Enforces the layering of docs/architecture.md: nothing below {@code ui} imports Eclipse, OSGi or SWT, so that
 * the engine runs on a plain classpath (command line, runner JVM, GPU machine); each package uses only the layers
 * {@link LayerTable} allows it; the views are independent of one another; and project classes are named by
 * imports, not by inline fully qualified names that hide a dependency. Scans the sources, not classes, so it
 * also sees code that no test loads.
 */
public class ArchitectureTest {
    /** The only packages (and their sub-packages) that may use Eclipse, OSGi and SWT. */
    static final String UI_PACKAGE = "org.hostir.studio.ui";
    /** Import prefixes forbidden outside the ui packages. */
    static final List<String> FORBIDDEN = List.of("org.eclipse.", "org.osgi.", "org.eclipse.swt");

    private static final Pattern PACKAGE = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");
    private static final Pattern IMPORT = Pattern.compile("(?m)^\\s*import\\s+(?:static\\s+|module\\s+)?([\\w.]+(?:\\.\\*)?)\\s*;");

    record Source(Path file, String pkg, String text) {
    }

    @Test
    public void engineDoesNotImportEclipseOsgiOrSwt() {
        List<Source> sources = sources();
        assertTrue(sources.size() > 0, "no .java files found under " + TestPaths.sourceRoot());
        int engineFiles = 0;
        List<String> offenders = new ArrayList<>();
        for (Source s : sources) {
            if (isUi(s.pkg())) {
                continue;
            }
            engineFiles++;
            Matcher m = IMPORT.matcher(withoutComments(s.text()));
            while (m.find()) {
                String imported = m.group(1);
                for (String prefix : FORBIDDEN) {
                    if (imported.startsWith(prefix)) {
                        offenders.add(TestPaths.repoRoot().relativize(s.file()) + ": import " + imported);
                        break;
                    }
                }
            }
        }
        assertTrue(engineFiles > 0, "no engine (non-ui) sources found under " + TestPaths.sourceRoot());
        if (!offenders.isEmpty()) {
            fail("Only " + UI_PACKAGE + ".* may import Eclipse, OSGi or SWT (DESIGN.md section 2); "
                    + offenders.size() + " offending import(s) in " + engineFiles + " engine files:\n  "
                    + String.join("\n  ", offenders));
        }
    }

    /**
     * The engine (everything outside ui) uses only the layers below it: diag < ir < rules < lower < diff,
     * rules < file, trace < exec.
     */
    @Test
    public void engineRespectsTheLayerOrder() {
        List<String> offenders = layerViolations(s -> !isUi(s.pkg()));
        assertTrue(offenders.isEmpty(), "engine code using a layer it may not (LayerTable, docs/architecture.md):\n  "
                + String.join("\n  ", offenders));
    }

    /**
     * The ui packages use the engine and the shared {@code ui} package; the views ({@link LayerTable#VIEWS}) do not
     * use one another (they talk through the selection service and {@code ui}), and only {@code ui.studio}
     * assembles them.
     */
    @Test
    public void viewsAreIndependentOfOneAnother() {
        List<String> offenders = layerViolations(s -> isUi(s.pkg()));
        assertTrue(offenders.isEmpty(), "ui code using a layer it may not (LayerTable, docs/architecture.md):\n  "
                + String.join("\n  ", offenders));
    }

    @Test
    public void layerTableIsADag() {
        assertTrue(LayerTable.cycles().isEmpty(), "LayerTable allows cycles: " + LayerTable.cycles());
    }

    /**
     * Project classes are imported, not named inline as {@code org.hostir.studio.x.Y} in code (comments, string
     * literals and package/import lines aside): an inline name is a dependency that a reader of the imports, and
     * this test's layer check, would otherwise miss.
     */
    @Test
    public void projectClassesAreImportedNotQualifiedInline() {
        Map<String, List<String>> byFile = new TreeMap<>();
        for (Source s : sources()) {
            for (Reference r : references(s)) {
                if (r.inline()) {
                    byFile.computeIfAbsent(relative(s), f -> new ArrayList<>()).add(r.line() + ": " + r.name());
                }
            }
        }
        StringBuilder report = new StringBuilder();
        byFile.forEach((file, names) -> report.append("\n  ").append(file).append("\n    ")
                .append(String.join("\n    ", names)));
        assertTrue(byFile.isEmpty(), "inline fully qualified project names (import them instead), per file:" + report);
    }

    /** One use of a project class: by an import line, or inline in code. */
    record Reference(int line, String name, boolean inline) {
    }

    private static List<String> layerViolations(Predicate<Source> which) {
        List<String> offenders = new ArrayList<>();
        for (Source s : sources()) {
            if (s.pkg().isEmpty() || !which.test(s)) {
                continue;
            }
            Optional<String> from = LayerTable.layerOf(s.pkg());
            if (from.isEmpty()) {
                offenders.add(relative(s) + ": package " + s.pkg() + " has no layer in LayerTable (add it there)");
                continue;
            }
            for (Reference r : references(s)) {
                Optional<String> to = LayerTable.layerOf(packageOf(r.name()));
                if (to.isPresent() && !LayerTable.allows(from.get(), to.get())) {
                    offenders.add(relative(s) + ":" + r.line() + ": " + (r.inline() ? "uses " : "import ") + r.name()
                            + "   (" + from.get() + " -> " + to.get() + ")");
                }
            }
        }
        return offenders;
    }

    private static final Pattern INLINE_NAME = Pattern.compile("(?<![\\w.])org\\.hostir\\.studio\\.(?:[a-z_]\\w*\\.)+[A-Z]\\w*");
    private static final Pattern DECLARATION_LINE = Pattern.compile("^\\s*(?:package|import)\\s");

    /** The project classes a source names: its imports and its inline qualified names, with line numbers. */
    static List<Reference> references(Source s) {
        List<Reference> out = new ArrayList<>();
        String[] lines = codeOnly(s.text()).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (DECLARATION_LINE.matcher(line).find()) {
                Matcher m = IMPORT.matcher(line);
                if (m.find() && m.group(1).startsWith(LayerTable.ROOT)) {
                    out.add(new Reference(i + 1, m.group(1), false));
                }
                continue;
            }
            Matcher m = INLINE_NAME.matcher(line);
            while (m.find()) {
                out.add(new Reference(i + 1, m.group(), true));
            }
        }
        return out;
    }

    private static String relative(Source s) {
        return TestPaths.repoRoot().relativize(s.file()).toString().replace('\\', '/');
    }

    /** Comments and string, character and text-block literals blanked; line breaks kept. */
    static String codeOnly(String text) {
        StringBuilder b = new StringBuilder(text.length());
        int i = 0;
        int n = text.length();
        while (i < n) {
            int end = literalOrCommentEnd(text, i);
            if (end > i) {
                blank(text, i, end, b);
                i = end;
            } else {
                b.append(text.charAt(i++));
            }
        }
        return b.toString();
    }

    /** Where the comment or literal starting at {@code i} ends, or {@code i} when none starts there. */
    private static int literalOrCommentEnd(String text, int i) {
        int n = text.length();
        if (text.startsWith("//", i)) {
            int end = text.indexOf('\n', i);
            return end < 0 ? n : end;
        }
        if (text.startsWith("/*", i) || text.startsWith("\"\"\"", i)) {
            String close = text.charAt(i) == '/' ? "*/" : "\"\"\"";
            int end = text.indexOf(close, i + close.length()); // each opener is as long as its closer
            return end < 0 ? n : end + close.length();
        }
        char c = text.charAt(i);
        if (c != '"' && c != '\'') {
            return i;
        }
        int j = i + 1;
        while (j < n && text.charAt(j) != c && text.charAt(j) != '\n') {
            j += text.charAt(j) == '\\' ? 2 : 1;
        }
        return Math.min(j + 1, n);
    }

    private static void blank(String text, int from, int to, StringBuilder into) {
        for (int k = from; k < to; k++) {
            into.append(text.charAt(k) == '\n' ? '\n' : ' ');
        }
    }

    @Test
    public void packageMatchesFolder() {
        List<String> wrong = new ArrayList<>();
        Path root = TestPaths.sourceRoot();
        for (Source s : sources()) {
            String expected = root.relativize(s.file().getParent()).toString().replace('/', '.').replace('\\', '.');
            if (!expected.equals(s.pkg())) {
                wrong.add(root.relativize(s.file()) + ": package '" + s.pkg() + "', folder says '" + expected + "'");
            }
        }
        assertTrue(wrong.isEmpty(), "package declarations that do not match their folder:\n  " + String.join("\n  ", wrong));
    }

    /**
     * Every package with sources must be in the plugin's Export-Package: the test bundles see only exported
     * packages, and Tycho fails to compile a test of an unexported one with a far less clear message.
     */
    @Test
    public void everyPackageIsExported() throws IOException {
        Set<String> packages = new TreeSet<>();
        for (Source s : sources()) {
            if (!s.pkg().isEmpty()) {
                packages.add(s.pkg());
            }
        }
        assertFalse(packages.isEmpty(), "no packages found under " + TestPaths.sourceRoot());
        Set<String> exported = headerPackages(TestPaths.repo("META-INF", "MANIFEST.MF"), "Export-Package");
        List<String> missing = packages.stream().filter(p -> !exported.contains(p)).toList();
        assertTrue(missing.isEmpty(), "packages under src/ missing from Export-Package in META-INF/MANIFEST.MF "
                + "(add them there, one per line):\n  " + String.join(",\n  ", missing));
    }

    /**
     * Every library package the engine (or this test bundle) imports must be in the Import-Package of its
     * manifest: OSGi sees only declared packages, and Tycho reports a missing one as an "Access restriction",
     * while the plain classpath of {@code ./hirstudio unit} and the command line would not notice.
     */
    @Test
    public void libraryImportsAreDeclaredInTheManifest() throws IOException {
        List<String> missing = new ArrayList<>();
        missing.addAll(undeclaredImports(sources().stream().filter(s -> !isUi(s.pkg())).toList(),
                TestPaths.repo("META-INF", "MANIFEST.MF")));
        Path testBundle = TestPaths.repo("tests", "org.hostir.studio.tests");
        missing.addAll(undeclaredImports(sources(testBundle.resolve("src")), testBundle.resolve("META-INF/MANIFEST.MF")));
        assertTrue(missing.isEmpty(), "imported packages missing from Import-Package (add them to the named "
                + "manifest, with a version range like the entries already there):\n  " + String.join("\n  ", missing));
    }

    private static List<String> undeclaredImports(List<Source> sources, Path manifest) throws IOException {
        Set<String> imported = headerPackages(manifest, "Import-Package");
        Set<String> missing = new TreeSet<>();
        for (Source s : sources) {
            Matcher m = IMPORT.matcher(withoutComments(s.text()));
            while (m.find()) {
                String pkg = packageOf(m.group(1));
                if (!pkg.isEmpty() && !pkg.startsWith("java.") && !pkg.startsWith("org.hostir.studio")
                        && !imported.contains(pkg)) {
                    missing.add(TestPaths.repoRoot().relativize(manifest) + ": " + pkg + "   (imported by "
                            + TestPaths.repoRoot().relativize(s.file()) + ")");
                }
            }
        }
        return new ArrayList<>(missing);
    }

    /** The package of an imported name: the segments before the first capitalised one (a class). */
    static String packageOf(String imported) {
        String name = imported.endsWith(".*") ? imported.substring(0, imported.length() - 2) : imported;
        List<String> pkg = new ArrayList<>();
        for (String segment : name.split("\\.")) {
            if (!segment.isEmpty() && Character.isUpperCase(segment.charAt(0))) {
                return String.join(".", pkg);
            }
            pkg.add(segment);
        }
        return imported.endsWith(".*") ? String.join(".", pkg) : String.join(".", pkg.subList(0, Math.max(0, pkg.size() - 1)));
    }

    static boolean isUi(String pkg) {
        return pkg.equals(UI_PACKAGE) || pkg.startsWith(UI_PACKAGE + ".");
    }

    static List<Source> sources() {
        return sources(TestPaths.sourceRoot());
    }

    static List<Source> sources(Path root) {
        assertTrue(Files.isDirectory(root), "source folder missing: " + root);
        try (Stream<Path> files = Files.walk(root)) {
            List<Source> out = new ArrayList<>();
            for (Path f : files.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p)).sorted().toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                Matcher m = PACKAGE.matcher(withoutComments(text));
                out.add(new Source(f, m.find() ? m.group(1) : "", text));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Blanks out comments (so an import inside a comment or javadoc does not count); keeps string literals. */
    static String withoutComments(String text) {
        StringBuilder b = new StringBuilder(text.length());
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && text.charAt(j) != c && text.charAt(j) != '\n') {
                    j += text.charAt(j) == '\\' ? 2 : 1;
                }
                j = Math.min(j + 1, n);
                b.append(text, i, j);
                i = j;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                for (int k = i; k < end; k++) {
                    b.append(text.charAt(k) == '\n' ? '\n' : ' ');
                }
                i = end;
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }

    /** The package names in a manifest header such as Export-Package (attributes and directives dropped). */
    static Set<String> headerPackages(Path manifest, String headerName) throws IOException {
        StringBuilder header = null;
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            if (header != null && line.startsWith(" ")) {
                header.append(line.substring(1));
            } else if (header != null) {
                break;
            } else if (line.startsWith(headerName + ":")) {
                header = new StringBuilder(line.substring(headerName.length() + 1));
            }
        }
        Set<String> out = new TreeSet<>();
        if (header != null) {
            String value = header.toString().replaceAll("\"[^\"]*\"", "\"\"");
            for (String clause : value.split(",")) {
                String name = clause.split(";")[0].trim();
                if (!name.isEmpty()) {
                    out.add(name);
                }
            }
        }
        return out;
    }
}
