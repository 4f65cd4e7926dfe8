package org.hostir.studio.tests.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.hostir.studio.cli.Command;
import org.hostir.studio.cli.Main;
import org.hostir.studio.tests.SeedGeneration;

/** Runs {@code hirstudio} in-process and captures what it prints. */
record CliRun(int exitCode, String out, String err) {

    /** The seeds' generation named where the test names none ({@link SeedGeneration#pin}). */
    static CliRun run(String... args) { return run(new Main(), SeedGeneration.pin(args)); }

    static CliRun run(Map<String, Command> commands, Function<String, String> env, String... args) {
        return run(new Main(commands, env), args);
    }

    static CliRun run(Main main, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    List<String> errLines() { return err.lines().toList(); }

    List<String> outLines() { return out.lines().toList(); }
}
