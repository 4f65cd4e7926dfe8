package org.hostir.studio.trace.imported;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.hostir.studio.trace.Counter;
import org.hostir.studio.trace.CounterTracks;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Launch;
import org.hostir.studio.trace.StreamWait;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;

/**
 * PyTorch profiler (Kineto) traces, one file per rank ({@code distributedInfo.rank}; without it, the file's
 * position), or several ranks merged into one file (a file whose GPU work has more than one {@code pid}: Kineto
 * writes a GPU's work under its device index, so each GPU {@code pid} in order is a rank, and each host process
 * belongs to the GPU its launches ran on), into one run:
 * <ul>
 * <li>GPU work ({@code cat} kernel, gpu_memcpy, gpu_memset) on its stream ({@code args.stream}, else tid), its kind
 * by {@link #gpuKind} (NCCL's kernels are communications);</li>
 * <li>host calls ({@code cpu_op}, {@code user_annotation}, {@code cuda_runtime}, {@code cuda_driver}) on one host
 * row per CPU thread (rows -1, -2, ... in order of appearance);</li>
 * <li>launches: a runtime call and the GPU work with the same {@code args.correlation};</li>
 * <li>waits ({@link StreamWait}): the {@code cuda_sync} events "Stream Wait Event" of a profile taken with
 * {@code enable_cuda_sync_events} (Kineto's {@code wait_on_stream} and {@code wait_on_cuda_event_record_corr_id},
 * the stream and call that recorded the event waited for), paired with device bars by {@link WaitPairing};</li>
 * <li>memory: the {@code [memory]} instant events of a GPU ({@code args."Device Id" >= 0}), their
 * {@code "Total Allocated"} as the rank's counter;</li>
 * <li>time: {@code ts} in microseconds after {@code baseTimeNanoseconds} when the file has it (so ranks line
 * up), the whole run shifted to start at 0.</li>
 * </ul>
 */
public final class KinetoReader {
    public static final String PROFILER_MEMORY = "memory allocated (profiler)";
    private static final Set<String> GPU = Set.of("kernel", "gpu_memcpy", "gpu_memset");
    private static final Set<String> HOST = Set.of("cpu_op", "user_annotation", "cuda_runtime", "cuda_driver");

    /** A bar before the run is shifted to 0; {@code correlation} links a launch to its work (-1: none). */
    private record Raw(int rank, int stream, EventKind kind, String name, long start, long end, long bytes,
                       long correlation) {
    }

    private final List<Raw> raws = new ArrayList<>();
    private final List<WaitPairing.Stated> stated = new ArrayList<>();
    private final Map<Integer, Map<Long, Long>> memory = new TreeMap<>();
    private final Map<Integer, Map<Integer, String>> rowNames = new TreeMap<>();
    private final List<String> notes = new ArrayList<>();
    private Long firstBase;

    /** Reads one rank's file; {@code fallbackRank} when it names none. */
    public void add(String name, Reader text, int fallbackRank) throws IOException {
        List<JsonObject> events = new ArrayList<>();
        long[] base = {0};
        int[] rank = {fallbackRank};
        TraceEvents.Pass pass = TraceEvents.read(text, events::add, (key, in) -> top(key, in, base, rank));
        if (pass.truncated()) notes.add(name + ": cut off after " + pass.events() + " events; read up to there");
        if (firstBase == null) firstBase = base[0];
        Map<List<Long>, Integer> threads = new LinkedHashMap<>();
        Map<String, Integer> merged = MergedRanks.of(events);
        if (merged != null) notes.add(name + ": " + merged.values().stream().distinct().count() + " ranks merged in one file");
        int unread = 0, unplaced = 0;
        for (JsonObject e : events) {
            int r = merged == null ? rank[0] : MergedRanks.rank(e, merged);
            if (r < 0) {
                String cat = String.valueOf(TraceEvents.string(e, "cat")).toLowerCase(Locale.ROOT);
                if ("X".equals(TraceEvents.string(e, "ph")) && (GPU.contains(cat) || HOST.contains(cat))) unplaced++;
            }
            // relative to the first file's base: the bases are epoch nanoseconds, and base + ts would near long's end
            else if (!event(e, r, base[0] - firstBase, threads)) unread++;
        }
        if (unread > 0) notes.add(name + ": " + unread + " events without a name or a numeric ts were left out");
        if (unplaced > 0) notes.add(name + ": " + unplaced + " events of processes that launched no GPU work were left out");
    }

