package org.hostir.studio.tests.hostile;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.google.gson.JsonParser;

import org.hostir.studio.cli.Main;
import org.hostir.studio.trace.TraceFormatCheck;

/**
 * SIGINT and SIGTERM while a run writes its trace (issue 31 item 3: a 10-20 MB hidden temporary stayed behind),
 * in a child JVM: when the temporary file appears, or early in the run; over an older trace of this tool or onto
 * a new path. Afterwards no temporary file may be left, and the trace is the old one, byte for byte, or a whole new
 * one.
 */
final class SignalCases {
    /** The reason of a case whose run ended before it could be interrupted: it tested nothing. */
    static final String ENDED_FIRST = "the run ended before the signal";

    private SignalCases() {}

    /** One interruption: which signal, when, and whether a trace of ours was there before. */
    record Interruption(String signal, boolean midWrite, boolean overOld) {
        String label() {
            return "SIG" + signal + (midWrite ? " while the trace is written" : " 300 ms into the run")
                    + (overOld ? ", over an older trace" : ", onto a new path");
        }
    }

    static List<Interruption> all() {
        List<Interruption> out = new ArrayList<>();
        for (boolean midWrite : new boolean[] {true, false}) {
            for (boolean overOld : new boolean[] {true, false}) {
                for (String signal : List.of("INT", "TERM")) out.add(new Interruption(signal, midWrite, overOld));
            }
        }
        return out;
    }

    /** The run's fusion: 16 devices, 64 stream iterations each, so the trace takes a while to write. */
    private static final String BIG = Fixtures.fusion(Fixtures.NAME, Fixtures.DESCRIPTION, "64");

    static HostileCase asCase(Interruption i) {
        return HostileCase.of("signals", i.label(), Expect.EITHER, dir -> { }, dir -> args(dir));
    }

    private static List<String> args(Path dir) {
        return List.of("run", dir.resolve(Fixtures.FUSION).toString(), "--backend", "cpu", "--devices", "16",
                "--iterations", "10", "--warmup", "0", "--no-validate", "--trace", dir.resolve("t.json").toString());
    }

    static HostileSuite.Result run(Interruption i, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Fixtures.write(dir, Fixtures.FUSION, BIG);
        if (i.overOld()) Fixtures.write(dir, "t.json", Fixtures.trace());
        FileState before = FileState.of(dir);
        List<String> command = new ArrayList<>(List.of(java(), "--enable-native-access=ALL-UNNAMED", "-cp",
                classPath(), Main.class.getName()));
        command.addAll(args(dir));
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("../"
                + dir.getFileName() + ".log").toFile()).start();
        boolean caught = i.midWrite() ? awaitTemporary(dir, p) : sleepWhileAlive(p, 300);
        if (caught) signal(p, i.signal());
        boolean ended = p.waitFor(HostileSuite.CASE_SECONDS, TimeUnit.SECONDS);
        if (!ended) p.destroyForcibly().waitFor();
        long millis = (System.nanoTime() - start) / 1_000_000;
        FileState.Damage d = before.damage(FileState.of(dir), List.of("t.json"));
        List<String> damage = new ArrayList<>(d.destroyed());
        damage.addAll(d.stray());
        trace(dir, before).ifPresent(damage::add);
        String log = Files.readString(dir.resolve("../" + dir.getFileName() + ".log"));
        CaseRun run = new CaseRun(args(dir), ended ? p.exitValue() : -1, "", log, !ended);
        Classifier.Outcome outcome = !damage.isEmpty()
                ? new Classifier.Outcome(Verdict.FILE_DESTROYED, String.join("; ", damage))
                : !ended ? new Classifier.Outcome(Verdict.INTERNAL_ERROR, "did not end after the signal")
                : new Classifier.Outcome(Verdict.ACCEPTED_CORRECTLY, caught ? "interrupted, nothing lost"
                        : ENDED_FIRST);
        return new HostileSuite.Result(asCase(i), run, outcome, millis);
    }

    /** The trace afterwards is the old one or a whole new one (or absent, where there was none). */
    private static Optional<String> trace(Path dir, FileState before) throws IOException {
        Path t = dir.resolve("t.json");
        if (!Files.exists(t)) return before.entries().containsKey("t.json") ? Optional.of("the old trace is gone")
                : Optional.empty();
        if (FileState.of(dir).entries().get("t.json").equals(before.entries().get("t.json"))) return Optional.empty();
        List<TraceFormatCheck.Violation> v = TraceFormatCheck.check(t);
        return v.isEmpty() ? Optional.empty() : Optional.of("t.json is neither the old trace nor a whole new one: "
                + v.getFirst());
    }

    /** Polls for the hidden temporary of the trace; true when it exists (the write is under way). */
    private static boolean awaitTemporary(Path dir, Process p) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + HostileSuite.CASE_SECONDS * 1_000_000_000L;
        while (p.isAlive() && System.nanoTime() < deadline) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.anyMatch(f -> FileState.temporary(f.getFileName().toString()))) return true;
            }
            Thread.sleep(1);
        }
        return false;
    }

    private static boolean sleepWhileAlive(Process p, long millis) throws InterruptedException {
        return !p.waitFor(millis, TimeUnit.MILLISECONDS);
    }

    private static void signal(Process p, String signal) throws IOException, InterruptedException {
        if (signal.equals("TERM")) {
            p.destroy(); // SIGTERM on Linux
        } else {
            new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The engine's classes and Gson, wherever this test runner loaded them from. */
    private static String classPath() {
        List<String> parts = new ArrayList<>();
        for (Class<?> c : List.of(Main.class, JsonParser.class)) {
            try {
                parts.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        return String.join(File.pathSeparator, parts);
    }
}
