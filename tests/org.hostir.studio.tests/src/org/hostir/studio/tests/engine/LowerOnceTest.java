package org.hostir.studio.tests.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 32: one {@code run} (every backend kind that needs no GPU) and one {@code check} run the fusion passes once
 * and lower each rank at most once, counted on the {@link Compilation} they read; and no code but the engine's
 * compilation runs the pipeline, so the count is every lowering there is.
 */
class LowerOnceTest {
    private static final String SEED_000 = "ag_matmul_p2p.fusion"; // seeds/000, nvFuser PR #4515

    private static LoadedFusion load(int devices) throws Exception {
        return Engine.load(new FusionSource.File(TestPaths.repo("examples", "seeds", SEED_000)), devices, Map.of());
    }

    private static BackendPlan plan(RunRequest.BackendChoice backend, int devices) throws Exception {
        RunRequest request = new RunRequest(backend, devices, SeedGeneration.DEFAULTS, 2, 1, ValidationMode.AUTO, 1,
                10_000, false, Optional.empty(), false);
        return BackendPlan.choose(request, SEED_000);
    }

    private static void assertLoweredOnce(Compilation c, String what) {
        assertEquals(1, c.fusionStageRuns(), what + ": fusion passes");
        for (int rank = 0; rank < c.devices(); rank++) assertEquals(1, c.lowerings(rank), what + ": rank " + rank);
    }

    @Test
    void aRunLowersEachRankOnceAndTheFusionPassesOnce() throws Exception {
        for (int devices : List.of(2, 8)) {
            for (RunRequest.BackendChoice backend : List.of(RunRequest.BackendChoice.CPU,
                    RunRequest.BackendChoice.SIM)) {
                LoadedFusion loaded = load(devices);
                Compilation c = Engine.compile(loaded, SeedGeneration.DEFAULTS);
                RunResult r = Engine.run(loaded, c, plan(backend, devices), line -> { });
                assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                assertEquals(devices, r.programs().size());
                assertLoweredOnce(c, backend + " run on " + devices);
            }
        }
    }

    @Test
    void aCheckLowersEachRankOnceAndTheFusionPassesOnce() throws Exception {
        for (int devices : List.of(2, 8)) {
            LoadedFusion loaded = load(devices);
            Compilation c = Engine.compile(loaded, SeedGeneration.DEFAULTS, List.of(0));
            Engine.check(loaded, c);
            assertLoweredOnce(c, "check on " + devices);
            Engine.lower(loaded, c, List.of(0), rank -> true); // lower's trace after its check: rank 0 kept it
            assertLoweredOnce(c, "check then lower on " + devices);
        }
    }

    /** The count above is every lowering: outside {@code lower} nothing imports the pipeline, only engine compiles. */
    @Test
    void onlyTheEnginesCompilationRunsThePipeline() throws IOException {
        Path src = TestPaths.sourceRoot().resolve("org/hostir/studio");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(src)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String pkg = src.relativize(f.getParent()).toString().replace('/', '.').replace('\\', '.');
                String text = Files.readString(f);
                if (!pkg.equals("lower") && text.contains("import org.hostir.studio.lower.Pipeline;")) {
                    found.add(f + ": runs the pipeline itself");
                }
                if (!pkg.equals("engine") && !pkg.equals("lower") && text.contains("Compilation.of(")) {
                    found.add(f + ": builds a Compilation outside the engine");
                }
            }
        }
        assertEquals(List.of(), found);
    }
}
