package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.TraceFormatCheck;
import org.hostir.studio.trace.TraceFormatCheck.Rule;
import org.hostir.studio.trace.TraceFormatCheck.Violation;
import org.junit.jupiter.api.Test;

import com.google.gson.JsonParser;

/** A good trace passes; each bad trace below breaks one rule and is reported for that rule alone. */
class TraceFormatCheckTest {
    /** Names pid 0 (tids 0 and 1) and pid 1 (tid 0). */
    private static final String NAMES = """
            {"ph":"M","pid":0,"tid":0,"ts":0,"name":"process_name","args":{"name":"rank 0"}},
            {"ph":"M","pid":1,"tid":0,"ts":0,"name":"process_name","args":{"name":"rank 1"}},
            {"ph":"M","pid":0,"tid":0,"ts":0,"name":"thread_name","args":{"name":"Stream 0"}},
            {"ph":"M","pid":0,"tid":1,"ts":0,"name":"thread_name","args":{"name":"Stream 1"}},
            {"ph":"M","pid":1,"tid":0,"ts":0,"name":"thread_name","args":{"name":"Stream 0"}}""";

    /** Nested, touching and zero-length bars, and a flow from pid 0 tid 1 to pid 1 tid 0. */
    private static final String GOOD = """
            {"ph":"X","pid":0,"tid":0,"ts":0,"dur":10,"name":"outer"},
            {"ph":"X","pid":0,"tid":0,"ts":2,"dur":3,"name":"inner"},
            {"ph":"X","pid":0,"tid":0,"ts":5,"dur":5,"name":"inner, ends with outer"},
            {"ph":"X","pid":0,"tid":0,"ts":10,"dur":0.5,"name":"touches outer"},
            {"ph":"X","pid":0,"tid":0,"ts":10.5,"dur":0,"name":"zero"},
            {"ph":"X","pid":0,"tid":1,"ts":3,"dur":9,"name":"send"},
            {"ph":"X","pid":1,"tid":0,"ts":4,"dur":2,"name":"recv"},
            {"ph":"s","pid":0,"tid":1,"ts":7.5,"id":1,"cat":"p2p","name":"send -> recv"},
            {"ph":"f","pid":1,"tid":0,"ts":6,"id":1,"cat":"p2p","name":"send -> recv","bp":"e"}""";

    private static String trace(String... events) {
        return "{\"traceEvents\": [" + String.join(",\n", events) + "], \"displayTimeUnit\": \"ns\"}";
    }

