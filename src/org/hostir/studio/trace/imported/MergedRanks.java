package org.hostir.studio.trace.imported;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.google.gson.JsonObject;

/**
 * The ranks of a PyTorch profile that holds several ranks in one file (merged from the per-rank files, as
 * multi-rank viewers and merge scripts do, keeping each process's {@code pid}). Kineto writes a GPU's work under
 * the device index as {@code pid}, so each GPU {@code pid}, in numeric order, is a rank; a host process belongs
 * to the rank whose GPU ran its launches. Correlation ids are per process and so repeat across ranks: a launch
 * votes for the GPU bar of its correlation id that began soonest after the call did (work cannot start before
 * its launch), and a process takes the rank most of its launches voted for. Ranks that each saw their GPU as
 * device 0 (one GPU visible per process) share GPU {@code pid} 0 and cannot be told apart in one file: such a
 * run is read from its per-rank files.
 */
final class MergedRanks {
    private static final Set<String> GPU = Set.of("kernel", "gpu_memcpy", "gpu_memset");
    private static final Set<String> LAUNCH = Set.of("cuda_runtime", "cuda_driver");

    private record GpuBar(String pid, long start) {
    }

    private MergedRanks() {
    }

    /** Each {@code pid}'s rank (GPU and host processes alike), or null for a file of one rank. */
    static Map<String, Integer> of(List<JsonObject> events) {
        TreeSet<String> gpuPids = new TreeSet<>(Comparator.comparingLong(MergedRanks::numeric).thenComparing(p -> p));
        Map<Long, List<GpuBar>> byCorrelation = new HashMap<>();
        for (JsonObject e : events) {
            if (!"X".equals(TraceEvents.string(e, "ph")) || !GPU.contains(category(e))) continue;
            gpuPids.add(pid(e));
            long c = TraceEvents.integer(TraceEvents.args(e), "correlation", -1);
            Long ts = TraceEvents.nanos(e, "ts");
            if (c >= 0 && ts != null) byCorrelation.computeIfAbsent(c, k -> new ArrayList<>()).add(new GpuBar(pid(e), ts));
        }
        if (gpuPids.size() < 2) return null;
        Map<String, Integer> ranks = new HashMap<>();
        for (String p : gpuPids) ranks.put(p, ranks.size());
        Map<String, Map<Integer, Integer>> votes = new HashMap<>();
        for (JsonObject e : events) {
            long c = TraceEvents.integer(TraceEvents.args(e), "correlation", -1);
            Long ts = TraceEvents.nanos(e, "ts");
            if (!"X".equals(TraceEvents.string(e, "ph")) || !LAUNCH.contains(category(e)) || c < 0 || ts == null) continue;
            byCorrelation.getOrDefault(c, List.of()).stream().filter(b -> b.start() >= ts)
                    .min(Comparator.comparingLong(GpuBar::start))
                    .ifPresent(b -> votes.computeIfAbsent(pid(e), k -> new TreeMap<>()).merge(ranks.get(b.pid()), 1, Integer::sum));
        }
        votes.forEach((pid, v) -> ranks.putIfAbsent(pid,
                v.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey()));
        return ranks;
    }

    /** An event's rank, or -1 for a process that launched nothing on a GPU of the file. */
    static int rank(JsonObject e, Map<String, Integer> ranks) {
        return ranks.getOrDefault(pid(e), -1);
    }

    private static String pid(JsonObject e) {
        return String.valueOf(e.get("pid"));
    }

    private static String category(JsonObject e) {
        String cat = TraceEvents.string(e, "cat");
        return cat == null ? "" : cat.toLowerCase(Locale.ROOT);
    }

    private static long numeric(String pid) {
        try {
            return Long.parseLong(pid.replace("\"", ""));
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
