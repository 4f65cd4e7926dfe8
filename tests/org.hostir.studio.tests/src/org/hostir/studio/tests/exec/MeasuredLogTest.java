package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.bench.MeasuredLog;
import org.hostir.studio.bench.SimulationCheck;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench sim-check}'s measured spans, read from the logs of {@code bench agmm} in docs/data (their one
 * record): the spans as the logs print them, and a missing or malformed log refused in one line at its place.
 */
class MeasuredLogTest {
    private static final String LOG = "bench-agmm.log";

    @Test
    void theTwoH200LogGivesEachShapesSpansInTheScheduleOrder() throws Exception {
        SimulationCheck.Measured m = SimulationCheck.MEASURED_2X_H200.read(RepoPaths.repo());
        assertEquals(2, m.devices());
        assertEquals(4, m.spans().size());
        // docs/data/h200x2-2026-11-26-night/bench-agmm-2-second.log, "shape float 32768 32768 1024" block
        assertArrayEquals(new double[] {46.985, 47.976, 47.005, 44.523, 44.196, 48.088, 43.473, 43.094, 41.915},
                m.spans().get(new SimulationCheck.Shape("float", 32768, 32768, 1024)));
    }

    @Test
    void theFourH200LogGivesEachShapesSpansInTheScheduleOrder() throws Exception {
        SimulationCheck.Measured m = SimulationCheck.MEASURED_4X_H200.read(RepoPaths.repo());
        assertEquals(4, m.spans().size());
        // docs/data/h200x4-2026-11-28/bench-agmm-4.log, "shape bfloat16 8192 4096 4096" block (the torch line skipped)
        assertArrayEquals(new double[] {0.578, 0.625, 0.721, 1.055, 0.816, 0.765, 0.718, 0.480, 0.467},
                m.spans().get(new SimulationCheck.Shape("bfloat16", 8192, 4096, 4096)));
    }

    @Test
    void aMissingLogIsOneLineNamingIt(@TempDir Path home) {
        assertEquals("error: bench-agmm.log: sim-check: no such file: the spans measured on 2 GPUs that sim-check"
                + " compares with [bench.log]", refusal(home));
    }

    @Test
    void aLogOfAnotherDeviceCountIsRefusedAtItsDevicesLine(@TempDir Path home) throws Exception {
        write(home, realLog().replace("devices: 2 x", "devices: 8 x"));
        assertEquals("error: bench-agmm.log:11: sim-check: the log is of 8 devices, the table of 2 [bench.log]",
                refusal(home));
    }

    @Test
    void aBlockWithoutASchedulesSpanIsRefusedAtItsHeader(@TempDir Path home) throws Exception {
        String log = realLog();
        int header = log.indexOf("shape bfloat16 32768 8192 8192");
        int line = (int) log.substring(0, header).lines().count() + 1;
        write(home, log.substring(0, header) + log.substring(header).replaceFirst("(?m)^  p2p copy-engine .*\n", ""));
        assertEquals("error: bench-agmm.log:" + line + ": sim-check: no span of schedule 'p2p copy-engine' in this"
                + " shape's block [bench.log]", refusal(home));
    }

    @Test
    void aLogWithoutShapeBlocksIsNotABenchLog(@TempDir Path home) throws Exception {
        write(home, "devices: 2 x NVIDIA H200\n  p2p   1.000 ms\n");
        assertEquals("error: bench-agmm.log: sim-check: no 'shape DTYPE M K N (schedules: ...)' block: not a log of"
                + " bench agmm [bench.log]", refusal(home));
    }

    private static String realLog() throws Exception {
        return Files.readString(RepoPaths.repo().resolve(SimulationCheck.MEASURED_2X_H200.log()));
    }

    private static void write(Path home, String text) throws Exception {
        Files.writeString(home.resolve(LOG), text);
    }

    /** The one line a read of {@code home}'s log is refused with. */
    private static String refusal(Path home) {
        EngineFailure e = assertThrows(EngineFailure.class, () -> new MeasuredLog(2, "h200x2-measured", LOG).read(home));
        assertEquals(EngineFailure.Kind.BAD_INPUT, e.kind());
        List<String> lines = e.lines();
        assertEquals(1, lines.size(), lines.toString());
        return lines.getFirst();
    }
}