    private static Set<Rule> rules(String json) {
        return TraceFormatCheck.check(json).stream().map(Violation::rule).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Reported for that rule alone, streaming the text and walking a tree alike. */
    private static void assertOnly(Rule rule, String json) {
        List<Violation> found = TraceFormatCheck.check(json);
        assertEquals(Set.of(rule), rules(json), found.toString());
        if (rule != Rule.OBJECT_FORM) {
            assertEquals(found, TraceFormatCheck.check(JsonParser.parseString(json)));
        }
    }

    @Test
    void goodTracePasses() {
        assertEquals(List.of(), TraceFormatCheck.check(trace(NAMES, GOOD)));
        assertEquals(List.of(), TraceFormatCheck.check(trace()));
        assertEquals(List.of(), TraceFormatCheck.check(JsonParser.parseString(trace(NAMES, GOOD))), "as a tree");
        assertEquals(List.of(), TraceFormatCheck.check(ChromeTraceWriter.write(TraceFixtures.twoRanks(), Map.of())));
    }

    @Test
    void objectForm() {
        assertOnly(Rule.OBJECT_FORM, "[" + NAMES + "]");
        assertOnly(Rule.OBJECT_FORM, "{\"events\": []}");
        assertOnly(Rule.OBJECT_FORM, "{\"traceEvents\": {}}");
        assertOnly(Rule.OBJECT_FORM, "{\"traceEvents\": [");
        assertOnly(Rule.OBJECT_FORM, "{\"traceEvents\": [], \"displayTimeUnit\": \"s\"}");
        // what a lenient parser would accept and a browser's JSON.parse refuses
        assertOnly(Rule.OBJECT_FORM, "{\"traceEvents\": [{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":NaN,\"dur\":1}]}");
        assertOnly(Rule.OBJECT_FORM, "{'traceEvents': []}");
        assertOnly(Rule.OBJECT_FORM, "{\"traceEvents\": []} {}");
    }

    @Test
    void requiredFields() {
        assertOnly(Rule.REQUIRED_FIELDS, trace(NAMES, "{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"dur\":1,\"name\":\"no ts\"}"));
        assertOnly(Rule.REQUIRED_FIELDS, trace(NAMES, "{\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":1}"));
        assertOnly(Rule.REQUIRED_FIELDS, trace(NAMES, "{\"ph\":\"X\",\"pid\":\"p\",\"tid\":0,\"ts\":1,\"dur\":1}"));
        assertOnly(Rule.REQUIRED_FIELDS, trace(NAMES, "{\"ph\":\"X\",\"pid\":0,\"tid\":0.5,\"ts\":1,\"dur\":1}"));
        assertOnly(Rule.REQUIRED_FIELDS, trace(NAMES, "42"));
        assertOnly(Rule.REQUIRED_FIELDS, trace(NAMES, "{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"ts\":0,"
                + "\"name\":\"thread_name\",\"args\":{}}"));
        List<Violation> v = TraceFormatCheck.check(trace(NAMES, "{\"ph\":\"X\",\"tid\":0,\"dur\":1}"));
        assertTrue(v.getFirst().message().contains("missing or malformed pid, ts"), v.toString());
    }

    @Test
    void duration() {
        assertOnly(Rule.DURATION, trace(NAMES, "{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":1,\"name\":\"no dur\"}"));
        assertOnly(Rule.DURATION, trace(NAMES, "{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":-0.001}"));
    }

    @Test
    void nesting() {
        String a = "{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":0,\"dur\":10,\"name\":\"a\"}";
        String b = "{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":5,\"dur\":10,\"name\":\"b\"}";
        assertOnly(Rule.NESTING, trace(NAMES, a, b));
        assertOnly(Rule.NESTING, trace(NAMES, b, a));
        List<Violation> v = TraceFormatCheck.check(trace(NAMES, a, b));
        assertTrue(v.getFirst().message().contains("'b' [5, 15] partially overlaps traceEvents[5] 'a' [0, 10]"),
                v.toString());
        // by a thousandth of a microsecond, decided exactly
        assertOnly(Rule.NESTING, trace(NAMES, a, "{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":9.999,\"dur\":0.002}"));
        // the same bars on different rows, or one a pid apart, are fine
        assertEquals(List.of(), TraceFormatCheck.check(trace(NAMES, a, b.replace("\"tid\":0", "\"tid\":1"))));
        assertEquals(List.of(), TraceFormatCheck.check(trace(NAMES, a, b.replace("\"pid\":0", "\"pid\":1"))));
    }

    @Test
    void processName() {
        String unnamed = NAMES.replace("{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"ts\":0,\"name\":\"process_name\","
                + "\"args\":{\"name\":\"rank 1\"}},", "");
        assertOnly(Rule.PROCESS_NAME, trace(unnamed, GOOD));
    }

    @Test
    void threadName() {
        assertOnly(Rule.THREAD_NAME, trace(NAMES, GOOD, "{\"ph\":\"X\",\"pid\":1,\"tid\":4,\"ts\":0,\"dur\":1}"));
        // counters belong to the process, not to a thread
        assertEquals(List.of(), TraceFormatCheck.check(trace(NAMES,
                "{\"ph\":\"C\",\"pid\":0,\"tid\":9,\"ts\":0,\"name\":\"mem\",\"args\":{\"bytes\":1}}")));
    }

    @Test
    void flowPairing() {
        String s = "{\"ph\":\"s\",\"pid\":0,\"tid\":1,\"ts\":7.5,\"id\":1,\"cat\":\"p2p\",\"name\":\"x\"}";
        String f = "{\"ph\":\"f\",\"pid\":1,\"tid\":0,\"ts\":6,\"id\":1,\"cat\":\"p2p\",\"name\":\"x\",\"bp\":\"e\"}";
        String bars = """
                {"ph":"X","pid":0,"tid":1,"ts":3,"dur":9,"name":"send"},
                {"ph":"X","pid":1,"tid":0,"ts":4,"dur":2,"name":"recv"}""";
        assertEquals(List.of(), TraceFormatCheck.check(trace(NAMES, bars, s, f)));
        assertOnly(Rule.FLOW_PAIRING, trace(NAMES, bars, s));
        assertOnly(Rule.FLOW_PAIRING, trace(NAMES, bars, f));
        assertOnly(Rule.FLOW_PAIRING, trace(NAMES, bars, s, f, f));
        assertOnly(Rule.FLOW_PAIRING, trace(NAMES, bars, s, f.replace("\"id\":1", "\"id\":2")));
        assertOnly(Rule.FLOW_PAIRING, trace(NAMES, bars, s, f.replace("\"cat\":\"p2p\"", "\"cat\":\"other\"")));
        assertOnly(Rule.FLOW_PAIRING, trace(NAMES, bars, s.replace("\"id\":1,", ""), f));
        assertEquals(2, TraceFormatCheck.check(trace(NAMES, bars, s, f.replace("\"id\":1", "\"id\":2"))).size(),
                "both orphans are reported");
    }

    @Test
    void flowBinding() {
        String bars = """
                {"ph":"X","pid":0,"tid":1,"ts":3,"dur":9,"name":"send"},
                {"ph":"X","pid":1,"tid":0,"ts":4,"dur":2,"name":"recv"}""";
        String f = "{\"ph\":\"f\",\"pid\":1,\"tid\":0,\"ts\":6,\"id\":1,\"cat\":\"p2p\",\"name\":\"x\",\"bp\":\"e\"}";
        // before the send bar, after it, and on a row where the bar is not
        for (String ts : List.of("2.999", "12.001")) {
            assertOnly(Rule.FLOW_BINDING, trace(NAMES, bars, f,
                    "{\"ph\":\"s\",\"pid\":0,\"tid\":1,\"ts\":" + ts + ",\"id\":1,\"cat\":\"p2p\"}"));
        }
        assertOnly(Rule.FLOW_BINDING, trace(NAMES, bars, f, "{\"ph\":\"s\",\"pid\":0,\"tid\":0,\"ts\":5,\"id\":1,"
                + "\"cat\":\"p2p\"}"));
        // the ends of a bar count as inside it
        assertEquals(List.of(), TraceFormatCheck.check(trace(NAMES, bars, f,
                "{\"ph\":\"s\",\"pid\":0,\"tid\":1,\"ts\":12,\"id\":1,\"cat\":\"p2p\"}")));
        // a long earlier bar still contains a point after a later, shorter one ended
        assertEquals(List.of(), TraceFormatCheck.check(trace(NAMES, """
                {"ph":"X","pid":0,"tid":0,"ts":0,"dur":100,"name":"long"},
                {"ph":"X","pid":0,"tid":0,"ts":10,"dur":1,"name":"short"},
                {"ph":"X","pid":1,"tid":0,"ts":0,"dur":100,"name":"recv"},
                {"ph":"s","pid":0,"tid":0,"ts":50,"id":3,"cat":"p2p"},
                {"ph":"f","pid":1,"tid":0,"ts":50,"id":3,"cat":"p2p","bp":"e"}""")));
    }

    @Test
    void violationsNameTheEvent() {
        List<Violation> v = TraceFormatCheck.check(trace(NAMES, "{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":1}"));
        assertEquals("DURATION: traceEvents[5]: X event without a numeric dur", v.getFirst().toString());
    }
}
