package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

import org.hostir.studio.cli.Main;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.StreamWait;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.CriticalPath;
import org.hostir.studio.trace.analysis.Dependency;
import org.hostir.studio.trace.analysis.DependencyGraph;
import org.hostir.studio.trace.analysis.DependencyKind;
import org.hostir.studio.trace.analysis.NodeMatching;
import org.hostir.studio.trace.analysis.TraceAnalysis;
import org.hostir.studio.trace.imported.TraceFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;

/**
 * Nsight Systems SQLite exports written here in NVIDIA's documented schema ({@link NsightExport}; no machine of
 * the project has nsys to make real ones).
 */
class NsightImportTest {
    @TempDir
    Path dir;

    /**
     * Rank {@code rank} (process 100 + rank, thread 1, GPU {@code device}); times in ns after the session start:
     * <pre>
     * NVTX  HostIrEvaluator::runWithInputs            [0, 4600)      (text through textId)
     * NVTX  HostIrEvaluator::dispatch hir::LaunchKernel [900, 2100)    nvFuser's range of top-level node 0
     * NVTX  HostIrEvaluator::dispatch Communication   [2900, 4100)   and of node 1
     * NVTX  a mark at 100                                           (no end: not a bar)
     * cudaLaunchKernel_v7000   [1000, 2000) corr 10 -> sm90_xmma_gemm_bf16 on stream 7 [5000, 5000 + gemm)
     * cudaEventRecord_v3020    [2000, 2500) corr 11, event 99 recorded on stream 7
     * cudaStreamWaitEvent_v3020 [2500, 3000) corr 12, stream 20 waits for event 99
     * cudaLaunchKernel_v7000   [3000, 4000) corr 13 -> ncclDevKernel_AllGather_RING_LL on stream 20 [5000 + gemm, 100000)
     * Memcpy PtoP on stream 21 [6000, 7000), 4096 bytes, launched by no call in the export
     * </pre>
     * The all-gather starts when the GEMM ends (the stated wait), and ends once the last rank arrived.
     */
    static void rank(NsightExport x, int rank, int device, long gemm) throws SQLException {
        int p = 100 + rank;
        x.nvtx(p, 1, 0, 4600L, NsightExport.PUSH_POP, "HostIrEvaluator::runWithInputs");
        x.nvtx(p, 1, 900, 2100L, NsightExport.PUSH_POP, "HostIrEvaluator::dispatch hir::LaunchKernel");
        x.nvtx(p, 1, 2900, 4100L, NsightExport.PUSH_POP, "HostIrEvaluator::dispatch Communication");
        x.nvtx(p, 1, 100, null, NsightExport.MARK, "a mark");
        x.runtime(p, 1, 1000, 2000, 10, "cudaLaunchKernel_v7000");
        x.kernel(p, device, 7, 5000, 5000 + gemm, 10, "sm90_xmma_gemm_bf16");
        x.runtime(p, 1, 2000, 2500, 11, "cudaEventRecord_v3020");
        x.eventRecord(p, device, 7, 11, 99);
        x.runtime(p, 1, 2500, 3000, 12, "cudaStreamWaitEvent_v3020");
        x.streamWait(p, device, 20, 2700, 12, 99);
        x.runtime(p, 1, 3000, 4000, 13, "cudaLaunchKernel_v7000");
        x.kernel(p, device, 20, 5000 + gemm, 100_000, 13, "ncclDevKernel_AllGather_RING_LL");
        x.memcpy(p, device, 21, 6000, 7000, 0, 4096, 10);
    }

    /** One export, run.sqlite, of two ranks on GPUs 0 and 1, rank 1's GEMM three times as long as rank 0's. */
    private Path twoGpus() throws SQLException {
        Path file = dir.resolve("run.sqlite");
        try (NsightExport x = new NsightExport(file)) {
            rank(x, 0, 0, 10_000);
            rank(x, 1, 1, 30_000);
        }
        return file;
    }

    @Test
    void oneExportOfTwoGpusReadsRanksLaunchesAndStatedWaits() throws Exception {
        Path file = twoGpus();
        TraceFiles.Opened opened = TraceFiles.open(List.of(file));
        assertEquals(TraceFiles.Format.NSIGHT, opened.format());
        TraceRun run = opened.run();
        assertEquals(List.of(0, 1), run.timeline().ranks());
        List<TimelineEvent> r1 = run.timeline().of(1);
        assertEquals(3 + 7, r1.size(), "three device bars, four runtime calls and three NVTX ranges (the mark is no bar): " + r1);
        TimelineEvent nccl = only(r1, "ncclDevKernel_AllGather_RING_LL");
        assertEquals(EventKind.COMMUNICATION, nccl.kind());
        assertEquals(35_000, nccl.startNs());
        assertEquals(EventKind.P2P, only(r1, "Memcpy PtoP").kind());
        assertEquals(4096, only(r1, "Memcpy PtoP").bytes());
        assertEquals(TimelineEvent.HOST_STREAM, only(r1, "cudaStreamWaitEvent").stream(), "the _v3020 suffix is dropped");
        assertEquals(1200, only(r1, "HostIrEvaluator::dispatch Communication").durationNs(), "NVTX text through textId");
        assertEquals(4, run.launches().size());
        assertEquals(2, run.waits().size());
        for (StreamWait w : run.waits()) {
            assertEquals("sm90_xmma_gemm_bf16", w.before().name());
            assertEquals(w.before().rank(), w.after().rank());
            assertEquals(w.before().endNs(), w.after().startNs());
        }
        assertEquals("stream 20", run.timeline().streamName(1, 20));
    }

