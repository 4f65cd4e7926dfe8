package org.hostir.studio.trace;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.JsonSyntaxException;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

/**
 * Checks a Chrome Trace Event file against the rules that Perfetto, chrome://tracing and HTA rely on, and lists
 * what breaks them (an empty list: the file is fine). Times are compared as exact decimals, as written, so a
 * bar that ends where the next begins is not mistaken for an overlap.
 */
public final class TraceFormatCheck {
    public enum Rule {
        /** The root is an object with a {@code traceEvents} array (and {@code displayTimeUnit} ms or ns). */
        OBJECT_FORM,
        /** Every event is an object with {@code ph}, integer {@code pid} and {@code tid}, numeric {@code ts}. */
        REQUIRED_FIELDS,
        /** Every {@code X} event has a numeric, non-negative {@code dur}. */
        DURATION,
        /** {@code X} events on one pid/tid are either disjoint or one contains the other. */
        NESTING,
        /** Every pid that has events is named by a {@code process_name} metadata event. */
        PROCESS_NAME,
        /** Every pid/tid that has events is named by a {@code thread_name} metadata event. */
        THREAD_NAME,
        /** Every flow start {@code s} has exactly one finish {@code f} with the same id and cat, and vice versa. */
        FLOW_PAIRING,
        /** Every flow end lies within an {@code X} event on its own pid/tid, the bar it binds to. */
        FLOW_BINDING
    }

    public record Violation(Rule rule, String message) {
        @Override
        public String toString() { return rule + ": " + message; }
    }

    /** A well-formed X event's extent; start and end are exact decimals of microseconds. */
    private record Bar(int index, String name, BigDecimal start, BigDecimal end) {
    }

    /** A flow start or finish, kept until every bar it could bind to has been seen. */
    private record FlowEnd(int index, String phase, Row row, BigDecimal ts) {
    }

    private record Row(long pid, long tid) {
    }

    private TraceFormatCheck() {
    }

    public static List<Violation> check(String json) {
        return check(new StringReader(json));
    }

