package org.hostir.studio.trace.imported;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Launch;
import org.hostir.studio.trace.StreamWait;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;

/**
 * Nsight Systems' SQLite export ({@code nsys export --type sqlite}), one file for the whole run or one per rank,
 * into one run. The tables and columns read are those of NVIDIA's "SQLite Export Schema Reference" (Nsight Systems
 * documentation, nsys-exporter/exported_data.html):
 * <ul>
 * <li>device bars: {@code CUPTI_ACTIVITY_KIND_KERNEL} (name: {@code shortName}, else {@code demangledName}, ids
 * into {@code StringIds}), {@code _MEMCPY} (named by CUPTI's {@code CUpti_ActivityMemcpyKind}; a peer-to-peer copy
 * is a one-sided transfer), {@code _MEMSET}; each on its {@code streamId}, its kind by
 * {@link KinetoReader#gpuKind} (NCCL's kernels are communications);</li>
 * <li>ranks: each (file, {@code deviceId}) in that order is a rank, so one export per rank, each of one GPU, gives
 * ranks in file order, and one export of a whole run gives one rank per GPU;</li>
 * <li>host bars: {@code CUPTI_ACTIVITY_KIND_RUNTIME} calls ({@code nameId}, Nsight's {@code _v7000} version
 * suffix dropped) and NVTX push/pop and start/end ranges ({@code NVTX_EVENTS}, {@code text} or {@code textId}), one
 * row per thread ({@code globalTid}; the process is {@code globalTid >> 24}, Nsight's serialized id); a thread
 * belongs to the rank of the GPU its calls launched work on;</li>
 * <li>launches: a runtime call and the device bar with the same process and {@code correlationId};</li>
 * <li>waits ({@link StreamWait}): a {@code CUPTI_ACTIVITY_KIND_SYNCHRONIZATION} row of type
 * {@code CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT} (2) names the event waited for ({@code eventId})
 * and the waiting stream; the {@code CUPTI_ACTIVITY_KIND_CUDA_EVENT} row of the last record of that event before
 * the wait (by correlation id, which grows with each call of a process) names the recording stream; the wait runs
 * from that stream's last bar launched before the record to the waiting stream's first bar launched after the
 * wait;</li>
 * <li>time: nanoseconds; exports of several files line up on {@code TARGET_INFO_SESSION_START_TIME.utcEpochNs}
 * when they have it; the run is shifted to start at 0.</li>
 * </ul>
 */
public final class NsightReader {
    /** CUPTI's {@code CUpti_ActivityMemcpyKind} (cupti_activity.h), by value. */
    private static final List<String> COPY_KINDS = List.of("Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD",
            "DtoA", "DtoD", "HtoH", "PtoP");
    private static final int STREAM_WAIT_EVENT = 2;

    private record Device(int file, long deviceId) implements Comparable<Device> {
        @Override
        public int compareTo(Device o) {
            return file != o.file ? Integer.compare(file, o.file) : Long.compare(deviceId, o.deviceId);
        }
    }

    /** A call's or a bar's process: its file and Nsight's process id; correlation ids are unique within one. */
    private record Process(int file, long process) {
    }

    private record DeviceBar(Process process, Device device, long stream, EventKind kind, String name, long start,
                             long end, long bytes, long correlation) {
    }

    private record HostBar(Process process, long thread, String name, long start, long end, long correlation) {
    }

    private record Wait(Process process, long stream, long correlation, long eventId) {
    }

    private record Record(Process process, long stream, long correlation, long eventId) {
    }

    private final List<DeviceBar> device = new ArrayList<>();
    private final List<HostBar> host = new ArrayList<>();
    private final List<Wait> waits = new ArrayList<>();
    private final List<Record> records = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private Long firstSession;
    private int files;

    /** Reads one export. */
    public void add(Path file) throws IOException {
        int index = files++;
        try (NsightTables t = NsightTables.open(file)) {
            long shift = sessionShift(t);
            deviceBars(t, index, shift);
            hostBars(t, index, shift);
            synchronization(t, index);
            if (!t.has("CUPTI_ACTIVITY_KIND_KERNEL") && !t.has("CUPTI_ACTIVITY_KIND_MEMCPY")) {
                notes.add(file + ": no CUDA kernels or copies in it (profiled without --trace=cuda?)");
            }
        }
    }

