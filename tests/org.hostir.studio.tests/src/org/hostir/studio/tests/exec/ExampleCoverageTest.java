package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.Pipeline;

/**
 * Every example runs on the CPU backend and matches the unsharded reference: for D in {1, 2, 4, 8} wherever the
 * file's meshes allow it, with 1, 2 and 4 streams, each allgather lowering, and offset-by-rank on and off.
 */
class ExampleCoverageTest {
    private static final int[] DEVICES = {1, 2, 4, 8};

    /** Every example that lowers: the conformance cases nvFuser refuses ({@code rejected} in their expectation) aside. */
    static List<String> examples() throws Exception {
        Path root = RepoPaths.repo().resolve("examples");
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".fusion")).filter(p -> !TestPaths.refusedOnPurpose(p))
                    .map(p -> root.relativize(p).toString().replace('\\', '/').replace(".fusion", ""))
                    .sorted().toList();
        }
    }

    /** Whether the file's meshes fit on {@code devices} devices (scatter_two_stages needs four). */
    static boolean fits(String example, int devices) throws Exception {
        try {
            Runs.load(example, devices, Map.of());
            return true;
        } catch (FusionFileException e) {
            return false;
        }
    }

    /** Every combination of streams, allgather lowering and offset-by-rank, and one with deallocations. */
    private static List<Map<String, String>> variants() {
        List<Map<String, String>> out = new ArrayList<>();
        for (String streams : List.of("1", "2", "4")) {
            for (String allgather : List.of("p2p", "broadcast", "collective")) {
                for (String offset : List.of("false", "true")) {
                    out.add(Map.of("numberOfStreams", streams, "allgather", allgather,
                            "offsetStreamIndexingByRank", offset));
                }
            }
        }
        out.add(Map.of("numberOfStreams", "2", "insertDeallocations", "true"));
        out.add(Map.of("numberOfStreams", "2", "allgather", "p2p", "forwardLocalShard", "true"));
        out.add(Map.of("numberOfStreams", "4", "allgather", "p2p", "offsetStreamIndexingByRank", "true",
                "forwardLocalShard", "true", "insertDeallocations", "true"));
        return out;
    }

    /** The examples exercise every row of the lowering table between them. */
    @Test
    void examplesCoverEveryCommunicationType() throws Exception {
        java.util.Set<CommunicationType> seen = java.util.EnumSet.noneOf(CommunicationType.class);
        for (String example : examples()) {
            if (!fits(example, 4)) continue;
            var fusion = Runs.load(example, 4, Map.of()).fusion();
            for (int rank = 0; rank < 4; rank++) {
                Pipeline.standard().lower(fusion, new LoweringContext(rank, 4, SeedGeneration.DEFAULTS)).allNodes()
                        .forEach(n -> {
                            if (n instanceof Communication c) seen.add(c.type());
                        });
            }
        }
        assertEquals(java.util.EnumSet.allOf(CommunicationType.class), seen);
    }

    /** Inputs are uploaded once and reused: a program must not change them from one iteration to the next. */
    @TestFactory
    Stream<DynamicTest> repeatedIterationsKeepValidating() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : examples()) {
            if (!fits(example, 2)) continue;
            tests.add(dynamicTest(example + " D=2, 1 warm-up + 3 iterations", () -> {
                var loaded = Runs.load(example, 2, Map.of());
                var base = Runs.config(loaded, 2, Map.of("numberOfStreams", "2"));
                var config = new org.hostir.studio.exec.RunConfig(base.devices(), base.symbols(), base.streams(), 3, 1,
                        true, base.seed(), base.timeoutMillis());
                try (var backend = new org.hostir.studio.exec.cpu.CpuBackend(2, 10_000)) {
                    RunResult r = Runs.lowered(loaded.fusion(), config, SeedGeneration.options(Map.of("numberOfStreams",
                            "2")), backend, line -> { });
                    assertEquals(3, r.iterationMillis().size());
                    assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                }
            }));
        }
        assertTrue(tests.size() >= 15, "most examples run on 2 devices: " + tests.size());
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> everyExampleValidates() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        int runnable = 0;
        for (String example : examples()) {
            for (int d : DEVICES) {
                if (!fits(example, d)) continue;
                runnable++;
                for (Map<String, String> options : variants()) {
                    tests.add(dynamicTest(example + " D=" + d + " " + options, () -> {
                        RunResult r = Runs.run(example, d, options);
                        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                    }));
                }
            }
        }
        assertTrue(examples().size() >= 16, "the seed examples and the extra ones: " + examples());
        assertTrue(runnable >= examples().size() * 3, "most examples run on most device counts: " + runnable);
        return tests.stream();
    }
}
