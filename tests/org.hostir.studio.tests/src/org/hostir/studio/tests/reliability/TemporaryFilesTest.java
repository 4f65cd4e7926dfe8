package org.hostir.studio.tests.reliability;

import static org.hostir.studio.tests.reliability.ReliabilityFiles.small;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.hostir.studio.cli.Main;
import org.hostir.studio.file.AtomicFiles;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, "nothing left behind": a file is written to a hidden temporary file and renamed; a signal during the
 * write (SIGTERM, SIGINT: the JVM's shutdown hook) leaves no temporary file and the old target as it was, and a
 * temporary file that a killed writer left (SIGKILL) is swept by the next write of that target once it is stale:
 * older than a minute and locked by no process.
 */
class TemporaryFilesTest {
    private static final String OLD = "the user's old file\n";

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSignalDuringAWriteLeavesNoTemporaryAndTheOldFile(@TempDir Path dir) throws Exception {
        for (String signal : List.of("TERM", "INT")) {
            Path target = Files.writeString(dir.resolve("t.json"), OLD);
            Process child = ChildJvm.start(dir, SlowWriteMain.class, target.toString());
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            assertEquals("writing", out.readLine(), "the child reached the middle of its write");
            assertEquals(1, temporaries(dir).size(), "the write in progress has its temporary file");
            ChildJvm.signal(child, signal);
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child ends on SIG" + signal);
            assertNotEquals(0, child.exitValue());
            assertEquals(List.of(), temporaries(dir), "SIG" + signal + " left a temporary file");
            assertEquals(OLD, Files.readString(target), "SIG" + signal + " changed the old file");
        }
    }

    /**
     * The command line itself, writing a big trace: the child is frozen (SIGSTOP) while its temporary file exists,
     * so the SIGTERM that follows certainly lands before the rename; then it may go on (SIGCONT) and end.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void sigtermWhileRunWritesItsTraceLeavesNoTemporary(@TempDir Path dir) throws Exception {
        Path fusion = Files.copy(RepoPaths.repo().resolve("examples/seeds/ag_matmul_p2p.fusion"),
                dir.resolve("f.fusion"));
        Path target = Files.writeString(dir.resolve("t.json"), OLD);
        Path log = dir.resolve("run.log");
        for (int devices = 128; ; devices *= 2) {
            // the seeds' example, lowered as the seeds' nvFuser lowers it
            Process child = ChildJvm.startLogged(dir, log, Main.class, "run", fusion.toString(), "--nvfuser", "2025-06",
                    "--backend", "sim", "--devices", Integer.toString(devices), "--iterations", "1", "--warmup", "0",
                    "--no-validate", "--trace", target.toString(), "--force");
            while (child.isAlive() && temporaries(dir).isEmpty()) Thread.sleep(2);
            if (!child.isAlive()) throw new AssertionError("the run ended before its trace was written: "
                    + child.exitValue() + "\n" + Files.readString(log));
            ChildJvm.signal(child, "STOP");
            boolean midWrite = !temporaries(dir).isEmpty();
            ChildJvm.signal(child, "TERM");
            ChildJvm.signal(child, "CONT");
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the run ends on SIGTERM");
            assertEquals(List.of(), temporaries(dir), "SIGTERM left a temporary file");
            if (midWrite) {
                assertEquals(143, child.exitValue(), "killed by SIGTERM (128 + 15)");
                assertEquals(OLD, Files.readString(target), "SIGTERM mid-write changed the old file");
                return;
            }
            // the rename won the race against SIGSTOP: the trace is whole; try again with a bigger one
            assertTrue(ChromeTraceWriter.wroteThis(target));
            Files.writeString(target, OLD);
            assertTrue(devices < 1024, "the trace was always written before the child could be stopped");
        }
    }

    @Test
    void aStaleTemporaryIsSweptByTheNextWriteOfItsTarget(@TempDir Path dir) throws IOException {
        Path fusion = small(dir, "f");
        Path old = temporary(dir, "t.json", "0123456789abcdef", Duration.ofMinutes(5));
        Path oldShortName = temporary(dir, "t.json", "1f", Duration.ofHours(2)); // an older version's naming
        Path fresh = temporary(dir, "t.json", "fedcba9876543210", Duration.ZERO); // a writer may be at work
        Path otherTarget = temporary(dir, "u.json", "0123456789abcdef", Duration.ofMinutes(5));
        Path notOurs = Files.writeString(dir.resolve(".t.json.backup.tmp"), "someone else's");
        Files.setLastModifiedTime(notOurs, FileTime.from(Instant.now().minus(Duration.ofDays(1))));
        CliRun r = CliRun.of("run", fusion.toString(), "--backend", "cpu", "--trace", dir.resolve("t.json").toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(Files.exists(old), "a stale temporary file of t.json is swept");
        assertFalse(Files.exists(oldShortName), "a stale temporary file of t.json is swept");
        assertTrue(Files.exists(fresh), "a recent one is kept: its writer may be alive");
        assertTrue(Files.exists(otherTarget), "another target's temporary file is that write's to sweep");
        assertTrue(Files.exists(notOurs), "a file of another naming is not this tool's");
        assertTrue(ChromeTraceWriter.wroteThis(dir.resolve("t.json")));
    }

    /** A temporary file whose writer is alive (it holds the lock) is kept however old it looks. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLockedTemporaryIsKept(@TempDir Path dir) throws Exception {
        Path locked = dir.resolve(".t.json.00000000000000aa.tmp");
        Process child = ChildJvm.start(dir, LockedTemporaryMain.class, locked.toString());
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            assertEquals("locked", out.readLine());
            Files.setLastModifiedTime(locked, FileTime.from(Instant.now().minus(Duration.ofMinutes(30))));
            assertFalse(AtomicFiles.isStale(locked, Instant.now()), "its writer holds the lock");
            assertEquals(List.of(), AtomicFiles.sweep(dir, "t.json"));
            assertTrue(Files.exists(locked));
        } finally {
            child.destroyForcibly().waitFor();
        }
        assertTrue(AtomicFiles.isStale(locked, Instant.now()), "its writer is gone (killed): the lock went with it");
        assertEquals(List.of(locked), AtomicFiles.sweep(dir, "t.json"));
    }

    private static Path temporary(Path dir, String target, String hex, Duration age) throws IOException {
        Path p = Files.writeString(dir.resolve("." + target + "." + hex + ".tmp"), "half a file");
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(age)));
        return p;
    }

    private static List<Path> temporaries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        }
    }
}
