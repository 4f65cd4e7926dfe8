package org.hostir.studio.tests.trace;

import static org.hostir.studio.tests.trace.TraceFixtures.bar;
import static org.hostir.studio.tests.trace.TraceFixtures.twoRanks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.trace.ChromeTraceReader;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceFormatCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChromeTraceReaderTest {
    private static String write(Timeline t) {
        return ChromeTraceWriter.write(t, Map.of("backend", "cpu"));
    }

    @Test
    void readsBackExactly() throws IOException {
        Timeline t = twoRanks();
        Timeline back = ChromeTraceReader.read(write(t));
        assertEquals(t.events(), back.events());
        assertEquals(t.streamNames(), back.streamNames());
        assertEquals(t, back);
        assertEquals(write(t), write(back));
    }

    @Test
    void nanosecondsSurviveAtAnyMagnitude() throws IOException {
        long big = 1_754_000_000_123_456_789L; // an epoch in ns: beyond a double's exact integers
        Timeline t = new Timeline(List.of(bar(3, 2, EventKind.COPY, "copy", big, big + 1),
                bar(3, 2, EventKind.COPY, "copy", 1, 2)), Map.of());
        assertEquals(t, ChromeTraceReader.read(write(t)));
    }

    @Test
    void emptyTimelineRoundTrips() throws IOException {
        Timeline empty = TraceFixtures.empty();
        assertEquals(empty, ChromeTraceReader.read(write(empty)));
    }

    @Test
    void namesRoundTripIncludingIdleRowsAndRanksWithoutEvents() throws IOException {
        Timeline t = new Timeline(List.of(bar(0, 0, EventKind.KERNEL, "k", 0, 10),
                bar(0, TimelineEvent.HOST_STREAM, EventKind.HOST, "h", 0, 5)),
                Map.of(0, Map.of(3, "Stream 3"), 2, Map.of()));
        Timeline back = ChromeTraceReader.read(write(t));
        assertEquals(t, back);
        assertEquals(write(t), write(back));
        // a name the timeline gave explicitly but that equals the default reads back as the default
        Timeline explicit = new Timeline(t.events(), Map.of(0, Map.of(0, "Stream 0")));
        Timeline read = ChromeTraceReader.read(write(explicit));
        assertEquals(Map.of(), read.streamNames());
        assertEquals(write(explicit), write(read));
    }

    @Test
    void readsFromAFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("trace.json");
        ChromeTraceWriter.write(twoRanks(), Map.of(), file);
        assertEquals(twoRanks(), ChromeTraceReader.read(file));
        assertEquals(List.of(), TraceFormatCheck.check(file));
    }

    @Test
    void readsForeignTracesAsFarAsTheyMap() throws IOException {
        // PyTorch-profiler-like: no args of ours, kernel categories, flows only as s/f events, array form
        String json = """
                [
                 {"ph":"X","pid":0,"tid":7,"ts":100.0004,"dur":10,"cat":"kernel","name":"ncclDevKernel_AllGather"},
                 {"ph":"X","pid":0,"tid":8,"ts":100,"dur":30.5,"cat":"kernel","name":"sm90_gemm"},
                 {"ph":"X","pid":0,"tid":8,"ts":105,"dur":1,"cat":"kernel","name":"inner"},
                 {"ph":"X","pid":0,"tid":8,"ts":140,"dur":2,"cat":"gpu_memcpy","name":"Memcpy DtoD"},
                 {"ph":"X","pid":1,"tid":1,"ts":90,"dur":200,"cat":"cpu_op","name":"aten::mm"},
                 {"ph":"B","pid":1,"tid":1,"ts":90,"name":"ignored"},
                 {"ph":"s","pid":1,"tid":1,"ts":95,"id":42,"cat":"ac2g","name":"launch"},
                 {"ph":"f","pid":0,"tid":8,"ts":105.5,"id":42,"cat":"ac2g","name":"launch","bp":"e"}
                ]""";
        Timeline t = ChromeTraceReader.read(json);
        assertEquals(5, t.events().size());
        TimelineEvent nccl = find(t, "ncclDevKernel_AllGather");
        assertEquals(EventKind.COMMUNICATION, nccl.kind());
        assertEquals(100_000, nccl.startNs(), "sub-ns rounds half up");
        assertEquals(110_000, nccl.endNs());
        assertEquals(EventKind.KERNEL, find(t, "sm90_gemm").kind());
        assertEquals(130_500, find(t, "sm90_gemm").endNs());
        assertEquals(EventKind.COPY, find(t, "Memcpy DtoD").kind());
        assertEquals(EventKind.HOST, find(t, "aten::mm").kind());
        assertEquals(-1, find(t, "aten::mm").nodeId());
        // the flow binds to the innermost bar around each end
        long flow = find(t, "aten::mm").flowId();
        assertTrue(flow != 0);
        assertEquals(flow, find(t, "inner").flowId());
        assertEquals(0, find(t, "sm90_gemm").flowId());
    }

    private static TimelineEvent find(Timeline t, String name) {
        return t.events().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void malformedInputIsAnIOExceptionWithWhere() {
        assertThrows(IOException.class, () -> ChromeTraceReader.read("{not json"));
        assertThrows(IOException.class, () -> ChromeTraceReader.read("{\"events\": []}"));
        IOException e = assertThrows(IOException.class, () -> ChromeTraceReader.read(
                "{\"traceEvents\": [{\"ph\":\"X\",\"pid\":\"main\",\"tid\":0,\"ts\":0,\"dur\":1,\"name\":\"x\"}]}"));
        assertTrue(e.getMessage().contains("traceEvents[0]") && e.getMessage().contains("pid"), e.getMessage());
        e = assertThrows(IOException.class, () -> ChromeTraceReader.read(
                "{\"traceEvents\": [{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":5,\"dur\":-1,\"name\":\"x\"}]}"));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
    }
}
