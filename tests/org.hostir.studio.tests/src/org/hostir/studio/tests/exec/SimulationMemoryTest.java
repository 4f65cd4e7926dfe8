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
                "seeds/ag_matmul_p2p", Map.of(), List.of(4, 8), 4, ProfileFiles.builtIn("h200x8-nvlink"),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(List.of(4, 8), rows.stream().map(SimulationMemory.Row::devices).toList());
        String out = bytes.toString(StandardCharsets.UTF_8);
        for (SimulationMemory.Row r : rows) {
            SimulationMemory.Figures f = r.inStep();
            assertTrue(f.spanMs() > 0 && f.liveBytes() > 0 && f.retainedBytes() > 0, r.toString());
            assertTrue(out.contains("D = " + r.devices() + ": predicted "), out);
        }
        // both ways at 4 ranks (up to the limit given), in step only at 8
        assertEquals(rows.get(0).walkedFirst().spanMs(), rows.get(0).inStep().spanMs(), rows.toString());
        assertTrue(out.contains("D = 4: predicted " + String.format(java.util.Locale.ROOT, "%.3f",
                rows.get(0).inStep().spanMs()) + " ms both ways"), out);
        assertEquals(null, rows.get(1).walkedFirst(), rows.toString());
        assertTrue(rows.get(1).inStep().spanMs() > rows.get(0).inStep().spanMs(), "all pairs: twice the exchanges: "
                + rows);
    }
}
