package org.hostir.studio.tests.trace;

import static org.hostir.studio.tests.trace.TraceFixtures.bar;
import static org.hostir.studio.tests.trace.TraceFixtures.twoRanks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

import org.hostir.studio.trace.ChromeTraceConventions;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TraceFormatCheck;
import org.junit.jupiter.api.Test;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

class ChromeTraceWriterTest {
    private static final int HOST = ChromeTraceConventions.HOST_TID;

    static JsonObject root(String json) {
        return JsonParser.parseString(json).getAsJsonObject();
    }

    static List<JsonObject> events(String json, String phase) {
        return root(json).getAsJsonArray("traceEvents").asList().stream().map(JsonElement::getAsJsonObject)
                .filter(e -> e.get("ph").getAsString().equals(phase)).toList();
    }

    /** The args of the one metadata event {@code name} on pid/tid. */
    static JsonObject metadata(String json, String name, int pid, int tid) {
        List<JsonObject> found = events(json, "M").stream().filter(e -> e.get("name").getAsString().equals(name)
                && e.get("pid").getAsInt() == pid && e.get("tid").getAsInt() == tid).toList();
        assertEquals(1, found.size(), name + " on " + pid + "/" + tid);
        return found.getFirst().getAsJsonObject("args");
    }

    static JsonObject x(String json, String name) {
        List<JsonObject> found = events(json, "X").stream().filter(e -> e.get("name").getAsString().equals(name))
                .toList();
        assertEquals(1, found.size(), name);
        return found.getFirst();
    }

    static void assertDecimal(String expected, JsonElement actual) {
        assertEquals(0, new BigDecimal(expected).compareTo(actual.getAsBigDecimal()),
                "expected " + expected + ", was " + actual);
    }

    @Test
    void objectFormWithTopLevelFields() {
        Map<String, Object> other = new LinkedHashMap<>();
        other.put("fusion", "ag_matmul.fusion");
        other.put("backend", "cpu");
        other.put("options", Map.of("numberOfStreams", 4));
        JsonObject root = root(ChromeTraceWriter.write(twoRanks(), other));
        assertEquals("ns", root.get("displayTimeUnit").getAsString());
        JsonObject info = root.getAsJsonObject("distributedInfo");
        assertEquals(0, info.get("rank").getAsInt());
        assertEquals("[0,1]", info.get("ranks").toString());
        assertEquals(2, info.get("world_size").getAsInt());
        assertEquals("{\"fusion\":\"ag_matmul.fusion\",\"backend\":\"cpu\",\"options\":{\"numberOfStreams\":4}}",
                root.get("otherData").toString());
    }

    @Test
    void metadataNamesEveryProcessAndRow() {
        String json = ChromeTraceWriter.write(twoRanks(), Map.of());
        assertEquals("rank 0", metadata(json, "process_name", 0, 0).get("name").getAsString());
        assertEquals("rank 1", metadata(json, "process_name", 1, 0).get("name").getAsString());
        assertEquals(1, metadata(json, "process_sort_index", 1, 0).get("sort_index").getAsInt());
        assertEquals("host", metadata(json, "thread_name", 0, HOST).get("name").getAsString());
        assertEquals("Stream 0", metadata(json, "thread_name", 0, 0).get("name").getAsString());
        assertEquals("Stream 1 (comm)", metadata(json, "thread_name", 0, 1).get("name").getAsString());
        assertEquals("Stream 1", metadata(json, "thread_name", 1, 1).get("name").getAsString());
        // the host row sorts above the streams
        assertEquals(-1, metadata(json, "thread_sort_index", 0, HOST).get("sort_index").getAsInt());
        assertEquals(1, metadata(json, "thread_sort_index", 0, 1).get("sort_index").getAsInt());
        assertEquals(2 * 5, events(json, "M").stream().filter(e -> e.get("name").getAsString()
                .startsWith("thread_")).count(), "rows: rank 0 host/0/1, rank 1 0/1");
    }

