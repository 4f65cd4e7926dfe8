package org.hostir.studio.trace;

import static org.hostir.studio.trace.ChromeTraceConventions.*;

import java.io.EOFException;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.MalformedJsonException;

/**
 * Reads a Chrome Trace Event file back into a {@link Timeline}. Traces written by {@link ChromeTraceWriter}
 * read back exactly (nanoseconds, ids and flow ids come from the {@code args}), so
 * {@code write(read(write(t))) == write(t)}. Names that equal the default label of a row with events are dropped,
 * so they read back as defaults, as they were written.
 * <p>
 * Other Chrome traces (a PyTorch profile, say) read as far as they map: {@code X} events become bars, their kind
 * taken from {@code cat} ({@code kernel} with "nccl" in the name counts as communication, memcpy/memset as copy,
 * anything unknown as host); {@code s}/{@code f} pairs become flow ids on the bars they bind to. Other phases
 * ({@code B}/{@code E}, counters, instants) are skipped.
 */
public final class ChromeTraceReader {
    private ChromeTraceReader() {
    }

    public static Timeline read(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(r);
        }
    }

    public static Timeline read(String json) throws IOException {
        return read(new StringReader(json));
    }

    /** Streams the events, so that only the timeline, not a JSON tree of the whole file, is held at once. */
    public static Timeline read(Reader json) throws IOException {
        Builder builder = new Builder();
        try {
            JsonReader in = new JsonReader(json);
            boolean sawEvents = false;
            if (in.peek() == JsonToken.BEGIN_ARRAY) {
                builder.read(in);
                sawEvents = true;
            } else if (in.peek() == JsonToken.BEGIN_OBJECT) {
                in.beginObject();
                while (in.hasNext()) {
                    if (in.nextName().equals("traceEvents") && in.peek() == JsonToken.BEGIN_ARRAY) {
                        builder.read(in);
                        sawEvents = true;
                    } else {
                        in.skipValue();
                    }
                }
                in.endObject();
            }
            if (!sawEvents) throw new IOException("not a Chrome trace: no traceEvents array");
        } catch (JsonParseException | IllegalStateException | MalformedJsonException | EOFException e) {
            throw new IOException("not JSON: " + e.getMessage(), e);
        }
        return builder.build();
    }

    /** One reading pass; its state is the bars so far, the row names and the flow ends to bind. */
    private static final class Builder {
        private final List<TimelineEvent> bars = new ArrayList<>();
        private final Map<Integer, Map<Integer, String>> names = new TreeMap<>();
        private final Set<Integer> processes = new HashSet<>();
        private final List<JsonObject> flowEnds = new ArrayList<>();
        private boolean flowIdsInArgs;
        private Map<Long, List<Integer>> rows; // row -> bar indices, built when the first flow end is bound

        void read(JsonReader in) throws IOException {
            in.beginArray();
            for (int i = 0; in.hasNext(); i++) {
                String where = "traceEvents[" + i + "]";
                if (!(JsonParser.parseReader(in) instanceof JsonObject e)) throw new IOException(where + ": not an object");
                switch (string(e, "ph")) {
                    case "X" -> bars.add(bar(e, where));
                    case "M" -> metadata(e, where);
                    case "s", "f" -> flowEnds.add(e);
                    case null, default -> { }
                }
            }
            in.endArray();
        }

        Timeline build() throws IOException {
            if (!flowIdsInArgs) bindFlows();
            return new Timeline(bars, streamNames());
        }

        private void metadata(JsonObject e, String where) throws IOException {
            String label = e.get("args") instanceof JsonObject args ? string(args, "name") : null;
            switch (string(e, "name")) {
                case "process_name" -> processes.add(integer(e, "pid", where));
                case "thread_name" -> {
                    if (label != null) {
                        names.computeIfAbsent(integer(e, "pid", where), r -> new TreeMap<>())
                                .put(stream(integer(e, "tid", where)), label);
                    }
                }
                case null, default -> { }
            }
        }

        private TimelineEvent bar(JsonObject e, String where) throws IOException {
            JsonObject args = e.get("args") instanceof JsonObject a ? a : new JsonObject();
            int rank = integer(e, "pid", where);
            int stream = args.has(ARG_STREAM) ? integer(args, ARG_STREAM, where) : stream(integer(e, "tid", where));
            long start, end;
            if (args.has(ARG_START_NS) && args.has(ARG_END_NS)) {
                start = longValue(args, ARG_START_NS, where);
                end = longValue(args, ARG_END_NS, where);
            } else {
                BigDecimal ts = decimal(e, "ts", where), dur = e.has("dur") ? decimal(e, "dur", where) : BigDecimal.ZERO;
                start = ns(ts, where);
                end = ns(ts.add(dur), where); // from the exact sum, so start + duration rounds once
            }
            if (end < start) throw new IOException(where + ": negative duration");
            String name = string(e, "name") instanceof String n ? n : "";
            flowIdsInArgs |= args.has(ARG_FLOW);
            return new TimelineEvent(rank, stream, kind(args, string(e, "cat"), name), name,
                    optInt(args, ARG_NODE, -1, where), optInt(args, ARG_ITERATION, -1, where), start, end,
                    optLong(args, ARG_BYTES, 0, where), optLong(args, ARG_FLOPS, 0, where),
                    optInt(args, ARG_PEER, -1, where), optLong(args, ARG_FLOW, 0, where), breakdown(args, where));
        }

        /** The bar's {@link Breakdown}, if its args carry one (an array of counts under its unit's key). */
        private static Optional<Breakdown> breakdown(JsonObject args, String where) throws IOException {
            for (Breakdown.Unit unit : Breakdown.Unit.values()) {
                if (!args.has(unit.key())) continue;
                if (!(args.get(unit.key()) instanceof JsonArray array)) {
                    throw new IOException(where + ": " + unit.key() + " is not an array of counts");
                }
                List<Long> counts = new ArrayList<>();
                for (JsonElement n : array) {
                    if (!(n instanceof JsonPrimitive p && p.isNumber())) {
                        throw new IOException(where + ": " + unit.key() + " holds " + n + ", not a count");
                    }
                    counts.add(p.getAsLong());
                }
                String exchange = string(args, ARG_EXCHANGE) instanceof String x ? x : "";
                return Optional.of(new Breakdown(unit, exchange, counts));
            }
            return Optional.empty();
        }

        /**
         * A trace from elsewhere links bars only through s/f events: each binds to the innermost bar around its
         * ts on its row, and a start and finish with the same cat and id give both bars a fresh flow id.
         */
        private void bindFlows() throws IOException {
            Map<String, int[]> ends = new LinkedHashMap<>(); // cat+id -> {start bar, finish bar}, -1 unbound
            for (JsonObject f : flowEnds) {
                if (!(f.get("id") instanceof JsonPrimitive id) || !f.has("ts") || !f.has("pid") || !f.has("tid")) {
                    continue;
                }
                String key = string(f, "cat") + "\u0000" + id.getAsString();
                long ts = ns(decimal(f, "ts", "flow " + key), "flow " + key);
                int bar = innermost(integer(f, "pid", "flow"), stream(integer(f, "tid", "flow")), ts);
                ends.computeIfAbsent(key, k -> new int[] {-1, -1})["s".equals(string(f, "ph")) ? 0 : 1] = bar;
            }
            long next = 1;
            Map<Integer, Long> flowOf = new HashMap<>();
            for (int[] pair : ends.values()) {
                if (pair[0] < 0 || pair[1] < 0 || pair[0] == pair[1]) continue;
                if (flowOf.containsKey(pair[0]) || flowOf.containsKey(pair[1])) continue; // a bar has one flow id
                flowOf.put(pair[0], next);
                flowOf.put(pair[1], next++);
            }
            flowOf.forEach((i, id) -> {
                TimelineEvent b = bars.get(i);
                bars.set(i, b.withFlowId(id));
            });
        }

        /** Index of the latest-starting (then shortest) bar on the row that contains ts, or -1. */
        private int innermost(int rank, int stream, long ts) {
            List<Integer> row = byRow().getOrDefault(row(rank, stream), List.of());
            // row is sorted by start, then end descending: walking back from the last bar starting at or before
            // ts, the first that still runs at ts is the innermost.
            int lo = 0, hi = row.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (bars.get(row.get(mid)).startNs() <= ts) lo = mid + 1;
                else hi = mid;
            }
            for (int i = lo - 1; i >= 0; i--) {
                if (bars.get(row.get(i)).endNs() >= ts) return row.get(i);
            }
            return -1;
        }

        private Map<Long, List<Integer>> byRow() {
            if (rows == null) {
                rows = new HashMap<>();
                for (int i = 0; i < bars.size(); i++) {
                    rows.computeIfAbsent(row(bars.get(i).rank(), bars.get(i).stream()), r -> new ArrayList<>()).add(i);
                }
                Comparator<Integer> byStart = Comparator.comparingLong(i -> bars.get(i).startNs());
                Comparator<Integer> byEnd = Comparator.comparingLong(i -> bars.get(i).endNs());
                rows.values().forEach(list -> list.sort(byStart.thenComparing(byEnd.reversed())));
            }
            return rows;
        }

        private Map<Integer, Map<Integer, String>> streamNames() {
            Set<Long> rowsWithBars = new HashSet<>();
            Set<Integer> ranksWithBars = new HashSet<>();
            for (TimelineEvent b : bars) {
                rowsWithBars.add(row(b.rank(), b.stream()));
                ranksWithBars.add(b.rank());
            }
            Map<Integer, Map<Integer, String>> kept = new TreeMap<>();
            names.forEach((rank, byStream) -> byStream.forEach((stream, label) -> {
                if (!rowsWithBars.contains(row(rank, stream)) || !label.equals(Timeline.defaultStreamName(stream))) {
                    kept.computeIfAbsent(rank, r -> new TreeMap<>()).put(stream, label);
                }
            }));
            // A rank that only has a name keeps its (empty) entry, so it is written again.
            for (int rank : processes) {
                if (!ranksWithBars.contains(rank)) kept.computeIfAbsent(rank, r -> new TreeMap<>());
            }
            return kept;
        }
    }

    private static long row(int rank, int stream) {
        return ((long) rank << 32) ^ (stream & 0xffffffffL);
    }

    private static EventKind kind(JsonObject args, String cat, String name) {
        String kind = string(args, ARG_KIND) instanceof String k ? k : cat == null ? "" : cat;
        String lower = kind.toLowerCase(Locale.ROOT);
        // a GPU profile files NCCL's kernels under "kernel" like any other; their names say what they are
        if (lower.contains("kernel") && name.toLowerCase(Locale.ROOT).contains("nccl")) return EventKind.COMMUNICATION;
        for (EventKind k : EventKind.values()) {
            if (ChromeTraceConventions.category(k).equals(lower)) return k;
        }
        if (lower.contains("memcpy") || lower.contains("memset")) return EventKind.COPY;
        return lower.contains("kernel") ? EventKind.KERNEL : EventKind.HOST;
    }

    private static String string(JsonObject o, String key) {
        return o.get(key) instanceof JsonPrimitive p && p.isString() ? p.getAsString() : null;
    }

    private static BigDecimal decimal(JsonObject o, String key, String where) throws IOException {
        if (o.get(key) instanceof JsonPrimitive p && p.isNumber()) {
            try {
                return p.getAsBigDecimal();
            } catch (NumberFormatException e) {
                // falls through to the error below
            }
        }
        throw new IOException(where + ": '" + key + "' is not a number");
    }

    private static long ns(BigDecimal micros, String where) throws IOException {
        try {
            return nanos(micros);
        } catch (ArithmeticException e) {
            throw new IOException(where + ": time out of range");
        }
    }

    private static long longValue(JsonObject o, String key, String where) throws IOException {
        try {
            return decimal(o, key, where).longValueExact();
        } catch (ArithmeticException e) {
            throw new IOException(where + ": '" + key + "' is not an integer");
        }
    }

    private static int integer(JsonObject o, String key, String where) throws IOException {
        long v = longValue(o, key, where);
        if (v != (int) v) throw new IOException(where + ": '" + key + "' is out of range");
        return (int) v;
    }

    private static int optInt(JsonObject o, String key, int absent, String where) throws IOException {
        return o.has(key) ? integer(o, key, where) : absent;
    }

    private static long optLong(JsonObject o, String key, long absent, String where) throws IOException {
        return o.has(key) ? longValue(o, key, where) : absent;
    }
}
