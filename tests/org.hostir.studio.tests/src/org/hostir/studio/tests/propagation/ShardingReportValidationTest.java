package org.hostir.studio.tests.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.rules.FusionValidator;
import org.hostir.studio.rules.ShardingPropagation;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the sharding report of a loaded fusion validates it again only where the loader's check was the relaxed
 * one of a fusion as written. Its diagnostics are those of propagating and validating the written fusion in full (as
 * the report did before), for every example that loads, at 1, 2 and 4 devices.
 */
class ShardingReportValidationTest {
    @Test
    void theReportOfEveryLoadedExampleSaysWhatAFullValidationSays() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(TestPaths.repo("examples"))) {
            files = walk.filter(p -> p.toString().endsWith(".fusion")).sorted().toList();
        }
        int loadedCount = 0;
        for (Path file : files) {
            for (int devices : List.of(1, 2, 4)) {
                LoadedFusion loaded;
                try {
                    loaded = Engine.load(Engine.parse(new FusionSource.File(file)), devices, Map.of());
                } catch (EngineFailure refused) {
                    continue;   // refused by the loader: the report is the load's diagnostics, not at issue here
                }
                loadedCount++;
                assertEquals(fullValidation(loaded), Engine.shardings(loaded).diagnostics(), file + " at " + devices);
            }
        }
        assertTrue(loadedCount > 200, "the examples load: " + loadedCount);
    }

    /** What the report said before: propagation's conflicts, else the propagated fusion's validation in full. */
    private static List<Diagnostic> fullValidation(LoadedFusion loaded) {
        ShardingPropagation.Result r = ShardingPropagation.propagate(loaded.written());
        List<Diagnostic> out = new ArrayList<>();
        for (ShardingPropagation.Conflict c : r.conflicts()) out.add(c.diagnostic(loaded.locator()));
        if (out.isEmpty()) out.addAll(FusionValidator.validate(r.fusion(), loaded.bindings(), loaded.locator()));
        return out;
    }
}
