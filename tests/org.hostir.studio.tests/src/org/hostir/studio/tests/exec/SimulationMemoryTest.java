package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.hostir.studio.bench.SimulationMemory;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * {@code bench sim-memory} at small rank counts (the figures of docs/simulation.md come from 256 to 1,024 ranks, run
 * by hand): one line per rank count, the prediction the simulation makes, a live heap no smaller than what the
 * result retains.
 */
class SimulationMemoryTest {
    @Test
    void reportsEachRankCountsPredictionAndHeap() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<SimulationMemory.Row> rows = SimulationMemory.run(RepoPaths.repo().resolve("examples"),
                "seeds/ag_matmul_p2p", Map.of(), List.of(4, 8), ProfileFiles.builtIn("h200x8-nvlink"),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(List.of(4, 8), rows.stream().map(SimulationMemory.Row::devices).toList());
        String out = bytes.toString(StandardCharsets.UTF_8);
        for (SimulationMemory.Row r : rows) {
            assertTrue(r.spanMs() > 0 && r.liveBytes() > 0 && r.retainedBytes() > 0, r.toString());
            assertTrue(out.contains("D = " + r.devices() + ": predicted "), out);
        }
        assertTrue(rows.get(1).spanMs() > rows.get(0).spanMs(), "all pairs: twice the exchanges: " + rows);
    }
}