    /** This file's session start after the first file's, so that per-rank exports line up. */
    private long sessionShift(NsightTables t) throws IOException {
        for (Map<String, Object> row : t.rows("TARGET_INFO_SESSION_START_TIME", "utcEpochNs")) {
            if (row.get("utcEpochNs") instanceof Number n) {
                if (firstSession == null) firstSession = n.longValue();
                return n.longValue() - firstSession;
            }
        }
        return 0;
    }

    private void deviceBars(NsightTables t, int file, long shift) throws IOException {
        for (Map<String, Object> r : t.rows("CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "deviceId", "streamId",
                "correlationId", "globalPid", "shortName", "demangledName")) {
            String name = t.string(r.get("shortName"));
            if (name == null) name = t.string(r.get("demangledName"));
            if (name == null) name = "kernel";
            bar(r, file, shift, KinetoReader.gpuKind("kernel", name), name, 0);
        }
        for (Map<String, Object> r : t.rows("CUPTI_ACTIVITY_KIND_MEMCPY", "start", "end", "deviceId", "streamId",
                "correlationId", "globalPid", "bytes", "copyKind")) {
            int kind = (int) number(r.get("copyKind"), 0);
            String name = "Memcpy " + (kind >= 0 && kind < COPY_KINDS.size() ? COPY_KINDS.get(kind) : "kind " + kind);
            bar(r, file, shift, KinetoReader.gpuKind("gpu_memcpy", name), name, number(r.get("bytes"), 0));
        }
        for (Map<String, Object> r : t.rows("CUPTI_ACTIVITY_KIND_MEMSET", "start", "end", "deviceId", "streamId",
                "correlationId", "globalPid", "bytes")) {
            bar(r, file, shift, EventKind.COPY, "Memset", number(r.get("bytes"), 0));
        }
    }

    private void bar(Map<String, Object> r, int file, long shift, EventKind kind, String name, long bytes) {
        long start = number(r.get("start"), 0), end = Math.max(start, number(r.get("end"), start));
        device.add(new DeviceBar(new Process(file, number(r.get("globalPid"), 0) >>> 24),
                new Device(file, number(r.get("deviceId"), 0)), number(r.get("streamId"), 0), kind, name,
                start + shift, end + shift, bytes, number(r.get("correlationId"), -1)));
    }

    private void hostBars(NsightTables t, int file, long shift) throws IOException {
        for (Map<String, Object> r : t.rows("CUPTI_ACTIVITY_KIND_RUNTIME", "start", "end", "globalTid",
                "correlationId", "nameId")) {
            String name = t.string(r.get("nameId"));
            hostBar(r, file, shift, name == null ? "CUDA API" : name.replaceFirst("_v\\d+$", ""),
                    number(r.get("correlationId"), -1));
        }
        for (Map<String, Object> r : t.rows("NVTX_EVENTS", "start", "end", "globalTid", "text", "textId",
                "eventType")) {
            Object text = r.get("text");
            String name = text != null ? text.toString() : t.string(r.get("textId"));
            // ranges only: a mark (NvtxMark, 34) or a range still open at the end has no end time
            if (name != null && r.get("end") instanceof Number) hostBar(r, file, shift, name, -1);
        }
    }

    private void hostBar(Map<String, Object> r, int file, long shift, String name, long correlation) {
        long tid = number(r.get("globalTid"), 0), start = number(r.get("start"), 0);
        long end = Math.max(start, number(r.get("end"), start));
        host.add(new HostBar(new Process(file, tid >>> 24), tid, name, start + shift, end + shift, correlation));
    }

