package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.PeerCounts;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

/**
 * Issue 38 item 4: the all-pairs P2P schedule (seeds {@code ag_matmul_p2p} and {@code allgather_p2p} as written) held
 * about D^2 / 2 ops in flight at once, simulated rank by rank: each rank's host issued its D iterations while its
 * first exchange waited for a partner's. A rank whose every stream waits for its own unfinished work is now parked
 * until one of those ops is done ({@code RankLockstep}): the ops in flight grow with D, and every bar is the plain
 * simulation's (every rank walked first, then simulated), on NCCL and on the copy engines.
 */
class SimParkingTest {
    private static final int DEVICES = 128;
    /** A rank parks with this many ops in flight ({@link SimRun#PARK_AT_OPS}; 64 by default, as many as D here). */
    private static final int PARK_AT = 16;
    /** Ops in flight allowed a rank: those it parks with and a node's, independent of D (the plain run: ~D / 2). */
    private static final int PER_RANK = PARK_AT + 8;

    @Test
    void allPairsHoldsOpsLinearInTheRanksWithThePlainBars() throws Exception {
        for (String seed : List.of("ag_matmul_p2p", "allgather_p2p")) {
            for (Map<String, String> options : List.of(Map.<String, String>of(), Map.of("backend", "cuda"))) {
                compare(seed, options);
            }
        }
    }

    /** The counts of transfers by peer, a byte each until one passes 255: every count as an int would give. */
    @Test
    void peerCountsCountAsIntsPastAByte() {
        PeerCounts counts = new PeerCounts(3);
        int[] expected = new int[3];
        for (int i = 0; i < 700; i++) {
            int peer = i % 7 == 0 ? 2 : i % 2;
            assertEquals(expected[peer]++, counts.next(peer), "call " + i + " for peer " + peer);
        }
    }

    private static void compare(String seed, Map<String, String> options) throws Exception {
        LoadedFusion loaded = Runs.load("seeds/" + seed, DEVICES, Map.of());
        RunConfig config = Runs.config(loaded, DEVICES, options);
        Map<Integer, HostIrContainer> programs = Runs.programs(loaded.fusion(), DEVICES,
                SeedGeneration.options(options));
        HardwareProfile profile = ProfileFiles.builtIn("h200x8-nvlink");
        boolean copyEngine = "cuda".equals(options.get("backend"));
        String what = seed + " " + options + " D=" + DEVICES;
        SimBackend plainBackend = new SimBackend(DEVICES, profile, copyEngine, r -> true);
        RunResult plain = withProperty(SimRun.WINDOW, "0", () -> SimRun.run(programs, config, plainBackend, l -> { },
                false));
        SimBackend unparked = new SimBackend(DEVICES, profile, copyEngine, r -> true);
        withProperty(SimRun.NO_PARKING, "true", () -> SimRun.run(programs, config, unparked, l -> { }, false));
        SimBackend parked = new SimBackend(DEVICES, profile, copyEngine, r -> true);
        RunResult run = withProperty(SimRun.PARK_AT_OPS, Integer.toString(PARK_AT), () -> SimRun.run(programs, config,
                parked, l -> { }, false));
        assertEquals(plain.medianMillis(), run.medianMillis(), what);
        assertEquals(plain.peakBytes(), run.peakBytes(), what);
        assertEquals(bars(plain), bars(run), what);
        System.out.println(what + ": ops in flight at most " + plainBackend.peakOpsInFlight() + " walked first, "
                + unparked.peakOpsInFlight() + " in step, " + parked.peakOpsInFlight() + " parked");
        assertTrue(unparked.peakOpsInFlight() > (long) DEVICES * DEVICES / 4, what + ": the unparked run held "
                + unparked.peakOpsInFlight() + ": the schedule no longer holds D^2, so this test shows nothing");
        assertTrue(parked.peakOpsInFlight() <= (long) PER_RANK * DEVICES, what + ": " + parked.peakOpsInFlight()
                + " ops in flight at once, over " + PER_RANK + " a rank");
    }

    /** Every bar but its flow's number (which follows the order transfers are posted, not their times). */
    private static List<String> bars(RunResult r) {
        List<String> out = new ArrayList<>();
        for (TimelineEvent e : r.timeline().events()) {
            out.add(e.rank() + " " + e.stream() + " " + e.kind() + " " + e.name() + " " + e.nodeId() + " "
                    + e.iteration() + " " + e.startNs() + "-" + e.endNs() + " " + e.bytes() + " " + e.peer());
        }
        Collections.sort(out);
        return out;
    }

    private interface Run<T> {
        T run() throws Exception;
    }

    private static <T> T withProperty(String key, String value, Run<T> run) throws Exception {
        System.setProperty(key, value);
        try {
            return run.run();
        } finally {
            System.clearProperty(key);
        }
    }
}
