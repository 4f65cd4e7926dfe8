package org.hostir.studio.tests.reliability;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.hostir.studio.cli.Main;

import com.google.gson.Gson;

/**
 * Another JVM running a main class of the engine or of these tests, for what only a separate process shows: a
 * signal during a write, a lock held by another process. Its classpath is where this JVM loaded the engine, Gson
 * and the tests from: a class folder or jar, or (a bundle run by the test harness) the bundle's class folder.
 */
final class ChildJvm {
    private ChildJvm() {}

    /** {@code main args...} in {@code workingDir}; its stdout and stderr are the process's input stream. */
    static Process start(Path workingDir, Class<?> main, String... args) throws IOException {
        return builder(workingDir, main, args).start();
    }

    /** As {@link #start}, its output going to {@code log} (a chatty child never blocks on a full pipe). */
    static Process startLogged(Path workingDir, Path log, Class<?> main, String... args) throws IOException {
        return builder(workingDir, main, args).redirectOutput(log.toFile()).start();
    }

    private static ProcessBuilder builder(Path workingDir, Class<?> main, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx1g", "-cp", classpath(), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).directory(workingDir.toFile()).redirectErrorStream(true);
    }

    /** Sends {@code signal} (TERM, INT, STOP, CONT) to {@code p}. */
    static void signal(Process p, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
        if (kill.waitFor() != 0) throw new IOException("kill -" + signal + " " + p.pid() + " failed");
    }

    private static String classpath() {
        Set<String> entries = new LinkedHashSet<>();
        for (Class<?> c : List.of(Main.class, Gson.class, ChildJvm.class)) entries.add(root(c).toString());
        return String.join(File.pathSeparator, entries);
    }

    /** The class folder or jar {@code c} was loaded from. */
    private static Path root(Class<?> c) {
        String resource = c.getName().replace('.', '/') + ".class";
        CodeSource source = c.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) throw new IllegalStateException("no code source: " + c);
        Path location = path(source.getLocation());
        if (!Files.isDirectory(location) || Files.isRegularFile(location.resolve(resource))) return location;
        for (String output : List.of("bin", "target/classes", "target/test-classes")) { // a bundle's folder
            if (Files.isRegularFile(location.resolve(output).resolve(resource))) return location.resolve(output);
        }
        throw new IllegalStateException(resource + " is not under " + location);
    }

    private static Path path(URL url) {
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalStateException("not a file: " + url, e);
        }
    }
}
