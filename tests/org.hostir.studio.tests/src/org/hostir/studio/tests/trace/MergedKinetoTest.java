package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.trace.StreamWait;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.Dependency;
import org.hostir.studio.trace.analysis.DependencyKind;
import org.hostir.studio.trace.analysis.TraceAnalysis;
import org.hostir.studio.trace.imported.TraceFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * PyTorch profiles of several ranks in one file, and the CUDA sync events of a profile taken with
 * {@code enable_cuda_sync_events}.
 */
class MergedKinetoTest {
    private static final Path TRACES = Path.of(System.getProperty("hirstudio.repo", "."), "examples", "traces");

    @TempDir
    Path dir;

    /** The real async-TP profiles of both ranks, their events in one file as a merge keeps them (pids and all). */
    @Test
    void aMergedFileReadsAsItsPerRankFiles() throws IOException {
        List<Path> perRank = List.of(TRACES.resolve("kineto_async_tp_bf16_8192x4096x4096_rank0.json"),
                TRACES.resolve("kineto_async_tp_bf16_8192x4096x4096_rank1.json"));
        JsonObject merged = read(perRank.get(0));
        merged.remove("distributedInfo");
        merged.getAsJsonArray("traceEvents").addAll(read(perRank.get(1)).getAsJsonArray("traceEvents"));
        Path file = Files.writeString(dir.resolve("merged.json"), merged.toString());
        TraceFiles.Opened one = TraceFiles.open(List.of(file));
        TraceRun apart = TraceFiles.open(perRank).run(), together = one.run();
        assertEquals(List.of(0, 1), together.timeline().ranks());
        assertTrue(one.notes().stream().anyMatch(n -> n.contains("2 ranks merged in one file")), one.notes().toString());
        for (int rank : List.of(0, 1)) {
            assertEquals(apart.timeline().of(rank), together.timeline().of(rank), "rank " + rank);
        }
        assertEquals(apart.launches().size(), together.launches().size());
        assertEquals(apart.counters(), together.counters());
        assertEquals(TraceAnalysis.of(apart).criticalPath().orElseThrow().lengthNs(),
                TraceAnalysis.of(together).criticalPath().orElseThrow().lengthNs());
    }

    /**
     * One rank: a GEMM on stream 7 launched by correlation 7, cudaEventRecord (correlation 8) on stream 7,
     * cudaStreamWaitEvent (correlation 9) on stream 20, an all-reduce on stream 20 launched by correlation 10; the
     * cuda_sync event states the pair as Kineto writes it. An unrelated kernel on stream 30 ends just before the
     * all-reduce starts: inferred from times, the wait would be on it. A later "Event Sync" (the host waiting on the
     * event) states no wait between streams.
     */
    @Test
    void cudaSyncEventsStateTheWaitInsteadOfTheTimes() throws IOException {
        String trace = """
                {"schemaVersion": 1, "traceEvents": [
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, "ts": 0, "dur": 1, "args": {"correlation": 7}},
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": 5, "tid": 5, "ts": 1, "dur": 1, "args": {"correlation": 8}},
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamWaitEvent", "pid": 5, "tid": 5, "ts": 2, "dur": 1, "args": {"correlation": 9}},
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, "ts": 3, "dur": 1, "args": {"correlation": 10}},
                {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, "ts": 4, "dur": 1, "args": {"correlation": 11}},
                {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 5, "dur": 20, "args": {"stream": 7, "correlation": 7}},
                {"ph": "X", "cat": "kernel", "name": "other", "pid": 0, "tid": 30, "ts": 6, "dur": 23, "args": {"stream": 30, "correlation": 11}},
                {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 20, "ts": 2.5, "dur": 0,
                 "args": {"cuda_sync_kind": "Stream Wait Event", "stream": 20, "correlation": 9, "wait_on_stream": 7,
                          "wait_on_cuda_event_record_corr_id": 8, "wait_on_cuda_event_id": 3}},
                {"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 0, "tid": 7, "ts": 45, "dur": 0,
                 "args": {"cuda_sync_kind": "Event Sync", "stream": 7, "correlation": 12, "wait_on_stream": 7,
                          "wait_on_cuda_event_record_corr_id": 8, "wait_on_cuda_event_id": 3}},
                                {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce", "pid": 0, "tid": 20, "ts": 30, "dur": 10, "args": {"stream": 20, "correlation": 10}}
                ]}""";
        TraceRun run = TraceFiles.open(List.of(Files.writeString(dir.resolve("sync.json"), trace))).run();
        assertEquals(1, run.waits().size());
        StreamWait w = run.waits().getFirst();
        assertEquals("sm90_gemm", w.before().name());
        assertEquals("ncclDevKernel_AllReduce", w.after().name());
        var g = TraceAnalysis.of(run).graph();
        List<Dependency> waits = g.graph().edgeSet().stream().filter(d -> d.kind() == DependencyKind.STREAM_WAIT).toList();
        assertEquals(1, waits.size(), waits.toString());
        assertEquals("sm90_gemm", g.events().get(g.eventOf(waits.getFirst().from())).name());
        TraceRun inferred = new TraceRun("no sync events", run.timeline(), run.launches(), run.counters());
        var h = TraceAnalysis.of(inferred).graph();
        assertEquals(List.of("other"), h.graph().edgeSet().stream().filter(d -> d.kind() == DependencyKind.STREAM_WAIT)
                .map(d -> h.events().get(h.eventOf(d.from())).name()).toList(), "from times alone, the wrong bar");
    }

    private static JsonObject read(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file)) {
            return JsonParser.parseReader(r).getAsJsonObject();
        }
    }

}
