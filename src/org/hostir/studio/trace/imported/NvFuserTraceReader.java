package org.hostir.studio.trace.imported;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;

import com.google.gson.JsonObject;
import com.google.gson.stream.JsonReader;

/**
 * nvFuser's host trace ({@code NVFUSER_TRACE=FILE}), one file per process (rank = the file's position). nvFuser
 * writes it as csrc/instrumentation.cpp:68-93 does (81c4b22fd): one line per event, {@code B} when a
 * {@code FUSER_PERF_SCOPE} opens and {@code E} when it closes, {@code ts} in microseconds from the trace's start,
 * {@code pid} the process, {@code tid} a hash of the thread (an unsigned int, beyond Java's int), between
 * {@code I} events TRACE_START and TRACE_END. Each B/E pair becomes a host bar on a row per thread. A file whose
 * process died has no epilogue: its events are read up to the cut, and scopes still open end at the last time
 * seen.
 */
public final class NvFuserTraceReader {
    /** A scope opened by a B event, not yet closed. */
    private record Open(String name, long startNs) {
    }

    private final List<TimelineEvent> events = new ArrayList<>();
    private final Map<Integer, Map<Integer, String>> rowNames = new TreeMap<>();
    private final List<String> notes = new ArrayList<>();

    /** Whether a text begins as nvFuser's trace does (its prologue's TRACE_START instant). */
    public static boolean looksLike(String head) {
        return head.contains("\"TRACE_START\"");
    }

    public void add(String name, Reader text, int rank) throws IOException {
        List<JsonObject> raw = new ArrayList<>();
        TraceEvents.Pass pass = TraceEvents.read(text, raw::add, (key, in) -> skip(in));
        Map<Long, Integer> threads = new LinkedHashMap<>();
        Map<Integer, Deque<Open>> open = new HashMap<>();
        long last = 0;
        int unmatched = 0, unread = 0;
        for (JsonObject e : raw) {
            String ph = TraceEvents.string(e, "ph"), label = TraceEvents.string(e, "name");
            Long ts = TraceEvents.nanos(e, "ts");
            if (ts == null || label == null) {
                unread++;
                continue;
            }
            last = Math.max(last, ts);
            long tid = TraceEvents.integer(e, "tid", 0);
            int row = -1 - threads.computeIfAbsent(tid, t -> threads.size());
            rowNames.computeIfAbsent(rank, r -> new TreeMap<>()).putIfAbsent(row, "thread " + tid);
            Deque<Open> stack = open.computeIfAbsent(row, r -> new ArrayDeque<>());
            if ("B".equals(ph)) stack.push(new Open(label, ts));
            else if ("E".equals(ph)) {
                if (stack.isEmpty() || !stack.peek().name().equals(label)) {
                    unmatched++;
                    continue;
                }
                Open begin = stack.pop();
                events.add(bar(rank, row, label, begin.startNs(), ts));
            }
        }
        int stillOpen = 0;
        for (Map.Entry<Integer, Deque<Open>> row : open.entrySet()) {
            for (Open begin : row.getValue()) {
                events.add(bar(rank, row.getKey(), begin.name(), begin.startNs(), last));
                stillOpen++;
            }
        }
        if (pass.truncated()) notes.add(name + ": cut off after " + pass.events() + " events; read up to there");
        if (stillOpen > 0) notes.add(name + ": " + stillOpen + " scopes never closed; ended at the last time seen");
        if (unmatched > 0) notes.add(name + ": " + unmatched + " E events match no open scope; left out");
        if (unread > 0) notes.add(name + ": " + unread + " events without a name or a numeric ts were left out");
    }

    private static TimelineEvent bar(int rank, int row, String name, long start, long end) {
        return new TimelineEvent(rank, row, EventKind.HOST, name, -1, -1, start, Math.max(start, end), 0, 0, -1, 0);
    }

    private static void skip(JsonReader in) {
        try {
            in.skipValue();
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    public TraceRun run(String label) {
        return new TraceRun(label, new Timeline(events, rowNames), List.of(), List.of());
    }

    public List<String> notes() { return List.copyOf(notes); }
}