    private void synchronization(NsightTables t, int file) throws IOException {
        for (Map<String, Object> r : t.rows("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "streamId",
                "correlationId", "globalPid", "syncType", "eventId")) {
            if (number(r.get("syncType"), 0) != STREAM_WAIT_EVENT) continue;
            waits.add(new Wait(new Process(file, number(r.get("globalPid"), 0) >>> 24), number(r.get("streamId"), 0),
                    number(r.get("correlationId"), -1), number(r.get("eventId"), -1)));
        }
        for (Map<String, Object> r : t.rows("CUPTI_ACTIVITY_KIND_CUDA_EVENT", "streamId", "correlationId",
                "globalPid", "eventId")) {
            records.add(new Record(new Process(file, number(r.get("globalPid"), 0) >>> 24),
                    number(r.get("streamId"), 0), number(r.get("correlationId"), -1), number(r.get("eventId"), -1)));
        }
        if (t.has("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION") && !t.has("CUPTI_ACTIVITY_KIND_CUDA_EVENT")) {
            notes.add("an export without CUPTI_ACTIVITY_KIND_CUDA_EVENT: the stream waits are inferred from times");
        }
    }

    static long number(Object value, long absent) {
        return value instanceof Number n ? n.longValue() : absent;
    }

    /** The run of every export added, shifted to start at 0. */
    public TraceRun run(String label) {
        Map<Device, Integer> ranks = new HashMap<>();
        for (Device d : new TreeSet<>(device.stream().map(DeviceBar::device).toList())) ranks.put(d, ranks.size());
        Map<List<Long>, Integer> threadRanks = threadRanks(ranks);
        long origin = Math.min(device.stream().mapToLong(DeviceBar::start).min().orElse(0),
                host.stream().mapToLong(HostBar::start).min().orElse(0));
        Map<Integer, Map<Integer, String>> rowNames = new TreeMap<>();
        Map<DeviceBar, TimelineEvent> deviceEvents = new IdentityHashMap<>();
        for (DeviceBar b : device) {
            int rank = ranks.get(b.device());
            rowNames.computeIfAbsent(rank, r -> new TreeMap<>()).putIfAbsent((int) b.stream(), "stream " + b.stream());
            deviceEvents.put(b, new TimelineEvent(rank, (int) b.stream(), b.kind(), b.name(), -1, -1,
                    b.start() - origin, b.end() - origin, b.bytes(), 0, -1, 0));
        }
        Map<HostBar, TimelineEvent> hostEvents = hostEvents(threadRanks, origin, rowNames);
        List<TimelineEvent> events = new ArrayList<>();
        for (DeviceBar b : device) events.add(deviceEvents.get(b));
        for (HostBar h : host) if (hostEvents.containsKey(h)) events.add(hostEvents.get(h));
        return new TraceRun(label, new Timeline(events, rowNames), launches(deviceEvents, hostEvents),
                List.of(), streamWaits(deviceEvents));
    }

    /** Each host thread's rank: the GPU most of its calls launched work on; else its process's or file's only one. */
    private Map<List<Long>, Integer> threadRanks(Map<Device, Integer> ranks) {
        Map<List<Long>, Integer> launched = new HashMap<>();
        Map<Process, TreeSet<Integer>> processRanks = new HashMap<>();
        Map<Integer, TreeSet<Integer>> fileRanks = new HashMap<>();
        for (DeviceBar b : device) {
            int rank = ranks.get(b.device());
            if (b.correlation() >= 0) launched.put(key(b.process(), b.correlation()), rank);
            processRanks.computeIfAbsent(b.process(), p -> new TreeSet<>()).add(rank);
            fileRanks.computeIfAbsent(b.process().file(), f -> new TreeSet<>()).add(rank);
        }
        Map<List<Long>, Map<Integer, Integer>> votes = new HashMap<>();
        Map<List<Long>, Process> processes = new LinkedHashMap<>();
        for (HostBar h : host) {
            processes.putIfAbsent(threadKey(h), h.process());
            Integer rank = launched.get(key(h.process(), h.correlation()));
            if (rank != null) votes.computeIfAbsent(threadKey(h), k -> new TreeMap<>()).merge(rank, 1, Integer::sum);
        }
        Map<List<Long>, Integer> threadRanks = new HashMap<>();
        processes.forEach((thread, process) -> {
            Map<Integer, Integer> v = votes.get(thread);
            TreeSet<Integer> own = processRanks.getOrDefault(process, fileRanks.getOrDefault(process.file(), new TreeSet<>()));
            if (v != null) threadRanks.put(thread, v.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey());
            else if (own.size() == 1) threadRanks.put(thread, own.first());
        });
        return threadRanks;
    }

