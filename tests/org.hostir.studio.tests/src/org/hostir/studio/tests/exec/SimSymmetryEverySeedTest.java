package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

/**
 * Issue 38: the symmetric shortcut ({@code exec.sim.Symmetry}, {@code RankShift}) against the plain simulation on
 * every seed of {@code examples/seeds} (and the P2P seeds' rank-relative schedules) at D = 2, 3, 4, 5, 8, 16 on
 * {@code h200x8-nvlink} (one node up to 8: a period of 1; two nodes at 16: a period of 8) and at D = 9 on nodes of
 * 3 (a period of 3). The reference is the
 * simulation with no symmetry and no lockstep (every rank walked first, then simulated: window 0), and the per-rank
 * spans are read here from each run's timeline bars (every rank traced), not from the simulator's own figures.
 * Where the shortcut is not taken, the reference itself must show why none could be: a rank whose span is not that
 * of its representative (so a symmetric program is never left to the full simulation unnoticed).
 */
class SimSymmetryEverySeedTest {
    private static final String PROFILE = "h200x8-nvlink";
    private static final List<Integer> DEVICES = List.of(2, 4, 8, 16);
    /**
     * Odd rank counts: 3 and 5 on one node of {@code h200x8-nvlink} (a period of 1), and 9 on nodes of 3 GPUs (the
     * same profile with {@code gpusPerNode} 3: a period of 3 across three nodes).
     */
    private static final List<Integer> ODD = List.of(3, 5, 9);
    /** The all-pairs P2P order (the P2P seeds as written): rank r's i-th exchange is with rank i, not r + i. */
    private static final List<String> ALL_PAIRS = List.of("ag_matmul_p2p", "allgather_p2p");
    /** Seeds whose programs are not those of rank 0 shifted: the plain all-pairs P2P order and a root-0 pipeline. */
    private static final List<String> NOT_SYMMETRIC = List.of("ag_matmul_p2p", "allgather_p2p",
            "scatter_two_stages");
    /** The P2P seeds' schedules whose peers are relative to the rank (nvFuser's offsetStreamIndexingByRank). */
    private static final List<Map<String, String>> RELATIVE_P2P = List.of(
            Map.of("offsetStreamIndexingByRank", "true"),
            Map.of("agGemmSchedule", "ringForwarded"),
            Map.of("offsetStreamIndexingByRank", "true", "backend", "cuda"));

