package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.trace.ChromeTraceReader;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceFormatCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hirstudio run} and {@code hirstudio demo}, in-process. */
class RunCommandTest {
    private static CliRun main(String... args) { return CliRun.of(args); }

    private static String example(String name) {
        return RepoPaths.repo().resolve("examples/seeds/" + name + ".fusion").toString();
    }

    @Test
    void runPrintsProgressTimingsOverlapMemoryAndValidation() {
        CliRun r = main("run", example("allgather"), "--devices", "4", "--iterations", "2", "--warmup", "1",
                "--streams", "2", "--validate");
        assertEquals(0, r.code(), r.out() + r.err());
        for (String expected : List.of("warm-up 1/1: ", "iteration 1/2: ", "iteration 2/2: ", "time: median ",
                "overlap: rank 0: compute", "peak memory: rank 0 ", "numberOfStreams=2", "rank 3 program: ")) {
            assertTrue(r.out().contains(expected), () -> expected + " missing in\n" + r.out());
        }
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("validation: PASS max_abs_err=")), r.out());
    }

    /**
     * run validates by default (the whole output while it is small, a sample beyond); --validate=full checks every
     * element whatever the size, --no-validate nothing; contradictions and unknown values are usage errors.
     */
    @Test
    void runValidatesByDefaultSampledWhereLarge() {
        CliRun plain = main("run", example("ag_matmul_p2p"), "--devices", "2");
        assertEquals(0, plain.code(), plain.out() + plain.err());
        assertTrue(plain.out().lines().anyMatch(l -> l.startsWith("validation: PASS ") && l.contains("(all ")),
                plain.out());
        String[] large = {"run", example("ag_matmul_p2p"), "--devices", "2", "--set", "M=2048", "--set", "K=64",
                "--set", "N=1100"}; // 2 x 2048 x 1100 outputs: past the full-check budget
        CliRun sampled = main(large);
        assertEquals(0, sampled.code(), sampled.out() + sampled.err());
        assertTrue(sampled.out().lines().anyMatch(l -> l.startsWith("validation: PASS ") && l.contains(": sampled ")
                && l.contains("escapes with probability")), sampled.out());
        CliRun full = main(Stream.concat(Arrays.stream(large), Stream.of(
                "--validate=full")).toArray(String[]::new));
        assertEquals(0, full.code(), full.out() + full.err());
        assertTrue(full.out().lines().anyMatch(l -> l.startsWith("validation: PASS ") && l.contains("(all 4505600 ")),
                full.out());
        CliRun none = main("run", example("ag_matmul_p2p"), "--devices", "2", "--no-validate");
        assertEquals(0, none.code(), none.out() + none.err());
        assertTrue(none.out().lines().noneMatch(l -> l.startsWith("validation:")), none.out());
        for (String[] bad : new String[][] {{"--validate=some"}, {"--validate", "--no-validate"}, {"--no-validate=x"}}) {
            CliRun r = main(Stream.concat(Stream.of("run", example("ag_matmul_p2p")),
                    Arrays.stream(bad)).toArray(String[]::new));
            assertEquals(2, r.code(), String.join(" ", bad) + ": " + r.out() + r.err());
            assertTrue(r.err().startsWith("error: run: --"), r.err());
        }
    }

    @Test
    void theTraceFollowsTheFormatRulesAndShowsTransfersOverlappingMatmuls(@TempDir Path dir) throws Exception {
        boolean overlapped = false;
        for (int attempt = 0; attempt < 5 && !overlapped; attempt++) {
            Path trace = dir.resolve("trace" + attempt + ".json");
            CliRun r = main("run", example("ag_matmul_p2p"), "--devices", "4", "--set", "M=96", "--set", "K=256",
                    "--set", "N=256", "--validate", "--trace", trace.toString());
            assertEquals(0, r.code(), r.out() + r.err());
            assertEquals(List.of(), TraceFormatCheck.check(trace));
            Timeline t = ChromeTraceReader.read(trace);
            assertEquals(List.of(0, 1, 2, 3), t.ranks());
            for (TimelineEvent c : t.events()) {
                for (TimelineEvent m : t.events()) {
                    overlapped |= c.kind() == EventKind.P2P && m.kind() == EventKind.MATMUL && c.rank() == m.rank()
                            && c.stream() != m.stream() && m.startNs() < c.endNs() && c.startNs() < m.endNs();
                }
            }
        }
        assertTrue(overlapped, "no transfer overlapped a matmul on another stream");
    }

    @Test
    void userErrorsAreOneLineAndFailuresExitNonZero() {
        CliRun cuda = main("run", example("allgather"), "--backend", "cuda", "--devices", "64"); // more GPUs than any machine here
        assertEquals(2, cuda.code());
        assertEquals(1, cuda.err().lines().count(), cuda.err());
        assertTrue(cuda.err().startsWith("error: "), cuda.err());
        CliRun badStreams = main("run", example("allgather"), "--streams", "0");
        assertEquals(2, badStreams.code());
        assertTrue(badStreams.err().startsWith("error: "), badStreams.err());
        CliRun missing = main("run", "no/such.fusion");
        assertEquals(2, missing.code());
        assertTrue(!missing.err().contains("Exception"), missing.err());
    }

    /** --share-gpus is refused, in one line, where it cannot apply; without a GPU, as every CUDA run is. */
    @Test
    void shareGpusDiagnosticsAreOneLine() {
        for (String[] args : new String[][] {
                {"run", example("ag_matmul_p2p"), "--share-gpus", "--backend", "cpu"},
                {"run", example("ag_matmul_p2p"), "--share-gpus", "--devices", "64"}}) {
            CliRun r = main(args);
            assertEquals(2, r.code(), r.out() + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("error: " + example("ag_matmul_p2p") + ": --share-gpus: "), r.err());
        }
        CliRun nccl = main("run", example("ag_matmul_p2p"), "--share-gpus", "--devices", "64");
        assertTrue(nccl.err().contains(CudaBackend.localDeviceCount() == 0 ? "no CUDA device found"
                : "add --option backend=cuda"), nccl.err());
    }

    @Test
    void demoLowersRunsValidatesAndSaysWhereTheTraceIs(@TempDir Path dir) {
        Path trace = dir.resolve("demo.json");
        CliRun r = CliRun.atHome("demo", "--trace", trace.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("%HostIrContainer {"), r.out());
        assertTrue(r.out().contains("validation: PASS"), r.out());
        assertTrue(r.out().contains("trace: " + trace + " (Chrome trace JSON: open it in Perfetto"), r.out());
        assertTrue(trace.toFile().length() > 0);
    }

    @Test
    void saveNpyWritesInputsGatheredOutputsAndAManifest(@TempDir Path dir) throws Exception {
        CliRun r = main("run", example("matmul_rs_through_bcast"), "--devices", "2", "--backend", "cpu",
                "--save-npy", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("saved: " + dir.resolve("manifest.json")), r.out());
        String m = java.nio.file.Files.readString(dir.resolve("manifest.json"));
        for (String part : List.of("\"fusion\": \"" + example("matmul_rs_through_bcast"), "\"D\": 2",
                "{\"role\": \"input\", \"name\": \"tv0\", \"file\": \"in_tv0.npy\", \"dtype\": \"float\", \"shape\": [2, 4, 2, 8, 4]}",
                "{\"role\": \"output\", \"name\": \"tv4\", \"file\": \"out_tv4.npy\", \"dtype\": \"float\", \"shape\": [4, 2, 8, 6]}")) {
            assertTrue(m.contains(part), () -> part + " missing in\n" + m);
        }
        // the gathered output: 4 * 2 * 8 * 6 floats after the header
        long size = java.nio.file.Files.size(dir.resolve("out_tv4.npy"));
        assertEquals(4 * 2 * 8 * 6 * 4, size - 128);
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("host dispatch: median ")), r.out());
    }
}
