package org.hostir.studio.trace;

import static org.hostir.studio.trace.ChromeTraceConventions.*;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonWriter;

/**
 * Writes a {@link Timeline} as a Chrome Trace Event file in object form, the format Perfetto, chrome://tracing
 * and Holistic Trace Analysis open. Field mapping: see {@link ChromeTraceConventions}.
 * <ul>
 * <li>{@code M} metadata first: per rank {@code process_name} ("rank N") and {@code process_sort_index} (the
 * rank), per row {@code thread_name} ({@link Timeline#streamName}) and {@code thread_sort_index} (the stream
 * index, so the host row, -1, sorts on top). Rows are those with events plus those named in
 * {@link Timeline#streamNames()}, so an idle stream still shows.</li>
 * <li>one {@code X} complete event per timeline event: {@code cat} = the kind in lower case, {@code args} = kind,
 * node id, iteration, stream, bytes, flops, peer, flow id and the exact start/end in nanoseconds.</li>
 * <li>a {@code s}/{@code f} flow pair per transfer found by {@link FlowPairing} (see there for the send/recv
 * naming rule), both with {@code id} = the flow id and {@code cat} "p2p"; each sits inside its bar, away from
 * its edges (where a touching neighbour would compete) and from bars nested in it (which would capture it), and
 * the finish has {@code bp: "e"} so it binds to the enclosing bar rather than the next one.</li>
 * <li>{@code distributedInfo}: {@code rank} (the lowest; HTA reads one rank per file), {@code ranks} and
 * {@code world_size}; {@link #writePerRank} writes the one-file-per-rank layout HTA prefers.</li>
 * <li>{@code C} counter events ({@link CounterTracks}): memory in use per rank, communication bytes in flight.</li>
 * <li>{@code otherData}: the caller's free-form map (fusion, options, backend...).</li>
 * </ul>
 * One event per line, so a trace diffs and greps well; the output is deterministic.
 */
public final class ChromeTraceWriter {
    // Without disableHtmlEscaping Gson writes "->" as "-\u003e".
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

    /**
     * How every file this writer makes begins, byte for byte: what {@link #wroteThis} recognises, so a run may
     * replace a trace of its own but not a file someone else made.
     */
    static final String HEADER = "{\"displayTimeUnit\": \"ns\",\n\"distributedInfo\": ";

    private ChromeTraceWriter() {
    }

    /** Whether {@code file} is a regular file that begins as this writer's traces do. */
    public static boolean wroteThis(Path file) {
        if (!Files.isRegularFile(file)) return false;
        byte[] expected = HEADER.getBytes(StandardCharsets.UTF_8);
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(expected.length), expected);
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether {@code head}, a file's first characters, begins as this writer's traces do. */
    public static boolean wroteThis(String head) { return head.startsWith(HEADER); }

    /** The whole timeline in one file. */
    public static String write(Timeline timeline, Map<String, ?> otherData) {
        StringBuilder out = new StringBuilder();
        write(timeline, otherData, out);
        return out.toString();
    }

