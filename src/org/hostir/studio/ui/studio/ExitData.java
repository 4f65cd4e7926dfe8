package org.hostir.studio.ui.studio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Hands Eclipse's relaunch arguments to {@code ./hirstudio studio} (scripts/relaunch.sh). File > Restart ends the
 * workbench with exit code 24 and the new launcher arguments in the {@code eclipse.exitdata} property; the native
 * launcher reads them from shared memory, which the equinox launcher jar started by {@code java -jar} does not have
 * (it prints them). With {@code -Dhirstudio.exitdata=FILE}, a shutdown hook writes the property to FILE as the JVM
 * ends, after the launcher has set it, for the script to read when the exit code is 24.
 */
final class ExitData {
    static final String FILE_PROPERTY = "hirstudio.exitdata";
    static final String EXIT_DATA = "eclipse.exitdata";

    private ExitData() {}

    /** Registers the hook when the script asked for it (once). */
    static synchronized void handOverAtExit() {
        String file = System.getProperty(FILE_PROPERTY);
        if (file == null || Boolean.getBoolean(FILE_PROPERTY + ".registered")) return;
        System.setProperty(FILE_PROPERTY + ".registered", "true");
        Path target = Path.of(file);
        // the hook runs after the OSGi framework has stopped: it uses only JDK classes, loaded now
        Runtime.getRuntime().addShutdownHook(new Thread(() -> write(target), "hirstudio exit data"));
    }

    private static void write(Path target) {
        String data = System.getProperty(EXIT_DATA);
        try {
            if (data == null || data.isBlank()) Files.deleteIfExists(target);
            else Files.writeString(target, data, StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.err.println("hirstudio: cannot write the relaunch arguments to " + target + ": " + e.getMessage());
        }
    }
}
