package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.cli.Main;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.imported.TraceFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hirstudio trace diff} of two Studio runs whose first device bar is a kernel (an MoE fusion's topk): the
 * GEMMs (matmul, grouped_mm) are in its tables with their difference. The format was sniffed from the file's
 * first kilobytes, where a {@code "cat":"kernel"} bar read as a PyTorch profiler trace, whose reader keeps only
 * kernels and copies, so every matmul and grouped_mm bar was left out of the comparison.
 */
class TraceDiffGemmBarsTest {
    @TempDir
    Path dir;

    /** Rank 0's one stream: a topk kernel, a grouped_mm of {@code groupedNs} and a matmul of {@code matmulNs}. */
    private Path trace(String name, long groupedNs, long matmulNs) throws Exception {
        Path file = dir.resolve(name + ".json");
        long t = 100_000 + groupedNs;
        ChromeTraceWriter.write(new Timeline(List.of(
                new TimelineEvent(0, 0, EventKind.KERNEL, "topk", 3, -1, 0, 100_000, 0, 0, -1, 0),
                new TimelineEvent(0, 0, EventKind.MATMUL, "grouped_mm", 4, -1, 100_000, t, 0, 1_000_000, -1, 0),
                new TimelineEvent(0, 0, EventKind.MATMUL, "matmul", 5, -1, t, t + matmulNs, 0, 1_000_000, -1, 0)),
                Map.of()), Map.of(), file);
        return file;
    }

    @Test
    void theGemmsOfTwoStudioRunsAreCompared() throws Exception {
        Path a = trace("a", 1_000_000, 2_000_000), b = trace("b", 4_000_000, 2_500_000);
        assertEquals(TraceFiles.Format.STUDIO, TraceFiles.open(List.of(a)).format(), "the Studio's own trace");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = new Main().run(new String[] {"trace", "diff", a.toString(), b.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String report = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        // count A, total A, count B, total B, B - A: 1 ms against 4 ms, 2 ms against 2.5 ms
        String grouped = "\\s+1\\s+1\\.00 ms\\s+1\\s+4\\.00 ms\\s+3\\.00 ms  ";
        String matmul = "\\s+1\\s+2\\.00 ms\\s+1\\s+2\\.50 ms\\s+0\\.50 ms  ";
        assertTrue(report.matches("(?s).*\\n" + grouped + "node 4 grouped_mm\\n.*"), report);
        assertTrue(report.matches("(?s).*\\n" + matmul + "node 5 matmul\\n.*"), report);
        String byName = report.substring(report.indexOf("device ops aligned by name:"));
        assertTrue(byName.matches("(?s).*\\n" + grouped + "grouped_mm\\n.*"), report);
        assertTrue(byName.matches("(?s).*\\n" + matmul + "matmul\\n.*"), report);
        assertTrue(!report.contains("(only in"), report);
    }
}