    @Test
    void everySeedShortcutEqualsThePlainSimulation() throws Exception {
        List<String> seeds;
        try (Stream<Path> files = Files.list(RepoPaths.repo().resolve("examples/seeds"))) {
            seeds = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".fusion"))
                    .map(n -> n.substring(0, n.length() - ".fusion".length())).sorted().toList();
        }
        assertTrue(seeds.size() >= 13, "seeds: " + seeds);
        int compared = 0;
        List<Integer> every = new ArrayList<>(DEVICES);
        every.addAll(ODD);
        for (String seed : seeds) {
            for (int d : every) {
                if (seed.equals("scatter_two_stages") && d < 4) continue; // needs 4 devices (refused at 2 and 3)
                compare(seed, d, Map.of(), !NOT_SYMMETRIC.contains(seed));
                compared++;
            }
        }
        for (String seed : ALL_PAIRS) {
            for (Map<String, String> options : RELATIVE_P2P) {
                for (int d : every) {
                    compare(seed, d, options, true);
                    compared++;
                }
            }
        }
        assertEquals(seeds.size() * every.size() - 2 + 2 * RELATIVE_P2P.size() * every.size(), compared);
    }

    /**
     * Issue 38: why the all-pairs order gets no reduction by classes of ranks either. Under no relabelling of the
     * ranks is its program the same (every rank visits peers 0, 1, ..., D-1 in that absolute order, so a relabelling
     * that keeps it fixes every rank), and ranks that are not each other's relabelling could still share their
     * timings (a class simulated once); the plain simulation shows that none do: at every rank count tried, no two
     * ranks have the same bars (stream, kind, start, end, bytes), so each rank is a class of its own.
     */
    @Test
    void allPairsRanksShareNoTimings() throws Exception {
        for (String seed : ALL_PAIRS) {
            for (int d : List.of(2, 3, 4, 5, 8, 9, 16)) {
                LoadedFusion loaded = Runs.load("seeds/" + seed, d, Map.of());
                RunConfig config = Runs.config(loaded, d, Map.of());
                RunResult plain = SimRun.run(Runs.programs(loaded.fusion(), d, SeedGeneration.DEFAULTS), config,
                        new SimBackend(d, profile(d), false, r -> true), l -> { }, false);
                Map<Integer, List<String>> work = work(plain, d);
                assertEquals(d, new java.util.HashSet<>(work.values()).size(), seed + " D=" + d + ": " + work);
            }
        }
    }

    /** {@code h200x8-nvlink}, on nodes of 3 GPUs at 9 ranks (an odd period). */
    private static HardwareProfile profile(int devices) throws Exception {
        HardwareProfile p = ProfileFiles.builtIn(PROFILE);
        if (devices != 9) return p;
        return new HardwareProfile(p.name(), p.description(), p.source(), 3, p.gemm(), p.nvlink(), p.network(),
                p.copyEngine(), p.contention(), p.dispatch(), p.ncclP2p());
    }

    /**
     * The matching tables hold only what is still unmatched: after a run that completed, no collective (matmul_ar,
     * allgather) and no transfer (all-pairs and ring P2P), both with the shortcut and simulating every rank.
     */
    @Test
    void matchedCollectivesAndTransfersAreDropped() throws Exception {
        for (String seed : List.of("matmul_ar", "allgather", "allgather_p2p", "ag_matmul_p2p")) {
            for (boolean symmetric : List.of(true, false)) {
                LoadedFusion loaded = Runs.load("seeds/" + seed, 16, Map.of());
                RunConfig config = Runs.config(loaded, 16, Map.of());
                SimBackend backend = new SimBackend(16, ProfileFiles.builtIn(PROFILE), false, r -> r < 2);
                SimRun.run(Runs.programs(loaded.fusion(), 16, SeedGeneration.DEFAULTS), config, backend, l -> { },
                        symmetric);
                assertEquals(0, backend.openMatches(), seed + (symmetric ? " shortcut" : " every rank"));
            }
        }
    }

    /** Issue 38: the symmetry's own reason reaches the console only when asked for ({@value SimRun#DEBUG}). */
    @Test
    void theSymmetrysReasonIsSaidOnlyWhenAskedFor() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", 16, Map.of());
        RunConfig config = Runs.config(loaded, 16, Map.of());
        Map<Integer, HostIrContainer> programs = Runs.programs(loaded.fusion(), 16, SeedGeneration.DEFAULTS);
        List<List<String>> said = new ArrayList<>();
        for (String debug : List.of("false", "true")) {
            System.setProperty(SimRun.DEBUG, debug);
            try {
                List<String> lines = new ArrayList<>();
                SimRun.run(programs, config, new SimBackend(16, ProfileFiles.builtIn(PROFILE), false, r -> r < 2),
                        lines::add, true);
                said.add(lines);
            } finally {
                System.clearProperty(SimRun.DEBUG);
            }
        }
        assertTrue(said.get(0).stream().noneMatch(l -> l.contains("'s op ")), said.get(0).toString());
        assertTrue(said.get(0).stream().noneMatch(l -> l.toLowerCase(java.util.Locale.ROOT).contains("error")),
                said.get(0).toString());
        assertEquals(said.get(0).size() + 1, said.get(1).size(), said.toString());
        assertEquals("  (the symmetry's check: rank 8's op 0 is not rank 0's shifted by 8 (recv 0, send 0 vs copy))",
                said.get(1).get(1), said.toString());
    }

    private static void compare(String seed, int devices, Map<String, String> options, boolean symmetric)
            throws Exception {
        LoadedFusion loaded = Runs.load("seeds/" + seed, devices, Map.of());
        RunConfig config = Runs.config(loaded, devices, options);
        Map<Integer, HostIrContainer> programs = Runs.programs(loaded.fusion(), devices,
                SeedGeneration.options(options));
        HardwareProfile profile = profile(devices);
        boolean copyEngine = "cuda".equals(options.get("backend"));
        RunResult plain;
        System.setProperty(SimRun.WINDOW, "0");
        try {
            plain = SimRun.run(programs, config, new SimBackend(devices, profile, copyEngine, r -> true), l -> { },
                    false);
        } finally {
            System.clearProperty(SimRun.WINDOW);
        }
        List<String> said = new ArrayList<>();
        RunResult shortcut = SimRun.run(programs, config, new SimBackend(devices, profile, copyEngine, r -> true),
                said::add, true);
        String what = seed + " " + options + " D=" + devices + ": " + said;
        Map<Integer, Long> spans = spans(plain, devices);
        assertEquals(devices, spans.size(), what);
        assertEquals(spans, spans(shortcut, devices), what);
        assertEquals(plain.medianMillis(), shortcut.medianMillis(), what);
        long last = spans.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertEquals(plain.medianMillis(), last / 1e6, 1e-6, what); // the makespan: the latest bar's end (whole ns)
        assertEquals(plain.peakBytes(), shortcut.peakBytes(), what);
        int period = devices <= profile.gpusPerNode() ? 1 : profile.gpusPerNode();
        boolean taken = said.getLast().contains("simulated for all");
        assertEquals(symmetric, taken, what);
        Map<Integer, List<String>> work = work(plain, devices);
        assertEquals(work, work(shortcut, devices), what);
        if (!taken) {
            assertNotEquals(periodic(work, period), work, what + ": every rank's work is its representative's at the"
                    + " same times, so the programs may be symmetric after all");
        }
    }

    /**
     * Each rank's span: the latest end of its bars, host and device, in nanoseconds from the run's start (0 for a rank
     * with nothing to do: outside every mesh).
     */
    private static Map<Integer, Long> spans(RunResult r, int devices) {
        Map<Integer, Long> out = new TreeMap<>();
        for (int rank = 0; rank < devices; rank++) out.put(rank, 0L);
        for (TimelineEvent e : r.timeline().events()) out.merge(e.rank(), e.endNs(), Math::max);
        return out;
    }

    /**
     * Each rank's bars without the ranks they name (stream, kind, times, bytes, sorted): what a shortcut gives every
     * rank of a class alike (with the peers shifted).
     */
    private static Map<Integer, List<String>> work(RunResult r, int devices) {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (int rank = 0; rank < devices; rank++) out.put(rank, new ArrayList<>());
        for (TimelineEvent e : r.timeline().events()) {
            out.get(e.rank()).add(e.stream() + " " + e.kind() + " " + e.startNs()
                    + "-" + e.endNs() + " " + e.bytes());
        }
        out.values().forEach(java.util.Collections::sort);
        return out;
    }

    /** What a shortcut would give: each rank its representative's (rank mod period). */
    private static <T> Map<Integer, T> periodic(Map<Integer, T> each, int period) {
        Map<Integer, T> out = new TreeMap<>();
        each.keySet().forEach(r -> out.put(r, each.get(r % period)));
        return out;
    }
}