    @Test
    void completeEventsCarryMicrosecondsCategoryAndArgs() {
        String json = ChromeTraceWriter.write(twoRanks(), Map.of());
        assertEquals(9, events(json, "X").size());
        JsonObject matmul = x(json, "matmul");
        assertEquals(0, matmul.get("pid").getAsInt());
        assertEquals(0, matmul.get("tid").getAsInt());
        assertDecimal("1", matmul.get("ts"));
        assertDecimal("2.2", matmul.get("dur"));
        assertEquals("matmul", matmul.get("cat").getAsString());
        JsonObject args = matmul.getAsJsonObject("args");
        assertEquals("matmul", args.get("kind").getAsString());
        assertEquals(5, args.get("node_id").getAsInt());
        assertEquals(0, args.get("iteration").getAsInt());
        assertEquals(2_000_000_000L, args.get("flops").getAsLong());
        assertEquals(0, args.get("bytes").getAsLong());
        assertEquals(-1, args.get("peer").getAsInt());
        assertEquals(1000, args.get("start_ns").getAsLong());
        assertEquals(3200, args.get("end_ns").getAsLong());
        JsonObject send = x(json, "send");
        assertEquals("p2p", send.get("cat").getAsString());
        assertEquals(1, send.getAsJsonObject("args").get("peer").getAsInt());
        assertEquals(4096, send.getAsJsonObject("args").get("bytes").getAsLong());
        assertEquals(7, send.getAsJsonObject("args").get("flow_id").getAsLong());
    }

    @Test
    void hostRowGetsAFixedNonNegativeTid() {
        String json = ChromeTraceWriter.write(twoRanks(), Map.of());
        JsonObject host = x(json, "dispatch");
        assertEquals(HOST, host.get("tid").getAsInt());
        assertEquals(-1, host.getAsJsonObject("args").get("stream").getAsInt());
        assertEquals("host", host.get("cat").getAsString());
        assertEquals(HOST, ChromeTraceConventions.tid(-1));
        assertEquals(-1, ChromeTraceConventions.stream(HOST));
        assertEquals(-2, ChromeTraceConventions.stream(ChromeTraceConventions.tid(-2)));
        assertEquals(3, ChromeTraceConventions.tid(3));
    }

    @Test
    void timesAreExactDecimalsWithoutExponents() {
        assertEquals("1234.567", ChromeTraceConventions.micros(1_234_567).toString());
        assertEquals("0.001", ChromeTraceConventions.micros(1).toString());
        assertEquals("0", ChromeTraceConventions.micros(0).toString());
        assertEquals("10000", ChromeTraceConventions.micros(10_000_000).toString());
        assertEquals("1.5", ChromeTraceConventions.micros(1500).toString());
        assertEquals("9223372036854775.807", ChromeTraceConventions.micros(Long.MAX_VALUE).toString());
        assertEquals("-9223372036854775.808", ChromeTraceConventions.micros(Long.MIN_VALUE).toString());
        assertEquals("-0.05", ChromeTraceConventions.micros(-50).toString());
        assertEquals("3.005", ChromeTraceConventions.microsText(3005));
        assertEquals("3.05", ChromeTraceConventions.microsText(3050));
        assertEquals(1_234_567, ChromeTraceConventions.nanos(new BigDecimal("1234.567")));
        assertEquals(1_234_568, ChromeTraceConventions.nanos(new BigDecimal("1234.5675")), "rounds half up");
        String json = ChromeTraceWriter.write(new Timeline(List.of(bar(0, 0, EventKind.KERNEL, "k", 10_000_000,
                10_000_001)), Map.of()), Map.of());
        assertTrue(json.contains("\"ts\":10000,\"dur\":0.001"), json);
    }