    public static void write(Timeline timeline, Map<String, ?> otherData, Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(timeline, otherData, w);
        }
    }

    /** The whole timeline as UTF-8 on {@code out} (flushed, not closed): what a file's writer calls. */
    public static void write(Timeline timeline, Map<String, ?> otherData, OutputStream out) throws IOException {
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        try {
            write(timeline, otherData, w);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        w.flush();
    }

    public static void write(Timeline timeline, Map<String, ?> otherData, Appendable out) {
        List<Integer> ranks = List.copyOf(rows(timeline).keySet());
        JsonObject info = new JsonObject();
        info.addProperty("rank", ranks.isEmpty() ? 0 : ranks.getFirst());
        JsonArray list = new JsonArray();
        ranks.forEach(list::add);
        info.add("ranks", list);
        info.addProperty("world_size", ranks.size());
        write(timeline, info, otherData, out);
    }

    /**
     * One file per rank, as HTA's trace directories hold them ({@code distributedInfo.rank} = that rank,
     * {@code world_size} = all ranks). A flow between two ranks has an end in each file and is left out of both.
     */
    public static SortedMap<Integer, String> writePerRank(Timeline timeline, Map<String, ?> otherData) {
        SortedMap<Integer, SortedSet<Integer>> rows = rows(timeline);
        SortedMap<Integer, String> files = new TreeMap<>();
        for (int rank : rows.keySet()) {
            Timeline own = new Timeline(timeline.of(rank),
                    Map.of(rank, timeline.streamNames().getOrDefault(rank, Map.of())));
            JsonObject info = new JsonObject();
            info.addProperty("rank", rank);
            info.addProperty("world_size", rows.size());
            StringBuilder out = new StringBuilder();
            write(own, info, otherData, out);
            files.put(rank, out.toString());
        }
        return files;
    }

    /** A run's timeline with its counters (an imported profile's memory samples) beside the derived ones. */
    public static void write(TraceRun run, Map<String, ?> otherData, Appendable out) {
        List<Integer> ranks = List.copyOf(rows(run.timeline()).keySet());
        JsonObject info = new JsonObject();
        info.addProperty("rank", ranks.isEmpty() ? 0 : ranks.getFirst());
        info.addProperty("world_size", ranks.size());
        write(run.timeline(), run.counters(), info, otherData, out);
    }

    private static void write(Timeline timeline, JsonObject distributedInfo, Map<String, ?> otherData,
                              Appendable out) {
        write(timeline, List.of(), distributedInfo, otherData, out);
    }

    /**
     * The events, then the counters as {@code C} events ({@link CounterTracks} of the timeline, then
     * {@code extra}): one per sample, on the rank's process, {@code args} = the unit and the value.
     */
    private static void write(Timeline timeline, List<Counter> extra, JsonObject distributedInfo,
                              Map<String, ?> otherData, Appendable out) {
        try {
            // distributedInfo before traceEvents: HTA's streaming metadata reader stops at traceEvents.
            out.append(HEADER).append(GSON.toJson(distributedInfo))
                    .append(",\n\"traceEvents\": [");
            EventLines lines = new EventLines(out);
            rows(timeline).forEach((rank, streams) -> {
                lines.metadata(rank, 0, "process_name", "name", processName(rank));
                lines.metadata(rank, 0, "process_sort_index", "sort_index", rank);
                for (int stream : streams) {
                    lines.metadata(rank, tid(stream), "thread_name", "name", timeline.streamName(rank, stream));
                    lines.metadata(rank, tid(stream), "thread_sort_index", "sort_index", stream);
                }
            });
            timeline.events().forEach(lines::complete);
            Map<TimelineEvent, Integer> position = new IdentityHashMap<>();
            for (int i = 0; i < timeline.events().size(); i++) position.put(timeline.events().get(i), i);
            for (FlowPairing.Flow flow : FlowPairing.pair(timeline).flows()) {
                lines.flowEnd("s", flow.id(), flow.send(), anchorNs(timeline.events(), position.get(flow.send())));
                lines.flowEnd("f", flow.id(), flow.recv(), anchorNs(timeline.events(), position.get(flow.recv())));
            }
            for (List<Counter> counters : List.of(CounterTracks.of(timeline), extra)) {
                for (Counter c : counters) c.samples().forEach(sample -> lines.counter(c, sample));
            }
            out.append("\n],\n\"otherData\": ").append(GSON.toJson(GSON.toJsonTree(
                    otherData == null ? Map.of() : new LinkedHashMap<>(otherData)))).append("\n}\n");
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Where a flow end goes in its bar: viewers bind it to the innermost bar around its ts, so it must avoid the
     * bar's children (a coalesced recv nested in its send, say). The middle of the longest stretch of the bar
     * that no child covers; the bar's midpoint if children cover it all. Two bars of one extent on one row
     * (identical transfers of a coalesced group) stay ambiguous: a viewer may draw the arrow from either. {@code events} is in timeline order
     * (row, start, longest first), so the bar's children follow it.
     */
    private static long anchorNs(List<TimelineEvent> events, int index) {
        TimelineEvent bar = events.get(index);
        long cursor = bar.startNs(), bestFrom = 0, bestLength = 0;
        for (int i = index + 1; i < events.size(); i++) {
            TimelineEvent c = events.get(i);
            if (c.rank() != bar.rank() || c.stream() != bar.stream() || c.startNs() > bar.endNs()) break;
            if (c.endNs() > bar.endNs()) continue; // overlaps without nesting: not a child
            // a twin of the same extent is no child either: no point tells the two apart, so look past it
            if (c.startNs() == bar.startNs() && c.endNs() == bar.endNs()) continue;
            if (c.startNs() - cursor > bestLength) {
                bestFrom = cursor;
                bestLength = c.startNs() - cursor;
            }
            cursor = Math.max(cursor, c.endNs());
        }
        if (bar.endNs() - cursor > bestLength) {
            bestFrom = cursor;
            bestLength = bar.endNs() - cursor;
        }
        // a gap of one nanosecond has no inside: its middle would touch a child
        return bestLength >= 2 ? bestFrom + bestLength / 2 : bar.startNs() + bar.durationNs() / 2;
    }

    /** Rank -> streams that get a row: those with events and those the timeline names. */
    private static SortedMap<Integer, SortedSet<Integer>> rows(Timeline timeline) {
        SortedMap<Integer, SortedSet<Integer>> rows = new TreeMap<>();
        timeline.streamNames().forEach((rank, names) -> rows.computeIfAbsent(rank, r -> new TreeSet<>())
                .addAll(names.keySet()));
        for (TimelineEvent e : timeline.events()) {
            rows.computeIfAbsent(e.rank(), r -> new TreeSet<>()).add(e.stream());
        }
        return rows;
    }

    /**
     * Writes one event per line straight into the output through Gson's streaming {@link JsonWriter} (compact, so
     * one line per event; it escapes every string as RFC 8259 requires, U+2028/9 too): a Gson tree per event costs
     * more than ten times as much, and a run can have hundreds of thousands of bars. Key order is fixed, so the
     * output is stable.
     */
    private static final class EventLines {
        private final Appendable out;
        private final JsonWriter json;
        private boolean first = true;

        EventLines(Appendable out) {
            this.out = out;
            // lenient: one top-level object per line, one after another; the separators go to out between them
            this.json = new JsonWriter(new AppendableWriter(out));
            json.setStrictness(Strictness.LENIENT);
        }

        void metadata(int pid, int tid, String name, String key, Object value) {
            write(() -> {
                header("M", pid, tid, 0);
                json.name("name").value(name);
                json.name("args").beginObject().name(key);
                if (value instanceof Integer n) json.value(n.longValue());
                else json.value(value.toString());
                json.endObject();
            });
        }

        void complete(TimelineEvent e) {
            write(() -> {
                header("X", e.rank(), tid(e.stream()), e.startNs());
                json.name("dur").jsonValue(microsText(e.durationNs()));
                json.name("cat").value(category(e.kind()));
                json.name("name").value(e.name());
                json.name("args").beginObject();
                json.name(ARG_KIND).value(category(e.kind()));
                json.name(ARG_NODE).value(e.nodeId());
                json.name(ARG_ITERATION).value(e.iteration());
                json.name(ARG_STREAM).value(e.stream());
                json.name(ARG_BYTES).value(e.bytes());
                json.name(ARG_FLOPS).value(e.flops());
                json.name(ARG_PEER).value(e.peer());
                json.name(ARG_FLOW).value(e.flowId());
                json.name(ARG_START_NS).value(e.startNs());
                json.name(ARG_END_NS).value(e.endNs());
                if (e.breakdown().isPresent()) breakdown(e.breakdown().get());
                json.endObject();
            });
        }

        private void breakdown(Breakdown b) throws IOException {
            json.name(b.unit().key()).beginArray();
            for (long n : b.counts()) json.value(n);
            json.endArray();
            if (!b.exchange().isEmpty()) json.name(ARG_EXCHANGE).value(b.exchange());
        }

        void counter(Counter c, Counter.Sample sample) {
            write(() -> {
                header("C", c.rank(), 0, sample.timeNs());
                json.name("name").value(c.name());
                json.name("args").beginObject().name(c.unit()).value(sample.value()).endObject();
            });
        }

        void flowEnd(String phase, long id, TimelineEvent bar, long tsNs) {
            write(() -> {
                header(phase, bar.rank(), tid(bar.stream()), tsNs);
                json.name("id").value(id);
                json.name("cat").value(FLOW_CATEGORY);
                json.name("name").value(FLOW_NAME);
                if (phase.equals("f")) json.name("bp").value("e");
            });
        }

        private void header(String phase, int pid, int tid, long tsNs) throws IOException {
            json.beginObject();
            json.name("ph").value(phase);
            json.name("pid").value(pid);
            json.name("tid").value(tid);
            // microsecond text with up to three decimals, exact, and the number JSON carries (see micros)
            json.name("ts").jsonValue(microsText(tsNs));
        }

        /** One event: the separator, then its fields written by {@code fields}, closed. */
        private void write(Fields fields) {
            try {
                json.flush();
                out.append(first ? "\n" : ",\n");
                fields.write();
                json.endObject();
                json.flush();
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            first = false;
        }

        @FunctionalInterface
        private interface Fields {
            void write() throws IOException;
        }
    }

    /** A {@link Writer} onto an {@link Appendable}, for {@link JsonWriter}: no copy, no lock, no buffer. */
    private static final class AppendableWriter extends Writer {
        private final Appendable out;

        AppendableWriter(Appendable out) {
            this.out = out;
        }

        @Override
        public void write(int c) throws IOException {
            out.append((char) c);
        }

        @Override
        public void write(String s, int off, int len) throws IOException {
            out.append(s, off, off + len);
        }

        @Override
        public void write(char[] chars, int off, int len) throws IOException {
            out.append(CharBuffer.wrap(chars, off, len));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
