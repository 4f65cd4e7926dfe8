package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.hostir.studio.lower.CudaBackendOptions;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

/**
 * The simulator's model of the CUDA backend's options (docs/simulation.md, "The CUDA backend's options"): the P2P
 * transport (copy engine or TMA), the P2P protocol (Get or Put: equal cost), the multicast protocols of Broadcast
 * and Allgather, and the NVLS Allreduce; bars checked against the documented formulas on round constants, and
 * orderings on a built-in profile.
 */
class SimCudaOptionsTest {
    private static final double NV_ALPHA = 10, NV_BW = 100, CE_ALPHA = 4, CE_BW = 200, LAUNCH = 2, MEM_BW = 1000;

    private static Map<String, String> options(String... pairs) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put(pairs[i], pairs[i + 1]);
        return m;
    }

    private static RunResult simulate(String example, int devices, Map<String, Long> symbols,
                                      Map<String, String> options, HardwareProfile p) throws Exception {
        return simulate(Runs.load(example, devices, symbols), devices, options, p);
    }

    /** seeds/allgather with its output in symmetric memory, as nvFuser's CUDA-backend Allgather needs it. */
    private static LoadedFusion symmetricAllgather(int devices, long s) throws Exception {
        return Runs.loadText("seeds/allgather", devices, "{\"name\": \"tv1\", \"dtype\": \"float\",",
                "{\"name\": \"tv1\", \"dtype\": \"float\", \"memory\": \"symmetric\",", Map.of("S", s));
    }

    private static RunResult simulate(LoadedFusion loaded, int devices, Map<String, String> options,
                                      HardwareProfile p) throws Exception {
        RunConfig config = Runs.config(loaded, devices, options);
        LoweringOptions lowering = SeedGeneration.options(options);
        SimBackend backend = new SimBackend(devices, p, CudaBackendOptions.of(lowering), r -> true);
        return SimRun.run(Runs.programs(loaded.fusion(), devices, lowering), config, backend, line -> { });
    }

    private static List<TimelineEvent> bars(RunResult r, EventKind kind) {
        return r.timeline().events().stream().filter(e -> e.kind() == kind).toList();
    }

    private static double us(TimelineEvent e) { return e.durationNs() / 1000.0; }

    @Test
    void copyEngineAndTmaTransports() throws Exception {
        Map<String, Long> shape = Map.of("M", 500L, "K", 500L, "N", 8L);
        for (String transport : List.of("CopyEngine", "Tma")) {
            RunResult r = simulate("seeds/ag_matmul_p2p", 2, shape, options("backend", "cuda",
                    "offsetStreamIndexingByRank", "true", "p2pTransport", transport),
                    SimCostModelTest.profile(8, 0, Map.of()));
            List<TimelineEvent> p2p = bars(r, EventKind.P2P);
            assertEquals(4, p2p.size(), transport);
            for (TimelineEvent e : p2p) {
                double expected = transport.equals("Tma") ? LAUNCH + NV_ALPHA + e.bytes() / (NV_BW * 1e3)
                        : CE_ALPHA + e.bytes() / (CE_BW * 1e3);
                assertEquals(expected, us(e), 0.002, transport + " " + e.name());
            }
        }
    }

    /** Get and Put post the same transfer in another order: the same bars and span (no figure tells them apart). */
    @Test
    void getAndPutCostTheSame() throws Exception {
        Map<String, RunResult> runs = new HashMap<>();
        for (String protocol : List.of("get", "put")) {
            runs.put(protocol, simulate("parallelism/matmul_rs_p2p", 4, Map.of(), options("backend", "cuda",
                    "offsetStreamIndexingByRank", "true", "p2pProtocol", protocol),
                    SimCostModelTest.profile(8, 0, Map.of())));
        }
        List<TimelineEvent> get = bars(runs.get("get"), EventKind.P2P);
        List<TimelineEvent> put = bars(runs.get("put"), EventKind.P2P);
        assertTrue(!get.isEmpty());
        assertEquals(get.size(), put.size());
        for (int i = 0; i < get.size(); i++) assertEquals(us(get.get(i)), us(put.get(i)), 1e-9, get.get(i).name());
        assertEquals(runs.get("get").medianMillis(), runs.get("put").medianMillis(), 1e-12);
    }

    /**
     * A multicast Allgather: two semaphore latencies, then (n-1)/n of the gathered bytes into each GPU once, at the
     * copy engine's rate (memcpy) or after a launch at NVLink's (multimem).
     */
    @Test
    void multicastAllgather() throws Exception {
        for (String protocol : List.of("memcpy", "multimem")) {
            RunResult r = simulate(symmetricAllgather(4, 4), 4, options("backend", "cuda", "allgather",
                    "collective", "multicastProtocol", protocol), SimCostModelTest.profile(4, 0, Map.of()));
            List<TimelineEvent> ag = bars(r, EventKind.COMMUNICATION);
            assertTrue(!ag.isEmpty(), protocol);
            for (TimelineEvent e : ag) {
                double inbound = 0.75 * e.bytes();
                double expected = 2 * NV_ALPHA + (protocol.equals("memcpy") ? inbound / (CE_BW * 1e3)
                        : LAUNCH + inbound / (NV_BW * 1e3));
                assertEquals(expected, us(e), 0.002, protocol + " " + e.name());
            }
        }
    }

    /** The NVLS Allreduce (#6038): a copy into the symmetric buffer, two semaphore latencies, a launch, one read. */
    @Test
    void nvlsAllreduce() throws Exception {
        RunResult r = simulate("seeds/allreduce", 4, Map.of(), options("backend", "cuda", "multicastProtocol",
                "multimem"), SimCostModelTest.profile(4, 0, Map.of()));
        List<TimelineEvent> ar = bars(r, EventKind.COMMUNICATION);
        assertTrue(!ar.isEmpty());
        for (TimelineEvent e : ar) {
            double copy = LAUNCH + 2 * e.bytes() / (MEM_BW * 1e3);
            assertEquals(copy + 2 * NV_ALPHA + LAUNCH + e.bytes() / (NV_BW * 1e3), us(e), 0.002, e.name());
        }
    }

    /**
     * On an 8 x H200 NVLink node a large NVLS Allreduce beats NCCL's ring (one read of the sum per GPU against
     * 2 (n-1)/n of the buffer), and a small multicast Allgather beats the ring's n-1 latencies.
     */
    @Test
    void multicastBeatsTheRingWhereNvlsShould() throws Exception {
        HardwareProfile h200 = ProfileFiles.builtIn("h200x8-nvlink");
        Map<String, Long> large = Map.of("S", 4L, "M", 8L << 20);
        double ring = comm(simulate("seeds/allreduce", 8, large, options(), h200));
        double nvls = comm(simulate("seeds/allreduce", 8, large, options("backend", "cuda", "multicastProtocol",
                "multimem"), h200));
        assertTrue(nvls < ring, "NVLS " + nvls + " us, ring " + ring + " us");
        double ringAg = comm(simulate(symmetricAllgather(8, 8), 8, options("allgather", "collective"), h200));
        double mcAg = comm(simulate(symmetricAllgather(8, 8), 8, options("allgather", "collective", "backend", "cuda",
                "multicastProtocol", "multimem"), h200));
        assertTrue(mcAg < ringAg, "multicast " + mcAg + " us, ring " + ringAg + " us");
    }

    /** The longest communication bar of a run, in microseconds. */
    private static double comm(RunResult r) {
        return bars(r, EventKind.COMMUNICATION).stream().mapToDouble(SimCudaOptionsTest::us).max().orElseThrow();
    }
}
