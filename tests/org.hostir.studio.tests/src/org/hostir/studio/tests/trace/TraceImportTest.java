package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.cli.Main;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.Counter;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceFormatCheck;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.CriticalPath;
import org.hostir.studio.trace.analysis.DependencyKind;
import org.hostir.studio.trace.analysis.TraceAnalysis;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.trace.imported.KinetoReader;
import org.hostir.studio.trace.imported.TraceFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces from elsewhere, written here in their documented formats: a two-rank PyTorch profiler (Kineto) run,
 * one file per rank, and nvFuser's NVFUSER_TRACE as csrc/instrumentation.cpp:68-93 (81c4b22fd) prints it.
 */
class TraceImportTest {
    @TempDir
    Path dir;

    /**
     * Rank {@code rank}: aten::mm [0,10) on the CPU launches (cudaLaunchKernel [2,6), correlation 7) a GEMM on
     * stream 7 at [8, 8 + gemmUs); then an NCCL all-reduce launched at [11,12) (correlation 8) that runs on
     * stream 20 from the GEMM's end to 100 us. Memory: 1 MB allocated at 1 us, 3 MB at 9 us. Times in us after
     * baseTimeNanoseconds 1e9 + rank * 0 (the ranks share a clock).
     */
    static String kineto(int rank, int gemmUs) {
        int gemmEnd = 8 + gemmUs;
        return """
                {"schemaVersion": 1, "deviceProperties": [], "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": 2},
                "baseTimeNanoseconds": 1000000000,
                "traceEvents": [
                {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 10, "ts": 0, "dur": 10},
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 2, "dur": 4, "args": {"correlation": 7}},
                {"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16", "pid": 0, "tid": 7, "ts": 8, "dur": %d, "args": {"device": 0, "stream": 7, "correlation": 7}},
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 11, "dur": 1, "args": {"correlation": 8}},
                {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "pid": 0, "tid": 20, "ts": %d, "dur": %d, "args": {"device": 0, "stream": 20, "correlation": 8}},
                {"ph": "s", "cat": "ac2g", "id": 7, "pid": 10, "tid": 10, "ts": 2, "name": "ac2g"},
                {"ph": "f", "cat": "ac2g", "id": 7, "pid": 0, "tid": 7, "ts": 8, "name": "ac2g", "bp": "e"},
                {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 10, "tid": 10, "ts": 1, "s": "t", "args": {"Device Type": 1, "Device Id": 0, "Bytes": 1000000, "Total Allocated": 1000000}},
                {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 10, "tid": 10, "ts": 9, "s": "t", "args": {"Device Type": 1, "Device Id": 0, "Bytes": 2000000, "Total Allocated": 3000000}},
                {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 10, "tid": 10, "ts": 9, "s": "t", "args": {"Device Type": 0, "Device Id": -1, "Bytes": 5, "Total Allocated": 5}}
                ]}
                """.formatted(rank, gemmUs, gemmEnd, 100 - gemmEnd);
    }

