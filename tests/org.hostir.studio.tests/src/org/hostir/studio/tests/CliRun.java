package org.hostir.studio.tests;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.hostir.studio.cli.Main;

/** Runs {@code hirstudio} in-process, as the command line does, and keeps what it printed. */
public record CliRun(int code, String out, String err) {
    /** As typed, the seeds' generation named where the test names none ({@link SeedGeneration#pin}). */
    public static CliRun of(String... args) { return of(new Main(), SeedGeneration.pin(args)); }

    /**
     * As the installed command runs, with {@code hirstudio.home} at the checkout: commands that find the
     * repository's own files (the demo's example) do not depend on the test runner's working directory.
     */
    public static synchronized CliRun atHome(String... args) {
        String previous = System.getProperty("hirstudio.home");
        System.setProperty("hirstudio.home", RepoPaths.repo().toString());
        try {
            return of(args);
        } finally {
            if (previous == null) System.clearProperty("hirstudio.home");
            else System.setProperty("hirstudio.home", previous);
        }
    }

    /** With another dispatch table or environment ({@link Main#Main(java.util.Map, java.util.function.Function)}). */
    public static CliRun of(Main main, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
