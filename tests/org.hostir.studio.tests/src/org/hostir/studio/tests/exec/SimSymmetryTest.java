package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.trace.OverlapFigures;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

/**
 * Ranks simulated once for many (docs/simulation.md, "Scale"): where every rank's work is its representative's
 * shifted by a multiple of the period (8 on 8-GPU nodes, 1 on one node), simulating the representatives gives the
 * same span, every traced rank's bars (times, bytes, peers and flows) and peak memory as simulating every rank;
 * where it is not (P2P without offset: every rank walks peers 0..D-1 in one order) the check finds it and every
 * rank is simulated.
 */
class SimSymmetryTest {
    private record Case(String seed, int devices, String profile, Map<String, String> options, boolean symmetric) {}

    private static final List<Case> CASES = List.of(
            new Case("seeds/ag_matmul", 64, "h200x8-nvlink", Map.of(), true),
            new Case("seeds/matmul_ar", 64, "h200x8-nvlink", Map.of(), true),
            new Case("seeds/matmul_rs_through_bcast", 64, "h100-ib-cluster", Map.of(), true),
            new Case("seeds/ag_matmul_p2p", 64, "h200x8-nvlink", Map.of("offsetStreamIndexingByRank", "true"), true),
            new Case("seeds/ag_matmul_p2p", 64, "h100-ib-cluster", Map.of("offsetStreamIndexingByRank", "true",
                    "backend", "cuda"), true),
            new Case("seeds/ag_matmul_p2p", 8, "h200x8-nvlink", Map.of("offsetStreamIndexingByRank", "true"), true),
            new Case("seeds/ag_matmul_p2p", 64, "h200x8-nvlink", Map.of(), false),
            new Case("seeds/ag_matmul", 72, "h200x8-nvlink", Map.of(), true),
            new Case("seeds/ag_matmul", 12, "h200x8-nvlink", Map.of(), false)); // 12 is no multiple of 8

    @Test
    void theRepresentativesGiveEveryRanksFigures() throws Exception {
        for (Case c : CASES) {
            LoadedFusion loaded = Runs.load(c.seed(), c.devices(), Map.of("M", 512L, "K", 1024L, "N", 2048L));
            RunConfig config = Runs.config(loaded, c.devices(), c.options());
            Map<Integer, HostIrContainer> programs = Runs.programs(loaded.fusion(), c.devices(),
                    SeedGeneration.options(c.options()));
            List<String> said = new ArrayList<>();
            RunResult every = SimRun.run(programs, config, backend(c, config), line -> { }, false);
            RunResult once = SimRun.run(programs, config, backend(c, config), said::add, true);
            String what = c + ": " + said;
            assertEquals(c.symmetric(), said.getLast().contains("simulated for all " + c.devices()), what);
            // issue 35: the console says it in the user's terms, not "rank 8's op 0 is not rank 0's shifted by 8"
            assertTrue(said.stream().noneMatch(l -> l.contains("'s op ")), what);
            assertEquals(every.medianMillis(), once.medianMillis(), what);
            assertEquals(every.peakBytes(), once.peakBytes(), what);
            assertEquals(bars(every), bars(once), what);
            assertEquals(OverlapFigures.of(every.timeline()).toString(), OverlapFigures.of(once.timeline()).toString(), what);
            assertTrue(every.timeline().events().stream().map(TimelineEvent::rank).distinct().count()
                    == c.devices() || c.devices() > 64, what); // every rank's bars compared, up to 64 ranks
        }
    }

    private static SimBackend backend(Case c, RunConfig config) throws Exception {
        HardwareProfile profile = ProfileFiles.builtIn(c.profile());
        return new SimBackend(c.devices(), profile, "cuda".equals(c.options().get("backend")),
                r -> r < 64 || r >= c.devices() - 4);
    }

    /**
     * Every bar in a canonical order, its flow (numbered differently by the two simulations) written as the bar at
     * its other end: a flow joins exactly two bars.
     */
    private static List<String> bars(RunResult r) {
        Map<Long, List<TimelineEvent>> flows = new HashMap<>();
        for (TimelineEvent e : r.timeline().events()) {
            if (e.flowId() != 0) flows.computeIfAbsent(e.flowId(), f -> new ArrayList<>()).add(e);
        }
        flows.values().forEach(ends -> assertEquals(2, ends.size(), "bars of one flow: " + ends));
        return r.timeline().events().stream().map(e -> {
            String partner = e.flowId() == 0 ? "-" : flows.get(e.flowId()).stream().filter(o -> o != e)
                    .map(o -> o.rank() + "/" + o.stream() + "/" + o.name() + "@" + o.startNs()).findFirst()
                    .orElseThrow();
            return List.of(e.rank(), e.stream(), e.kind(), e.name(), e.nodeId(), e.iteration(), e.startNs(),
                    e.endNs(), e.bytes(), e.flops(), e.peer()) + " flow to " + partner;
        }).sorted().toList();
    }
}
