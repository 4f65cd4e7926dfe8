package org.hostir.studio.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The {@code model} subpackages of the UI views hold what the views show, free of SWT and the workbench, so that
 * tests and other code use them without a display: they import neither Eclipse, OSGi nor SWT, nor any view.
 */
class UiModelsTest {
    private static final Pattern IMPORT = Pattern.compile("(?m)^\\s*import\\s+(?:static\\s+)?([\\w.]+)");

    @Test
    void viewModelsImportNoWidgetsAndNoViews() throws IOException {
        Path ui = TestPaths.sourceRoot().resolve("org/hostir/studio/ui");
        List<Path> models = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(ui)) {
            dirs.map(d -> d.resolve("model")).filter(Files::isDirectory).forEach(models::add);
        }
        assertTrue(models.size() >= 3, "editor, passes and timeline have a model: " + models);
        List<String> offenders = new ArrayList<>();
        for (Path model : models) {
            try (Stream<Path> files = Files.list(model)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = IMPORT.matcher(Files.readString(f));
                    while (m.find()) {
                        String imported = m.group(1);
                        boolean widget = imported.startsWith("org.eclipse.") || imported.startsWith("org.osgi.");
                        // a model may use the shared ui elements and its own package, not a view's package
                        boolean view = imported.startsWith("org.hostir.studio.ui.")
                                && !imported.matches("org\\.hostir\\.studio\\.ui\\.[A-Z]\\w*")
                                && !imported.contains(".model.");
                        if (widget || view) offenders.add(ui.relativize(f) + ": import " + imported);
                    }
                }
            }
        }
        assertEquals(List.of(), offenders);
    }
}
