package org.hostir.studio.tests.reliability;

import static org.hostir.studio.tests.reliability.ReliabilityFiles.oneLine;
import static org.hostir.studio.tests.reliability.ReliabilityFiles.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, "an input is never an output": every command that writes files names what it reads and what it will
 * write before anything runs; an output that is an input (however spelled, even with --force), two outputs on
 * one path, and a read-only file (even with --force) are refused with one line, exit 2, and nothing is written.
 */
class OutputPolicyTest {
    private static CliRun run(Path fusion, String... more) {
        List<String> args = new ArrayList<>(List.of("run", fusion.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void theProfileBeingReadIsNeverTheTrace(@TempDir Path dir) throws Exception {
        Path fusion = small(dir, "f");
        Path profile = Files.writeString(dir.resolve("prof.json"), ProfileJson.write(ProfileFiles.builtIn(
                "h200x2-measured")));
        byte[] before = Files.readAllBytes(profile);
        Files.createDirectories(dir.resolve("sub"));
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), profile);
        for (String spelling : List.of(profile.toString(), dir.resolve("sub/../prof.json").toString(),
                dir.resolve("new/../prof.json").toString(), link.toString())) {
            oneLine(run(fusion, "--backend", "sim", "--profile", profile.toString(), "--trace", spelling, "--force"),
                    2, "--trace: '" + spelling + "' is the profile this run reads (--profile); writing a trace there"
                            + " would destroy it [run.output]");
        }
        oneLine(run(fusion, "--backend", "sim", "--profile", link.toString(), "--trace", profile.toString(),
                "--force"), 2, "is the profile this run reads");
        assertArrayEquals(before, Files.readAllBytes(profile));
        assertFalse(Files.exists(dir.resolve("new")), "nothing was created before the refusal");
    }

    @Test
    void aMissingFolderAndDotDotDoNotHideTheFusion(@TempDir Path dir) throws IOException {
        Path fusion = small(dir, "f");
        byte[] before = Files.readAllBytes(fusion);
        String spelling = dir.resolve("new/../f.fusion").toString();
        oneLine(run(fusion, "--backend", "cpu", "--trace", spelling, "--force"), 2, "is the fusion file being run");
        oneLine(run(fusion, "--backend", "cpu", "--save-npy", dir.resolve("new/..").toString(), "--trace",
                dir.resolve("new/../in_in.npy").toString()), 2, "two outputs of one run cannot share a path");
        assertArrayEquals(before, Files.readAllBytes(fusion));
        assertEquals(List.of("f.fusion"), names(dir));
        CliRun written = run(fusion, "--backend", "cpu", "--trace", dir.resolve("new/../t.json").toString());
        assertEquals(0, written.code(), written.err());
        assertEquals(List.of("f.fusion", "t.json"), names(dir), "the trace is where the policy checked it, and no"
                + " folder 'new' is made on the way");
    }

    @Test
    void twoOutputsNeverShareAPath(@TempDir Path dir) throws IOException {
        Path fusion = small(dir, "f");
        Path npy = dir.resolve("npy");
        oneLine(run(fusion, "--backend", "cpu", "--save-npy", npy.toString(), "--trace",
                npy.resolve("manifest.json").toString()), 2, "--save-npy: '" + npy.resolve("manifest.json")
                + "' is also where --trace writes a trace; two outputs of one run cannot share a path [run.output]");
        oneLine(run(fusion, "--backend", "cpu", "--save-npy", npy.toString(), "--trace", npy.toString()), 2,
                "'" + npy + "' is also where --trace writes a trace");
        assertFalse(Files.exists(npy), "refused before anything was written");
        assertEquals(0, run(fusion, "--backend", "cpu", "--save-npy", npy.toString()).code());
        byte[] saved = Files.readAllBytes(npy.resolve("out_out.npy"));
        oneLine(run(fusion, "--backend", "cpu", "--save-npy", npy.toString(), "--trace",
                npy.resolve("out_out.npy").toString(), "--force"), 2, "two outputs of one run cannot share a path");
        oneLine(run(fusion, "--backend", "cpu", "--save-npy", npy.toString(), "--trace",
                npy.resolve("./out_out.npy").toString(), "--force"), 2, "two outputs of one run cannot share a path");
        assertArrayEquals(saved, Files.readAllBytes(npy.resolve("out_out.npy")));
        Path odd = dir.resolve("n\npy"); // a newline in the path: the refusal is still one line
        oneLine(run(fusion, "--backend", "cpu", "--save-npy", odd.toString(), "--trace",
                odd.resolve("manifest.json").toString()), 2, "'" + dir + "/n\\u000apy/manifest.json' is also where");
    }

    @Test
    void aReadOnlyFileIsNeverReplaced(@TempDir Path dir) throws IOException {
        Path fusion = small(dir, "f");
        Path trace = dir.resolve("t.json");
        assertEquals(0, run(fusion, "--backend", "cpu", "--trace", trace.toString()).code());
        byte[] before = Files.readAllBytes(trace);
        Files.setPosixFilePermissions(trace, PosixFilePermissions.fromString("r--r--r--"));
        for (String force : List.of("--no-validate", "--force")) {
            oneLine(run(fusion, "--backend", "cpu", "--trace", trace.toString(), force), 2, "--trace: '" + trace
                    + "' is read-only; it is never replaced, not even with --force (make it writable or name another"
                    + " file) [run.output]");
        }
        assertArrayEquals(before, Files.readAllBytes(trace));
        Path npy = Files.createDirectories(dir.resolve("npy"));
        Path manifest = Files.writeString(npy.resolve("manifest.json"), "{}");
        Files.setPosixFilePermissions(manifest, PosixFilePermissions.fromString("r--------"));
        oneLine(run(fusion, "--backend", "cpu", "--save-npy", npy.toString(), "--force"), 2, "is read-only");
        assertEquals("{}", Files.readString(manifest));
    }

    /** calibrate refuses its output before it looks for a GPU, so these hold on a machine without one. */
    @Test
    void calibrateNeverWritesOverWhatItReads(@TempDir Path dir) throws Exception {
        Path base = Files.writeString(dir.resolve("base.json"), ProfileJson.write(ProfileFiles.builtIn(
                "h200x2-measured")));
        byte[] before = Files.readAllBytes(base);
        oneLine(CliRun.of("calibrate", "--out", base.toString(), "--base", base.toString(), "--force"), 2,
                "calibrate: --out: '" + base + "' is the base profile (--base); writing a profile there would"
                        + " destroy it [run.output]");
        assertArrayEquals(before, Files.readAllBytes(base));
        Path examples = Files.createDirectories(dir.resolve("examples/seeds"));
        Path seed = small(examples, "ag_matmul");
        oneLine(CliRun.of("calibrate", "--out", seed.toString(), "--examples", dir.resolve("examples").toString(),
                "--force"), 2, "is one of the examples calibration runs");
        oneLine(CliRun.of("calibrate", "--out", base.toString()), 2, "calibrate: --out: '" + base
                + "' exists; add --force to replace it [run.output]");
        assertArrayEquals(before, Files.readAllBytes(base));
    }

    @Test
    void benchDiagnoseChecksItsFolderBeforeLookingForGpus(@TempDir Path dir) throws IOException {
        Path traces = Files.createDirectories(dir.resolve("traces"));
        Path foreign = Files.writeString(traces.resolve("bfloat16_32768_p2p_offset.json"), "mine");
        oneLine(CliRun.of("bench", "agmm", "--diagnose", traces.toString()), 2,
                "bench agmm: --diagnose: '" + foreign + "' exists and is not a trace this tool wrote");
        assertEquals("mine", Files.readString(foreign));
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