    @Test
    void flowGoesFromSendToRecvAtTheMidpointsOfTheBars() {
        String json = ChromeTraceWriter.write(twoRanks(), Map.of());
        List<JsonObject> starts = events(json, "s"), finishes = events(json, "f");
        assertEquals(1, starts.size());
        assertEquals(1, finishes.size());
        JsonObject s = starts.getFirst(), f = finishes.getFirst();
        assertEquals(7, s.get("id").getAsLong());
        assertEquals(7, f.get("id").getAsLong());
        assertEquals(s.get("cat"), f.get("cat"));
        assertEquals(0, s.get("pid").getAsInt());
        assertEquals(1, s.get("tid").getAsInt());
        assertDecimal("4.2", s.get("ts"));
        assertEquals(1, f.get("pid").getAsInt());
        assertEquals(0, f.get("tid").getAsInt());
        assertDecimal("4.35", f.get("ts"));
        assertEquals("e", f.get("bp").getAsString());
        assertFalse(s.has("bp"));
        assertTrue(json.contains("send -> recv"), "no HTML escaping");
    }

    /** The innermost X bar on pid/tid whose closed extent holds ts, as a viewer binds a flow end. */
    static String boundTo(String json, JsonObject flowEnd) {
        BigDecimal ts = flowEnd.get("ts").getAsBigDecimal();
        JsonObject best = null;
        for (JsonObject x : events(json, "X")) {
            if (!x.get("pid").equals(flowEnd.get("pid")) || !x.get("tid").equals(flowEnd.get("tid"))) continue;
            BigDecimal start = x.get("ts").getAsBigDecimal(), end = start.add(x.get("dur").getAsBigDecimal());
            if (start.compareTo(ts) > 0 || end.compareTo(ts) < 0) continue;
            if (best == null || start.compareTo(best.get("ts").getAsBigDecimal()) > 0 || (start.compareTo(
                    best.get("ts").getAsBigDecimal()) == 0 && x.get("dur").getAsBigDecimal().compareTo(
                    best.get("dur").getAsBigDecimal()) < 0)) {
                best = x;
            }
        }
        return best == null ? null : best.get("name").getAsString();
    }

    @Test
    void flowEndsAvoidBarsNestedInTheirBar() {
        // a coalesced group on one stream: both transfers start together, the recv ends first and nests in the send
        Timeline t = new Timeline(List.of(
                TraceFixtures.p2p(0, 1, "send to 1", 0, 100, 1, 1), TraceFixtures.p2p(0, 1, "recv from 1", 0, 60, 1, 2),
                TraceFixtures.p2p(1, 1, "send to 0", 0, 80, 0, 2), TraceFixtures.p2p(1, 1, "recv from 0", 0, 90, 0, 1),
                bar(1, 1, EventKind.KERNEL, "k", 10, 30), bar(1, 1, EventKind.KERNEL, "k2", 35, 40)),
                Map.of());
        String json = ChromeTraceWriter.write(t, Map.of());
        assertEquals(List.of(), TraceFormatCheck.check(json));
        for (JsonObject end : events(json, "s")) {
            String bar = boundTo(json, end);
            assertTrue(bar != null && bar.startsWith("send"), end + " binds to " + bar);
        }
        for (JsonObject end : events(json, "f")) {
            String bar = boundTo(json, end);
            assertTrue(bar != null && bar.startsWith("recv"), end + " binds to " + bar);
        }
        // rank 0's send: the recv covers [0, 60], so the start goes to the middle of (60, 100)
        assertDecimal("0.08", events(json, "s").stream().filter(e -> e.get("pid").getAsInt() == 0).findFirst()
                .orElseThrow().get("ts"));
        // rank 1's send holds kernels at [10, 30] and [35, 40]: its start goes to the middle of (40, 80)
        assertDecimal("0.06", events(json, "s").stream().filter(e -> e.get("pid").getAsInt() == 1).findFirst()
                .orElseThrow().get("ts"));
        // twins of one extent: no point binds to one rather than the other, but the trace stays valid
        Timeline twins = new Timeline(List.of(TraceFixtures.p2p(0, 0, "send to 1", 0, 50, 1, 1),
                TraceFixtures.p2p(0, 0, "recv from 1", 0, 50, 1, 2), TraceFixtures.p2p(1, 0, "recv from 0", 0, 50, 0, 1),
                TraceFixtures.p2p(1, 0, "send to 0", 0, 50, 0, 2), bar(0, 0, EventKind.KERNEL, "k", 20, 25)), Map.of());
        String twinJson = ChromeTraceWriter.write(twins, Map.of());
        assertEquals(List.of(), TraceFormatCheck.check(twinJson));
        for (JsonObject end : events(twinJson, "s")) assertFalse("k".equals(boundTo(twinJson, end)), end.toString());
    }