    /** A thread across files: Nsight's ids are unique within one export only. */
    private static List<Long> threadKey(HostBar h) {
        return List.of((long) h.process().file(), h.thread());
    }

    private static List<Long> key(Process p, long correlation) {
        return List.of((long) p.file(), p.process(), correlation);
    }

    private Map<HostBar, TimelineEvent> hostEvents(Map<List<Long>, Integer> threadRanks, long origin,
                                                   Map<Integer, Map<Integer, String>> rowNames) {
        Map<HostBar, TimelineEvent> events = new IdentityHashMap<>();
        Map<List<Long>, Integer> rows = new HashMap<>();
        int dropped = 0;
        for (HostBar h : host) {
            Integer rank = threadRanks.get(threadKey(h));
            if (rank == null) {
                dropped++;
                continue;
            }
            Map<Integer, String> names = rowNames.computeIfAbsent(rank, r -> new TreeMap<>());
            int row = rows.computeIfAbsent(threadKey(h), k -> -1 - (int) names.keySet().stream().filter(s -> s < 0).count());
            names.putIfAbsent(row, "host thread " + (h.thread() & 0xFFFFFF));
            events.put(h, new TimelineEvent(rank, row, EventKind.HOST, h.name(), -1, -1, h.start() - origin,
                    h.end() - origin, 0, 0, -1, 0));
        }
        if (dropped > 0) notes.add(dropped + " host calls of threads that launched no GPU work of a known rank were left out");
        return events;
    }

    private List<Launch> launches(Map<DeviceBar, TimelineEvent> deviceEvents, Map<HostBar, TimelineEvent> hostEvents) {
        Map<List<Long>, TimelineEvent> calls = new HashMap<>();
        for (HostBar h : host) {
            if (h.correlation() >= 0 && hostEvents.containsKey(h)) calls.put(key(h.process(), h.correlation()), hostEvents.get(h));
        }
        List<Launch> launches = new ArrayList<>();
        for (DeviceBar b : device) {
            TimelineEvent call = b.correlation() >= 0 ? calls.get(key(b.process(), b.correlation())) : null;
            if (call != null) launches.add(new Launch(call, deviceEvents.get(b)));
        }
        return launches;
    }

    /** The waits the export states: see the class comment. */
    private List<StreamWait> streamWaits(Map<DeviceBar, TimelineEvent> events) {
        WaitPairing pairing = new WaitPairing();
        for (DeviceBar b : device) pairing.bar(b.process(), b.stream(), b.correlation(), events.get(b));
        Map<List<Object>, TreeMap<Long, Record>> recordsOf = new HashMap<>();
        for (Record r : records) {
            recordsOf.computeIfAbsent(List.of(r.process(), r.eventId()), k -> new TreeMap<>()).put(r.correlation(), r);
        }
        List<WaitPairing.Stated> stated = new ArrayList<>();
        for (Wait w : waits) {
            var recorded = recordsOf.getOrDefault(List.of(w.process(), w.eventId()), new TreeMap<>()).lowerEntry(w.correlation());
            long recordStream = recorded == null ? w.stream() : recorded.getValue().stream();
            long recordCorrelation = recorded == null ? -1 : recorded.getKey();
            stated.add(new WaitPairing.Stated(w.process(), recordStream, recordCorrelation, w.stream(), w.correlation()));
        }
        List<StreamWait> found = pairing.pair(stated);
        if (pairing.note() != null) notes.add(pairing.note());
        return found;
    }

    /** What the reader had to work around. */
    public List<String> notes() { return List.copyOf(notes); }
}