    private static void top(String key, JsonReader in, long[] base, int[] rank) {
        try {
            switch (key) {
                case "baseTimeNanoseconds" -> base[0] = in.nextLong();
                case "distributedInfo" -> {
                    JsonObject info = JsonParser.parseReader(in).getAsJsonObject();
                    rank[0] = (int) TraceEvents.integer(info, "rank", rank[0]);
                }
                default -> in.skipValue();
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("'" + key + "': " + e.getMessage(), e);
        }
    }

    /** Reads one event; false for a bar or sample it cannot read (no name, no numeric ts). */
    private boolean event(JsonObject e, int rank, long base, Map<List<Long>, Integer> threads) {
        String ph = TraceEvents.string(e, "ph"), cat = TraceEvents.string(e, "cat"), name = TraceEvents.string(e, "name");
        JsonObject args = TraceEvents.args(e);
        Long ts = TraceEvents.nanos(e, "ts");
        if (ts == null || name == null) return !"X".equals(ph) && !"i".equals(ph);
        if ("[memory]".equals(name) && TraceEvents.integer(args, "Device Id", -1) >= 0) {
            memory.computeIfAbsent(rank, r -> new TreeMap<>()).put(base + ts, TraceEvents.integer(args, "Total Allocated", 0));
            return true;
        }
        if (!"X".equals(ph) || cat == null) return true;
        if (cat.equals("cuda_sync")) {
            // an "Event Sync" (cudaEventSynchronize) holds the host, not a stream: only stream waits are stated here
            if (name.equals("Stream Wait Event")) waitStated(args, rank);
            return true;
        }
        Long dur = TraceEvents.nanos(e, "dur");
        long start = base + ts, end = start + (dur == null ? 0 : Math.max(0, dur));
        String c = cat.toLowerCase(Locale.ROOT);
        long correlation = TraceEvents.integer(args, "correlation", -1);
        if (GPU.contains(c)) {
            int stream = (int) TraceEvents.integer(args, "stream", TraceEvents.integer(e, "tid", 0));
            raws.add(new Raw(rank, stream, gpuKind(c, name), name, start, end, TraceEvents.integer(args, "bytes", 0),
                    correlation));
        } else if (HOST.contains(c)) {
            long tid = TraceEvents.integer(e, "tid", 0);
            int row = -1 - threads.computeIfAbsent(List.of((long) rank, tid),
                    t -> (int) threads.keySet().stream().filter(k -> k.getFirst() == rank).count());
            rowNames.computeIfAbsent(rank, r -> new TreeMap<>()).putIfAbsent(row, "host thread " + tid);
            raws.add(new Raw(rank, row, EventKind.HOST, name, start, end, 0, correlation));
        }
        return true;
    }

    /** A "Stream Wait Event" that names the event record it waits for. */
    private void waitStated(JsonObject args, int rank) {
        long recordStream = TraceEvents.integer(args, "wait_on_stream", -1);
        long recordCorrelation = TraceEvents.integer(args, "wait_on_cuda_event_record_corr_id", -1);
        if (recordStream < 0 || recordCorrelation < 0) return;
        stated.add(new WaitPairing.Stated(rank, recordStream, recordCorrelation, TraceEvents.integer(args, "stream", -1),
                TraceEvents.integer(args, "correlation", -1)));
    }

    /**
     * NCCL's kernels and symmetric memory's (async-TP's barriers and collectives, {@code c10d::symmetric_memory::})
     * are the communications of a PyTorch run, matched across ranks; a peer-to-peer copy ({@code Memcpy PtoP}, a
     * copy engine pulling a peer's chunk) is a one-sided transfer; the rest by their category.
     */
    static EventKind gpuKind(String cat, String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.contains("nccl") || n.contains("symmetric_memory::")) return EventKind.COMMUNICATION;
        if (cat.equals("gpu_memcpy") && n.contains("ptop")) return EventKind.P2P;
        return cat.equals("kernel") ? EventKind.KERNEL : EventKind.COPY;
    }

    /** The run of every file added, shifted to start at 0. */
    public TraceRun run(String label) {
        long origin = raws.stream().mapToLong(Raw::start).min().orElse(0);
        List<TimelineEvent> events = new ArrayList<>();
        Map<List<Long>, TimelineEvent> hostByCorrelation = new HashMap<>();
        Map<TimelineEvent, Long> deviceCorrelation = new IdentityHashMap<>();
        WaitPairing pairing = new WaitPairing();
        for (Raw r : raws) {
            TimelineEvent e = new TimelineEvent(r.rank(), r.stream(), r.kind(), r.name(), -1, -1, r.start() - origin,
                    r.end() - origin, r.bytes(), 0, -1, 0);
            events.add(e);
            if (r.correlation() < 0) continue;
            if (r.stream() < 0) {
                hostByCorrelation.put(List.of((long) r.rank(), r.correlation()), e);
            } else {
                deviceCorrelation.put(e, r.correlation());
                pairing.bar(r.rank(), r.stream(), r.correlation(), e);
            }
        }
        List<Launch> launches = new ArrayList<>();
        deviceCorrelation.forEach((device, c) -> {
            TimelineEvent host = hostByCorrelation.get(List.of((long) device.rank(), c));
            if (host != null) launches.add(new Launch(host, device));
        });
        List<Counter> counters = new ArrayList<>();
        memory.forEach((rank, samples) -> {
            Map<Long, Long> shifted = new TreeMap<>();
            long previous = 0;
            for (Map.Entry<Long, Long> s : samples.entrySet()) {
                shifted.merge(s.getKey() - origin, s.getValue() - previous, Long::sum);
                previous = s.getValue();
            }
            counters.add(new Counter(rank, PROFILER_MEMORY, "bytes", CounterTracks.running(shifted)));
        });
        List<StreamWait> waits = pairing.pair(stated);
        if (pairing.note() != null) notes.add(pairing.note());
        return new TraceRun(label, new Timeline(events, rowNames), launches, counters, waits);
    }

    /** What the reader had to work around (a file cut off). */
    public List<String> notes() { return List.copyOf(notes); }
}