    @Test
    void zeroDurationEventIsWrittenWithZeroDur() {
        String json = ChromeTraceWriter.write(twoRanks(), Map.of());
        JsonObject marker = x(json, "marker");
        assertDecimal("5", marker.get("ts"));
        assertDecimal("0", marker.get("dur"));
    }

    @Test
    void writerOutputPassesTheFormatCheck() {
        assertEquals(List.of(), TraceFormatCheck.check(ChromeTraceWriter.write(twoRanks(), Map.of("a", 1))));
        assertEquals(List.of(), TraceFormatCheck.check(ChromeTraceWriter.write(TraceFixtures.empty(), Map.of())));
    }

    @Test
    void emptyTimelineIsAValidEmptyTrace() {
        JsonObject root = root(ChromeTraceWriter.write(TraceFixtures.empty(), Map.of()));
        assertEquals(0, root.getAsJsonArray("traceEvents").size());
        assertEquals(0, root.getAsJsonObject("distributedInfo").get("world_size").getAsInt());
        assertEquals("{}", root.get("otherData").toString());
    }

    @Test
    void idleNamedStreamStillGetsARow() {
        Timeline t = new Timeline(List.of(bar(0, 0, EventKind.KERNEL, "k", 0, 10)),
                Map.of(0, Map.of(3, "Stream 3 (idle)"), 2, Map.of()));
        String json = ChromeTraceWriter.write(t, Map.of());
        assertEquals("Stream 3 (idle)", metadata(json, "thread_name", 0, 3).get("name").getAsString());
        assertEquals("rank 2", metadata(json, "process_name", 2, 0).get("name").getAsString());
        assertEquals(List.of(), TraceFormatCheck.check(json));
    }

    @Test
    void namesAreEscapedAsJsonStrings() throws Exception {
        String name = "a \"quoted\" \\ name\twith\nbreaks \u0001 \u2028 é ->";
        String json = ChromeTraceWriter.write(new Timeline(List.of(bar(0, 0, EventKind.KERNEL, name, 0, 1)),
                Map.of(0, Map.of(0, "row \"0\""))), Map.of());
        assertEquals(name, x(json, name).get("name").getAsString());
        assertEquals("row \"0\"", metadata(json, "thread_name", 0, 0).get("name").getAsString());
        assertEquals(List.of(), TraceFormatCheck.check(json));
        assertTrue(json.contains("\\u2028"), "line separators are escaped for JavaScript");
    }

    @Test
    void outputIsDeterministic() {
        assertEquals(ChromeTraceWriter.write(twoRanks(), Map.of("k", "v")),
                ChromeTraceWriter.write(twoRanks(), Map.of("k", "v")));
    }

    @Test
    void perRankFilesCarryTheirOwnRankForHta() {
        SortedMap<Integer, String> files = ChromeTraceWriter.writePerRank(twoRanks(), Map.of("backend", "cpu"));
        assertEquals(List.of(0, 1), List.copyOf(files.keySet()));
        for (var file : files.entrySet()) {
            JsonObject info = root(file.getValue()).getAsJsonObject("distributedInfo");
            assertEquals(file.getKey(), info.get("rank").getAsInt());
            assertEquals(2, info.get("world_size").getAsInt());
            assertEquals(List.of(), TraceFormatCheck.check(file.getValue()));
            assertTrue(events(file.getValue(), "X").stream().allMatch(e -> e.get("pid").getAsInt() == file.getKey()));
            assertEquals(List.of(), events(file.getValue(), "s"), "the cross-rank flow has only one end here");
        }
        assertEquals("Stream 1 (comm)", metadata(files.get(0), "thread_name", 0, 1).get("name").getAsString());
    }
}
