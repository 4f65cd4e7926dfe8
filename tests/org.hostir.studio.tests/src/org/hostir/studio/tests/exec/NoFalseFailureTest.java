package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.hostir.studio.exec.OutputValidator;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Validation;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Correct runs PASS under the error-bounded tolerance at realistic sizes on the CPU backend: the AG+matmul seeds
 * at M = K = N = 512 and 1024 on 2 devices, and every example with its sizes scaled up, in float, bfloat16 and half, on
 * 2 and 4 devices (where partial sums meet in collectives, in the tensor's dtype).
 * <p>
 * In CI the examples holding a {@code grouped_mm} (the MoE ones: their scaled-up CPU runs took 38 s of the suite's
 * 66 s) run in the two narrow dtypes only, bfloat16 on 2 devices and half on 4, where the tolerance is tightest
 * against the rounding; {@code -Dhirstudio.tests.noFalseFailure=true} runs every example in every dtype on both
 * (as does {@code HIRSTUDIO_JAVA_OPTS=-Dhirstudio.tests.noFalseFailure=true ./hirstudio unit NoFalseFailure}).
 */
class NoFalseFailureTest {
    private static final boolean FULL = Boolean.getBoolean("hirstudio.tests.noFalseFailure");
    private static final List<String> DTYPES = List.of("float", "bfloat16", "half");

    @Test
    void allgatherMatmulsAt512And1024Pass() throws Exception {
        for (long size : new long[] {512, 1024}) allgatherMatmulsPass(size);
    }

    /** M = K = N = {@code size}: M rows of A in all, S * D * M for ag_matmul, D * M for ag_matmul_p2p. */
    private static void allgatherMatmulsPass(long size) throws Exception {
        Map<String, Map<String, Long>> sizes = Map.of(
                "seeds/ag_matmul", Map.of("S", 2L, "M", size / 4, "K", size, "N", size),
                "seeds/ag_matmul_p2p", Map.of("M", size / 2, "K", size, "N", size));
        for (var e : sizes.entrySet()) {
            long t0 = System.nanoTime();
            RunResult r = run(Runs.load(e.getKey(), 2, e.getValue()), 2);
            assertTrue(r.validation().orElseThrow().passed(), e.getKey() + ": " + r.validation().get().line());
            System.out.println(e.getKey() + " " + size + "^3 on 2 devices, run and validated in "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms: " + r.validation().get().line());
        }
    }

    @TestFactory
    Stream<DynamicTest> everyExampleScaledUpPasses() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : ExampleCoverageTest.examples()) {
            for (int devices : new int[] {2, 4}) {
                if (!ExampleCoverageTest.fits(example, devices)) continue;
                for (String dtype : dtypes(example, devices)) {
                    tests.add(dynamicTest(example + " D=" + devices + " " + dtype, () -> {
                        LoadedFusion loaded = scaled(example, dtype, devices);
                        RunResult r = run(loaded, devices);
                        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                        sampledPasses(loaded, r);
                    }));
                }
            }
        }
        assertTrue(tests.size() >= 40, "most examples on 2 and 4 devices: " + tests.size());
        return tests.stream();
    }

    /**
     * The dtypes {@code example} runs in on {@code devices} devices: all three, but in CI a grouped_mm example's
     * one narrow dtype per device count (both narrow dtypes and both device counts are still run for each).
     */
    static List<String> dtypes(String example, int devices) throws Exception {
        if (FULL || !Files.readString(RepoPaths.repo().resolve("examples").resolve(example + ".fusion"))
                .contains("\"grouped_mm\"")) {
            return DTYPES;
        }
        return List.of(devices == 2 ? "bfloat16" : "half");
    }

    /**
     * The same outputs validated by sampling (no full-check budget, a grid of 256 elements): the reference
     * computed on demand at the sample agrees with the run as the whole reference does.
     */
    private static void sampledPasses(LoadedFusion loaded, RunResult r) {
        Validation v = OutputValidator.validate(loaded.fusion(), r.inputs(), r.outputs(), true, ValidationMode.AUTO,
                0, 256, 5);
        assertTrue(v.passed(), "sampled: " + v.line());
    }

    /** The example in {@code dtype} with every symbol but S (the stream count) 16 times its file's value. */
    private static LoadedFusion scaled(String example, String dtype, int devices) throws Exception {
        Path file = RepoPaths.repo().resolve("examples").resolve(example + ".fusion");
        String text = Files.readString(file).replace("\"float\"", "\"" + dtype + "\"");
        var parsed = FusionReader.read(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), example + "." + dtype);
        Map<String, Long> symbols = FusionLoader.load(parsed, devices, Map.of()).bindings().asMap();
        Map<String, Long> overrides = new HashMap<>();
        for (String s : parsed.document().symbolNames()) {
            if (!s.equals("S")) overrides.put(s, symbols.get(s) * 16);
        }
        return FusionLoader.load(parsed, devices, overrides);
    }

    private static RunResult run(LoadedFusion loaded, int devices) {
        LoweringOptions options = SeedGeneration.options(Map.of("numberOfStreams", "2"));
        RunConfig config = new RunConfig(devices, new HashMap<>(loaded.bindings().asMap()), options.numberOfStreams(),
                1, 0, true, 11, 120_000);
        try (CpuBackend backend = new CpuBackend(devices, 120_000)) {
            return Runs.lowered(loaded.fusion(), config, options, backend, line -> { });
        }
    }
}
