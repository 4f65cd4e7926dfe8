package org.hostir.studio.tests.reliability;

import static org.hostir.studio.tests.reliability.ReliabilityFiles.oneLine;
import static org.hostir.studio.tests.reliability.ReliabilityFiles.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import org.hostir.studio.file.AtomicFiles;
import org.hostir.studio.file.FileErrors;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.trace.ChromeTraceReader;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.TraceFormatCheck;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, "files are safe": what {@code run --trace} and {@code --save-npy} write never destroys a file. The
 * fusion being run is never an output (however spelled, even with --force), a file this tool did not write is
 * kept unless --force, paths that name no file are refused before the run, and writing is atomic, so concurrent
 * runs to one path leave a whole trace and a failed write leaves the old file.
 */
class OutputFilesTest {
    private static CliRun run(Path fusion, String... more) {
        List<String> args = new ArrayList<>(List.of("run", fusion.toString(), "--backend", "cpu"));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void theFusionBeingRunIsNeverTheTrace(@TempDir Path dir) throws IOException {
        Path fusion = small(dir, "f");
        byte[] before = Files.readAllBytes(fusion);
        Files.createDirectories(dir.resolve("sub"));
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), fusion);
        for (String spelling : List.of(fusion.toString(), dir.resolve("sub/../f.fusion").toString(), link.toString())) {
            oneLine(run(fusion, "--trace", spelling), 2, "is the fusion file being run");
            oneLine(run(fusion, "--trace", spelling, "--force"), 2, "is the fusion file being run");
        }
        oneLine(run(fusion, "--save-npy", fusion.toString()), 2, "is the fusion file being run");
        assertArrayEquals(before, Files.readAllBytes(fusion));
    }

    @Test
    void aFileThisToolDidNotWriteIsKeptUnlessForced(@TempDir Path dir) throws IOException {
        Path fusion = small(dir, "f");
        Path foreign = Files.writeString(dir.resolve("notes.json"), "{\"mine\": true}\n");
        oneLine(run(fusion, "--trace", foreign.toString()), 2,
                "exists and is not a trace this tool wrote; add --force");
        assertEquals("{\"mine\": true}\n", Files.readString(foreign));
        CliRun forced = run(fusion, "--trace", foreign.toString(), "--force");
        assertEquals(0, forced.code(), forced.err());
        assertTrue(ChromeTraceWriter.wroteThis(foreign));
        CliRun again = run(fusion, "--trace", foreign.toString());
        assertEquals(0, again.code(), "a trace of ours is replaced without --force: " + again.err());
        assertEquals(List.of("f.fusion", "notes.json"), names(dir), "no temporary file is left behind");
    }

    @Test
    void pathsThatNameNoFileAreRefusedBeforeTheRun(@TempDir Path dir) throws IOException {
        Path fusion = small(dir, "f");
        oneLine(run(fusion, "--trace", ""), 2, "--trace: needs a file name, got an empty string [run.output]");
        CliRun folder = run(fusion, "--trace", dir.toString());
        oneLine(folder, 2, "is a folder; name a file");
        assertTrue(!folder.out().contains("iteration"), "refused before running:\n" + folder.out());
        Path notAFolder = Files.writeString(dir.resolve("plain.txt"), "x");
        oneLine(run(fusion, "--trace", notAFolder.resolve("t.json").toString()), 2, "is not a folder");
        oneLine(run(fusion, "--save-npy", notAFolder.toString()), 2, "exists and is not a folder");
        assertEquals("x", Files.readString(notAFolder));
        if (Files.exists(Path.of("/dev/full"))) {
            oneLine(run(fusion, "--trace", "/dev/full"), 2, "is not a regular file");
            oneLine(run(fusion, "--trace", "/dev/full", "--force"), 2, "is not a regular file");
        }
    }

    @Test
    void concurrentRunsToOneTraceLeaveAWholeTrace(@TempDir Path dir) throws Exception {
        Path fusion = small(dir, "f");
        Path trace = dir.resolve("shared.json");
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Callable<CliRun>> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) runs.add(() -> run(fusion, "--trace", trace.toString(), "--iterations", "20"));
            for (Future<CliRun> f : pool.invokeAll(runs)) assertEquals(0, f.get().code(), f.get().err());
        } finally {
            pool.shutdown();
        }
        assertEquals(List.of(), TraceFormatCheck.check(trace));
        assertEquals(List.of(0, 1), ChromeTraceReader.read(trace).ranks());
        assertEquals(List.of("f.fusion", "shared.json"), names(dir), "no temporary file is left behind");
    }

    @Test
    void aFailedWriteLeavesTheOldFileAndNoTemporary(@TempDir Path dir) throws IOException {
        Path target = Files.writeString(dir.resolve("old.json"), "old");
        assertThrows(IOException.class, () -> AtomicFiles.write(target, out -> {
            out.write("half of a new fi".getBytes(StandardCharsets.UTF_8));
            throw new IOException("No space left on device");
        }));
        assertEquals("old", Files.readString(target));
        assertEquals(List.of("old.json"), names(dir));
        AtomicFiles.write(target, out -> out.write("new".getBytes(StandardCharsets.UTF_8)));
        assertEquals("new", Files.readString(target));
        assertEquals(umaskDefault(dir), PosixFilePermissions.toString(Files.getPosixFilePermissions(target)),
                "the result has a new file's permissions, not a temporary file's 600");
    }

    @Test
    void saveNpyReplacesItsOwnFilesOnly(@TempDir Path dir) throws IOException {
        Path fusion = small(dir, "f");
        Path npy = dir.resolve("npy");
        assertEquals(0, run(fusion, "--save-npy", npy.toString()).code());
        assertEquals(0, run(fusion, "--save-npy", npy.toString()).code(), "its own folder is written again");
        Path other = Files.createDirectories(dir.resolve("other"));
        Path foreign = Files.writeString(other.resolve("in_in.npy"), "someone's array");
        oneLine(run(fusion, "--save-npy", other.toString()), 2, "in_in.npy' exists and is not a file of a saved run");
        assertEquals("someone's array", Files.readString(foreign));
        assertEquals(0, run(fusion, "--save-npy", other.toString(), "--force").code());
        assertEquals(List.of("in_in.npy", "manifest.json", "out_out.npy"), names(other));
    }

    @Test
    void fileErrorsSayWhy(@TempDir Path dir) throws IOException {
        assertEquals("/x/t.json: permission denied", FileErrors.describe(new AccessDeniedException("/x/t.json")));
        assertEquals("No space left on device", FileErrors.reason(new IOException("No space left on device")));
        Path fusion = small(dir, "f");
        Path locked = Files.createDirectories(dir.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Assumptions.assumeFalse(Files.isWritable(locked), "permissions do not bind this user (root)");
            oneLine(run(fusion, "--trace", locked.resolve("t.json").toString()), 2, "permission denied");
            oneLine(run(fusion, "--save-npy", locked.toString()), 2, "permission denied");
            Path unreadable = small(dir, "secret");
            Files.setPosixFilePermissions(unreadable, PosixFilePermissions.fromString("-w-------"));
            oneLine(run(unreadable), 2, "cannot read the file: " + unreadable + ": permission denied");
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    private static String umaskDefault(Path dir) throws IOException {
        Path probe = Files.createFile(dir.resolve("probe"));
        String p = PosixFilePermissions.toString(Files.getPosixFilePermissions(probe));
        Files.delete(probe);
        return p;
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