    @Test
    void statedWaitsReplaceInferredOnesAndTheCriticalPathRunsThroughTheSlowRank() throws Exception {
        Path file = twoGpus();
        TraceAnalysis a = TraceAnalysis.of(TraceFiles.open(List.of(file)).run());
        DependencyGraph g = a.graph();
        List<Dependency> waits = g.graph().edgeSet().stream().filter(d -> d.kind() == DependencyKind.STREAM_WAIT).toList();
        assertEquals(2, waits.size(), "exactly the two stated waits: " + waits);
        for (Dependency d : waits) {
            assertEquals("sm90_xmma_gemm_bf16", g.events().get(g.eventOf(d.from())).name());
            assertEquals("ncclDevKernel_AllGather_RING_LL", g.events().get(g.eventOf(d.to())).name());
        }
        CriticalPath p = a.criticalPath().orElseThrow();
        assertEquals(100_000, p.lengthNs());
        assertTrue(p.segments().stream().anyMatch(s -> s.kind() == DependencyKind.WORK && s.event().rank() == 1
                && s.event().name().equals("sm90_xmma_gemm_bf16") && s.durationNs() == 30_000), p.segments().toString());
        assertEquals(65_000, p.byKind().get(DependencyKind.TRANSFER), "the all-gather after rank 1 arrived at 35 us");
    }

    @Test
    void kernelsAreMatchedToHostIrNodesByNvFusersDispatchRanges() throws Exception {
        Path file = twoGpus();
        NodeMatching m = NodeMatching.of(TraceFiles.open(List.of(file)).run());
        for (NodeMatching.Match match : m.matches()) {
            String expected = switch (match.event().name()) {
                case "sm90_xmma_gemm_bf16" -> "hir::LaunchKernel #0";
                case "ncclDevKernel_AllGather_RING_LL" -> "Communication #1";
                case "Memcpy PtoP" -> "P2PCommunication";
                default -> throw new AssertionError("matched " + match);
            };
            assertEquals(expected, match.node());
            assertEquals(match.event().name().equals("Memcpy PtoP") ? NodeMatching.How.KERNEL_NAME
                    : NodeMatching.How.NVTX_RANGE, match.how(), match.toString());
        }
        assertEquals(6, m.matches().size(), "two launched kernels on each rank by their ranges, the copy no call"
                + " launched by its kind");
        NodeMatching.NodeTime allGather = m.byNode().getFirst();
        assertEquals("Communication #1", allGather.node());
        assertEquals(2, allGather.bars());
        assertEquals(65_000 + 85_000, allGather.totalNs());
    }

    @Test
    void oneExportPerRankLinesUpOnTheSessionStart() throws Exception {
        Path ranks = Files.createDirectories(dir.resolve("ranks"));
        for (int r = 0; r < 2; r++) {
            try (NsightExport x = new NsightExport(ranks.resolve("rank" + r + ".sqlite"))) {
                x.session(1_700_000_000_000_000_000L + r * 2_000L);
                rank(x, r, 0, 10_000); // each process sees its GPU as device 0
            }
        }
        TraceRun run = TraceFiles.open(List.of(ranks)).run();
        assertEquals(List.of(0, 1), run.timeline().ranks());
        assertEquals(5000, only(run.timeline().of(0), "sm90_xmma_gemm_bf16").startNs());
        assertEquals(7000, only(run.timeline().of(1), "sm90_xmma_gemm_bf16").startNs(), "rank 1's session began 2 us later");
        assertEquals(4, run.launches().size());
    }

    @Test
    void commandPrintsTheSourceAndRefusesFilesThatAreNoExportInOneLine() throws Exception {
        Path file = twoGpus();
        String[] ok = run("trace", file.toString());
        assertEquals("0", ok[0], ok[2]);
        assertTrue(ok[1].startsWith("format: Nsight Systems SQLite export\n"), ok[1]);
        assertTrue(ok[1].contains("stream waits: 2 stated by the trace"), ok[1]);
        assertTrue(ok[1].contains("critical path: 100.00 us through ranks 0, 1"), ok[1]);
        assertTrue(ok[1].contains("sm90_xmma_gemm_bf16 [hir::LaunchKernel #0]"), "the critical path names the node: " + ok[1]);
        assertTrue(ok[1].contains("Communication #1 (nvFuser's NVTX range)"), ok[1]);
        Path text = Files.writeString(dir.resolve("notes.sqlite"), "just text");
        assertOneLine(run("trace", text.toString()), text, "not an SQLite database");
        Path other = dir.resolve("other.sqlite");
        try (var db = new SQLiteConfig().createConnection("jdbc:sqlite:" + other);
             var s = db.createStatement()) {
            s.execute("CREATE TABLE t (x INTEGER)");
        }
        assertOneLine(run("trace", other.toString()), other, "without Nsight Systems' tables");
        Path broken = dir.resolve("broken.sqlite");
        Files.write(broken, Arrays.copyOf(Files.readAllBytes(file), 100));
        assertOneLine(run("trace", broken.toString()), broken, "");
        Path report = Files.writeString(dir.resolve("run.nsys-rep"), "binary");
        assertOneLine(run("trace", report.toString()), report, "nsys export --type sqlite");
    }

    private static void assertOneLine(String[] result, Path file, String words) {
        assertEquals("2", result[0], result[2]);
        String message = result[2].strip();
        assertTrue(message.startsWith("error: " + file + ": ") && message.endsWith("[trace.read]")
                && message.lines().count() == 1 && message.contains(words), message);
    }

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = new Main().run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {String.valueOf(rc), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    private static TimelineEvent only(List<TimelineEvent> events, String name) {
        List<TimelineEvent> named = events.stream().filter(e -> e.name().equals(name)).toList();
        assertEquals(1, named.size(), name + " in " + events);
        return named.getFirst();
    }
}