    public static List<Violation> check(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return check(r);
        }
    }

    /**
     * Streams the file, one event in memory at a time, parsing strictly as a browser's JSON.parse does (no NaN,
     * comments, single quotes or trailing text).
     */
    public static List<Violation> check(Reader json) {
        List<Violation> out = new ArrayList<>();
        Pass pass = new Pass(out);
        try {
            JsonReader in = new JsonReader(json);
            in.setStrictness(Strictness.STRICT);
            if (in.peek() != JsonToken.BEGIN_OBJECT) {
                in.skipValue();
                return rootNotAnObject(in);
            }
            boolean sawEvents = false;
            in.beginObject();
            while (in.hasNext()) {
                String key = in.nextName();
                if (key.equals("traceEvents") && in.peek() == JsonToken.BEGIN_ARRAY) {
                    sawEvents = true;
                    in.beginArray();
                    for (int i = 0; in.hasNext(); i++) pass.visit(i, JsonParser.parseReader(in));
                    in.endArray();
                } else if (key.equals("displayTimeUnit")) {
                    pass.displayTimeUnit(JsonParser.parseReader(in));
                } else {
                    in.skipValue();
                }
            }
            in.endObject();
            if (in.peek() != JsonToken.END_DOCUMENT) throw new JsonSyntaxException("text after the JSON value");
            if (!sawEvents) return List.of(new Violation(Rule.OBJECT_FORM, "no traceEvents array"));
        } catch (JsonParseException | IOException | IllegalStateException e) {
            return List.of(new Violation(Rule.OBJECT_FORM, "not JSON: " + e.getMessage()));
        }
        pass.finish();
        return out;
    }

    /** The same checks on a parsed tree. */
    public static List<Violation> check(JsonElement root) {
        List<Violation> out = new ArrayList<>();
        if (!(root instanceof JsonObject top)) {
            out.add(new Violation(Rule.OBJECT_FORM, "the root is not an object (the array form carries no metadata)"));
            return out;
        }
        if (!(top.get("traceEvents") instanceof JsonArray events)) {
            out.add(new Violation(Rule.OBJECT_FORM, "no traceEvents array"));
            return out;
        }
        Pass pass = new Pass(out);
        if (top.has("displayTimeUnit")) pass.displayTimeUnit(top.get("displayTimeUnit"));
        for (int i = 0; i < events.size(); i++) pass.visit(i, events.get(i));
        pass.finish();
        return out;
    }

    private static List<Violation> rootNotAnObject(JsonReader in) throws IOException {
        if (in.peek() != JsonToken.END_DOCUMENT) throw new JsonSyntaxException("text after the JSON value");
        return List.of(new Violation(Rule.OBJECT_FORM, "the root is not an object (the array form carries no metadata)"));
    }

    /** One walk over the events, collecting what the cross-event rules need. */
    private static final class Pass {
        private final List<Violation> out;
        private final Map<Row, List<Bar>> bars = new TreeMap<>(Comparator.comparingLong(Row::pid)
                .thenComparingLong(Row::tid));
        private final Set<Long> namedProcesses = new HashSet<>();
        private final Set<Row> namedThreads = new HashSet<>();
        private final Map<Long, Integer> firstEventOfPid = new LinkedHashMap<>();
        private final Map<Row, Integer> firstEventOfRow = new LinkedHashMap<>();
        private final Map<Row, BigDecimal[]> reaches = new HashMap<>();
        private final Map<String, List<FlowEnd>> starts = new LinkedHashMap<>(), finishes = new LinkedHashMap<>();

        Pass(List<Violation> out) {
            this.out = out;
        }

        void displayTimeUnit(JsonElement unit) {
            if (!(text(unit) instanceof String u && (u.equals("ms") || u.equals("ns")))) {
                out.add(new Violation(Rule.OBJECT_FORM, "displayTimeUnit is neither \"ms\" nor \"ns\""));
            }
        }

        void finish() {
            nesting();
            firstEventOfPid.forEach((pid, i) -> {
                if (!namedProcesses.contains(pid)) {
                    report(Rule.PROCESS_NAME, i, "pid " + pid + " has events but no process_name");
                }
            });
            firstEventOfRow.forEach((row, i) -> {
                if (!namedThreads.contains(row)) {
                    report(Rule.THREAD_NAME, i, "pid " + row.pid() + " tid " + row.tid() + " has events but no thread_name");
                }
            });
            flows();
        }

        void visit(int i, JsonElement event) {
            if (!(event instanceof JsonObject e)) {
                report(Rule.REQUIRED_FIELDS, i, "not an object");
                return;
            }
            String ph = text(e.get("ph"));
            Long pid = integer(e.get("pid")), tid = integer(e.get("tid"));
            BigDecimal ts = number(e.get("ts"));
            List<String> missing = new ArrayList<>();
            if (ph == null || ph.isEmpty()) missing.add("ph");
            if (pid == null) missing.add("pid");
            if (tid == null) missing.add("tid");
            if (ts == null) missing.add("ts");
            if (!missing.isEmpty()) {
                report(Rule.REQUIRED_FIELDS, i, "missing or malformed " + String.join(", ", missing));
                return;
            }
            Row row = new Row(pid, tid);
            if (ph.equals("M")) {
                metadata(i, e, row);
                return;
            }
            firstEventOfPid.putIfAbsent(pid, i);
            if (!ph.equals("C")) firstEventOfRow.putIfAbsent(row, i); // counters belong to the process
            switch (ph) {
                case "X" -> {
                    BigDecimal dur = number(e.get("dur"));
                    if (dur == null) report(Rule.DURATION, i, "X event without a numeric dur");
                    else if (dur.signum() < 0) report(Rule.DURATION, i, "negative dur " + dur.toPlainString());
                    else bars.computeIfAbsent(row, r -> new ArrayList<>())
                            .add(new Bar(i, text(e.get("name")), ts, ts.add(dur)));
                }
                case "s", "f" -> {
                    JsonElement id = e.get("id");
                    if (!(id instanceof JsonPrimitive p) || p.isBoolean()) {
                        report(Rule.FLOW_PAIRING, i, "flow event without an id");
                        return;
                    }
                    String key = "cat " + (text(e.get("cat")) instanceof String c ? "'" + c + "'" : "(none)")
                            + " id " + p.getAsString();
                    (ph.equals("s") ? starts : finishes).computeIfAbsent(key, k -> new ArrayList<>())
                            .add(new FlowEnd(i, ph, row, ts));
                }
                default -> { }
            }
        }

        private void metadata(int i, JsonObject e, Row row) {
            String name = text(e.get("name"));
            boolean labelled = e.get("args") instanceof JsonObject args && text(args.get("name")) != null;
            if ("process_name".equals(name) || "thread_name".equals(name)) {
                if (!labelled) {
                    report(Rule.REQUIRED_FIELDS, i, name + " without args.name");
                } else if (name.equals("process_name")) {
                    namedProcesses.add(row.pid());
                } else {
                    namedThreads.add(row);
                }
            }
        }

        private void nesting() {
            Comparator<Bar> order = Comparator.comparing(Bar::start).thenComparing(Bar::end, Comparator.reverseOrder())
                    .thenComparingInt(Bar::index);
            bars.forEach((row, list) -> {
                list.sort(order);
                Deque<Bar> open = new ArrayDeque<>();
                for (Bar b : list) {
                    while (!open.isEmpty() && open.peek().end().compareTo(b.start()) <= 0) open.pop();
                    if (!open.isEmpty() && b.end().compareTo(open.peek().end()) > 0) {
                        Bar a = open.peek();
                        report(Rule.NESTING, b.index(), describe(b) + " partially overlaps traceEvents[" + a.index()
                                + "] " + describe(a) + " on pid " + row.pid() + " tid " + row.tid());
                        continue; // left off the stack so that one bad bar is reported once
                    }
                    open.push(b);
                }
            });
        }

        private void flows() {
            Set<String> keys = new LinkedHashSet<>(starts.keySet());
            keys.addAll(finishes.keySet());
            for (String key : keys) {
                List<FlowEnd> s = starts.getOrDefault(key, List.of()), f = finishes.getOrDefault(key, List.of());
                if (s.size() != 1 || f.size() != 1) {
                    int at = (!s.isEmpty() ? s.getFirst() : f.getFirst()).index();
                    report(Rule.FLOW_PAIRING, at, "flow " + key + " has " + s.size() + " start(s) and " + f.size()
                            + " finish(es), not one of each");
                }
                s.forEach(this::bound);
                f.forEach(this::bound);
            }
        }

        /** Reports a flow end that no X event on its pid/tid contains (ends included). */
        private void bound(FlowEnd end) {
            List<Bar> list = bars.getOrDefault(end.row(), List.of()); // sorted by start in nesting()
            BigDecimal[] reach = reach(end.row(), list);
            int lo = 0, hi = list.size(); // count of bars starting at or before ts
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (list.get(mid).start().compareTo(end.ts()) <= 0) lo = mid + 1;
                else hi = mid;
            }
            if (lo > 0 && reach[lo - 1].compareTo(end.ts()) >= 0) return;
            report(Rule.FLOW_BINDING, end.index(), "flow " + end.phase() + " at ts " + end.ts().toPlainString()
                    + " lies in no X event on pid " + end.row().pid() + " tid " + end.row().tid());
        }

        /** reach[k] = the latest end among the row's first k + 1 bars: some bar up to k runs until then. */
        private BigDecimal[] reach(Row row, List<Bar> list) {
            return reaches.computeIfAbsent(row, r -> {
                BigDecimal[] max = new BigDecimal[list.size()];
                for (int k = 0; k < max.length; k++) {
                    BigDecimal end = list.get(k).end();
                    max[k] = k == 0 || end.compareTo(max[k - 1]) > 0 ? end : max[k - 1];
                }
                return max;
            });
        }

        private static String describe(Bar b) {
            return "'" + (b.name() == null ? "" : b.name()) + "' [" + b.start().toPlainString() + ", "
                    + b.end().toPlainString() + "]";
        }

        private void report(Rule rule, int index, String message) {
            out.add(new Violation(rule, "traceEvents[" + index + "]: " + message));
        }
    }

    private static String text(JsonElement e) {
        return e instanceof JsonPrimitive p && p.isString() ? p.getAsString() : null;
    }

    private static BigDecimal number(JsonElement e) {
        if (!(e instanceof JsonPrimitive p) || !p.isNumber()) return null;
        try {
            return p.getAsBigDecimal();
        } catch (NumberFormatException ex) {
            return null;
        }
    }

    private static Long integer(JsonElement e) {
        BigDecimal n = number(e);
        if (n == null) return null;
        try {
            return n.longValueExact();
        } catch (ArithmeticException ex) {
            return null;
        }
    }
}