    private Path write(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    @Test
    void kinetoRanksLaunchesNcclAndMemory() throws IOException {
        Path r0 = write("rank0.json", kineto(0, 20)), r1 = write("rank1.json", kineto(1, 60));
        TraceFiles.Opened opened = TraceFiles.open(List.of(r0, r1));
        assertEquals(TraceFiles.Format.KINETO, opened.format());
        TraceRun run = opened.run();
        assertEquals(List.of(0, 1), run.timeline().ranks());
        assertEquals(4, run.launches().size(), "two correlations on each rank");
        TimelineEvent nccl = run.timeline().of(0).stream().filter(e -> e.stream() == 20).findFirst().orElseThrow();
        assertEquals(EventKind.COMMUNICATION, nccl.kind());
        assertEquals(28_000, nccl.startNs(), "after the shared base: rank 0's GEMM ends at 28 us");
        Counter memory = run.counters().stream().filter(c -> c.rank() == 1).findFirst().orElseThrow();
        assertEquals(KinetoReader.PROFILER_MEMORY, memory.name());
        assertEquals(List.of(new Counter.Sample(1_000, 1_000_000), new Counter.Sample(9_000, 3_000_000)),
                memory.samples(), "the CPU's memory event is left out");
        CriticalPath p = TraceAnalysis.of(run).criticalPath().orElseThrow();
        // rank 1's GEMM (60 us) holds the all-reduce of both ranks up: aten::mm's own time before it calls
        // cudaLaunchKernel (2 us, the nesting edge), the call (4), launch 6 -> 8, GEMM to 68, then 32 us of transfer
        assertEquals(100_000, p.lengthNs());
        assertEquals(List.of("NESTING cudaLaunchKernel@1 2000", "WORK cudaLaunchKernel@1 4000", "LAUNCH sm90_xmma_gemm_bf16@1 2000",
                "WORK sm90_xmma_gemm_bf16@1 60000", "TRANSFER ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)@0 32000"),
                p.segments().stream().filter(s -> s.durationNs() > 0).map(s -> s.kind() + " " + s.event().name() + "@"
                        + s.event().rank() + " " + s.durationNs()).toList());
    }

    @Test
    void nvFuserTraceReadsBeginEndPairsAndACutOffFile() throws IOException {
        // as nvFuser prints it: the tid is an unsigned hash beyond Java's int; the process died before the epilogue
        String text = """
                {
                "traceEvents": [
                { "name": "TRACE_START", "ph": "I", "pid": 4242, "tid": 3735928559, "ts": 0 },
                { "name": "FusionExecutorCache::runFusionWithInputs", "ph": "B", "pid": 4242, "tid": 3735928559, "ts": 5 },
                { "name": "HostIrEvaluator::runWithInput", "ph": "B", "pid": 4242, "tid": 3735928559, "ts": 7 },
                { "name": "HostIrEvaluator::runWithInput", "ph": "E", "pid": 4242, "tid": 3735928559, "ts": 40 },
                { "name": "FusionExecutorCache::compileFusion", "ph": "B", "pid": 4242, "tid": 3735928559, "ts": 41 },
                """;
        TraceFiles.Opened opened = TraceFiles.open(List.of(write("nvfuser.trace.json", text)));
        assertEquals(TraceFiles.Format.NVFUSER, opened.format());
        List<TimelineEvent> bars = opened.run().timeline().events();
        assertEquals(3, bars.size());
        assertEquals(List.of("FusionExecutorCache::runFusionWithInputs 5000-41000", "HostIrEvaluator::runWithInput 7000-40000",
                "FusionExecutorCache::compileFusion 41000-41000"), bars.stream().map(e -> e.name() + " " + e.startNs() + "-"
                + e.endNs()).toList());
        assertEquals("thread 3735928559", opened.run().timeline().streamName(0, -1));
        assertTrue(opened.notes().stream().anyMatch(n -> n.contains("cut off")), opened.notes().toString());
        assertTrue(opened.notes().stream().anyMatch(n -> n.contains("2 scopes never closed")), opened.notes().toString());
        assertTrue(TraceAnalysis.of(opened.run()).criticalPath().isPresent());
    }

    @Test
    void countersAreWrittenAsCounterEventsThatPassTheFormatCheck() throws IOException {
        TraceRun run = CriticalPathTest.handBuilt();
        StringBuilder out = new StringBuilder();
        ChromeTraceWriter.write(run, Map.of(), out);
        String json = out.toString();
        assertTrue(json.contains("{\"ph\":\"C\",\"pid\":0,\"tid\":0,\"ts\":0.05,\"name\":\"communication bytes in flight\","
                + "\"args\":{\"bytes\":1000}}"), json);
        assertTrue(json.contains("{\"ph\":\"C\",\"pid\":0,\"tid\":0,\"ts\":0.1,\"name\":\"communication bytes in flight\","
                + "\"args\":{\"bytes\":0}}"), json);
        assertEquals(List.of(), TraceFormatCheck.check(json));
    }

    @Test
    void diffAlignsByNodeForStudioRunsAndByNameOtherwise() throws IOException {
        TraceComparison byNode = TraceComparison.of(CriticalPathTest.handBuilt(), CriticalPathTest.handBuilt());
        assertTrue(byNode.byNode());
        assertTrue(byNode.rows().stream().allMatch(r -> r.deltaNs() == 0));
        assertTrue(byNode.rows().stream().anyMatch(r -> r.key().equals("node 2 allreduce")));
        TraceRun a = TraceFiles.open(List.of(write("a.json", kineto(0, 20)))).run();
        TraceRun b = TraceFiles.open(List.of(write("b.json", kineto(0, 60)))).run();
        TraceComparison byName = TraceComparison.of(a, b);
        assertTrue(!byName.byNode());
        TraceComparison.Row gemm = byName.rows().stream().filter(r -> r.key().equals("sm90_xmma_gemm_bf16"))
                .findFirst().orElseThrow();
        assertEquals(40_000, gemm.deltaNs());
        assertTrue(byName.format(10).contains("span: A 100.00 us, B 100.00 us"), byName.format(10));
    }

    @Test
    void commandPrintsTheReportAndRefusesBadInputInOneLine() throws IOException {
        Path r0 = write("r0.json", kineto(0, 20)), r1 = write("r1.json", kineto(1, 60));
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = new Main().run(new String[] {"trace", r0.toString(), r1.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        assertTrue(text.contains("critical path: 100.00 us through ranks 0, 1"), text);
        assertTrue(text.contains("60.00 us   60%  rank 1 stream 7"), text);
        Path broken = write("broken.json", "{\"traceEvents\": 3}");
        err.reset();
        rc = new Main().run(new String[] {"trace", broken.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, rc);
        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.startsWith("error: " + broken + ": ") && message.strip().endsWith("[trace.read]")
                && message.strip().lines().count() == 1, message);
        assertThrows(IOException.class, () -> TraceFiles.open(List.of(dir.resolve("missing.json"))));
    }
}
