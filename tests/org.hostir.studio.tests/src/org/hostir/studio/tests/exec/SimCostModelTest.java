package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.CollectivePriority;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

/**
 * The cost models end to end: programs lowered from the examples, simulated on profiles with round constants, give
 * bars whose durations are the documented formulas (docs/simulation.md), computed here by hand.
 */
class SimCostModelTest {
    private static final double NV_ALPHA = 10, NV_BW = 100, NET_ALPHA = 50, NET_BW = 20, CE_ALPHA = 4, CE_BW = 200;

    static HardwareProfile profile(int gpusPerNode, double computeSlowdown, Map<String, Double> dispatch) {
        return new HardwareProfile("test", "round numbers", "this test", gpusPerNode,
                new HardwareProfile.Gemm(Map.of(DataType.FLOAT, 100.0, DataType.BFLOAT16, 400.0), 1000, 2,
                        List.of(new double[] {100, 0.25}, new double[] {1000, 0.5})),
                new HardwareProfile.Link(NV_ALPHA, NV_BW), new HardwareProfile.Link(NET_ALPHA, NET_BW),
                new HardwareProfile.Link(CE_ALPHA, CE_BW), new HardwareProfile.Contention(computeSlowdown, 0),
                new HardwareProfile.Dispatch(0, dispatch));
    }

    private static RunResult simulate(String example, int devices, Map<String, Long> symbols,
                                      Map<String, String> options, HardwareProfile p) throws Exception {
        LoadedFusion loaded = Runs.load(example, devices, symbols);
        RunConfig config = Runs.config(loaded, devices, options);
        SimBackend backend = new SimBackend(devices, p, "cuda".equals(options.get("backend")), r -> true);
        return SimRun.run(Runs.programs(loaded.fusion(), devices, SeedGeneration.options(options)), config, backend,
                line -> { });
    }

    private static double us(TimelineEvent e) { return e.durationNs() / 1000.0; }

    @Test
    void ringAllgatherWithinANodeAndAcrossNodes() throws Exception {
        Map<String, Long> big = Map.of("S", 4L);
        for (int gpusPerNode : new int[] {4, 2}) {
            RunResult r = simulate("seeds/allgather", 4, big, Map.of("allgather", "collective"),
                    profile(gpusPerNode, 0, Map.of()));
            double alpha = gpusPerNode == 4 ? NV_ALPHA : NET_ALPHA, bw = gpusPerNode == 4 ? NV_BW : NET_BW;
            List<TimelineEvent> ag = r.timeline().events().stream().filter(e -> e.kind() == EventKind.COMMUNICATION)
                    .toList();
            assertTrue(!ag.isEmpty());
            for (TimelineEvent e : ag) {
                double expected = 3 * alpha + 0.75 * e.bytes() / (bw * 1e3);
                assertEquals(expected, us(e), 0.002, e.name() + " on " + gpusPerNode + " GPUs per node");
            }
        }
    }

    @Test
    void gemmIsComputeOrMemoryBoundAtItsSizesEfficiency() throws Exception {
        // 1000 x 1000 x 1000 float: size 1000, efficiency 0.5 of 100 TF/s: 2e9 / 50e12 s = 40 us (+2 us launch);
        // memory: 12 MB at 1000 GB/s is 12 us, so compute bound
        RunResult r = simulate("seeds/ag_matmul_p2p", 1, Map.of("M", 1000L, "K", 1000L, "N", 1000L), Map.of(),
                profile(8, 0, Map.of()));
        TimelineEvent mm = r.timeline().events().stream().filter(e -> e.kind() == EventKind.MATMUL).findFirst()
                .orElseThrow();
        assertEquals(42.0, us(mm), 0.002);
        assertEquals(2_000_000_000L, mm.flops());
        // 100^3: efficiency 0.25: 2e6 / 25e12 = 0.08 us, memory 120 kB / 1000 GB/s = 0.12 us: memory bound
        r = simulate("seeds/ag_matmul_p2p", 1, Map.of("M", 100L, "K", 100L, "N", 100L), Map.of(), profile(8, 0, Map.of()));
        mm = r.timeline().events().stream().filter(e -> e.kind() == EventKind.MATMUL).findFirst().orElseThrow();
        assertEquals(2.12, us(mm), 0.002);
    }

    @Test
    void pointToPointOverNcclOrTheCopyEngines() throws Exception {
        Map<String, Long> shape = Map.of("M", 500L, "K", 500L, "N", 8L);
        for (String backend : List.of("nccl", "cuda")) {
            RunResult r = simulate("seeds/ag_matmul_p2p", 2, shape, Map.of("backend", backend,
                    "offsetStreamIndexingByRank", "true"), profile(8, 0, Map.of()));
            double alpha = backend.equals("nccl") ? NV_ALPHA : CE_ALPHA, bw = backend.equals("nccl") ? NV_BW : CE_BW;
            List<TimelineEvent> p2p = r.timeline().events().stream().filter(e -> e.kind() == EventKind.P2P).toList();
            assertEquals(4, p2p.size(), backend);
            for (TimelineEvent e : p2p) {
                // with no dispatch cost both ranks post their groups at once: the bar is the transfer itself
                assertEquals(alpha + e.bytes() / (bw * 1e3), us(e), 0.002, backend + " " + e.name());
            }
        }
    }

    /** A profile's own NCCL send/recv link (links.ncclP2p) times NCCL's point-to-point transfers within a node. */
    @Test
    void ncclSendRecvWithinANodeMovesAtItsOwnLink() throws Exception {
        HardwareProfile base = profile(8, 0, Map.of());
        HardwareProfile own = new HardwareProfile(base.name(), base.description(), base.source(), base.gpusPerNode(),
                base.gemm(), base.nvlink(), base.network(), base.copyEngine(), base.contention(), base.dispatch(),
                new HardwareProfile.Link(6, 50));
        RunResult r = simulate("seeds/ag_matmul_p2p", 2, Map.of("M", 500L, "K", 500L, "N", 8L),
                Map.of("offsetStreamIndexingByRank", "true"), own);
        List<TimelineEvent> p2p = r.timeline().events().stream().filter(e -> e.kind() == EventKind.P2P).toList();
        assertEquals(4, p2p.size());
        for (TimelineEvent e : p2p) assertEquals(6 + e.bytes() / (50 * 1e3), us(e), 0.002, e.name());
    }

    /**
     * NCCL runs a communicator's kernels in launch order whatever their streams (NVIDIA/nccl src/enqueue.cc,
     * ncclLaunchPrepare: the launch stream waits on the communicator's deviceStream): the collective pipeline's
     * Allgathers, all ready at once on four streams, run one after the other, not side by side.
     */
    @Test
    void ncclKernelsOfARankRunOneAfterTheOtherInLaunchOrder() throws Exception {
        RunResult r = simulate("seeds/ag_matmul", 2, Map.of("S", 4L, "M", 250L, "K", 500L, "N", 8L),
                Map.of("allgather", "collective", "numberOfStreams", "4"), profile(8, 0, Map.of()));
        List<TimelineEvent> gathers = r.timeline().of(0).stream().filter(e -> e.kind() == EventKind.COMMUNICATION)
                .sorted(Comparator.comparingLong(TimelineEvent::startNs)).toList();
        assertEquals(4, gathers.size());
        for (int i = 1; i < gathers.size(); i++) {
            assertTrue(gathers.get(i).startNs() >= gathers.get(i - 1).endNs(), gathers.get(i - 1) + " then "
                    + gathers.get(i));
            assertTrue(gathers.get(i).stream() != gathers.get(i - 1).stream(), "on other streams: " + gathers);
        }
    }

    /**
     * With backend=cuda an Allreduce or ReduceScatter of a sum runs on the copy engines, as the CUDA backend posts
     * it: a pull of the peer's slice (and for an Allreduce a second one of its reduced slice) plus the add kernel,
     * not NCCL's ring.
     */
    @Test
    void sumsOnTheCopyEnginesWithBackendCuda() throws Exception {
        for (String example : List.of("seeds/allreduce", "seeds/reduce_scatter")) {
            boolean allreduce = example.endsWith("allreduce");
            for (String backend : List.of("nccl", "cuda")) {
                RunResult r = simulate(example, 2, Map.of(), Map.of("backend", backend), profile(8, 0, Map.of()));
                List<TimelineEvent> comms = r.timeline().events().stream()
                        .filter(e -> e.kind() == EventKind.COMMUNICATION).toList();
                assertTrue(!comms.isEmpty(), example + " " + backend);
                for (TimelineEvent e : comms) {
                    double half = e.bytes() / 2.0;
                    double pull = CE_ALPHA + half / (CE_BW * 1e3), add = 2 + 3 * half / (1000 * 1e3);
                    double expected = backend.equals("cuda") ? (allreduce ? 2 * pull : pull) + add
                            : allreduce ? 2 * NV_ALPHA + e.bytes() / (NV_BW * 1e3) : NV_ALPHA + half / (NV_BW * 1e3);
                    assertEquals(expected, us(e), 0.002, example + " " + backend + " " + e.name());
                }
            }
        }
    }

    /**
     * A link's per-call latency (callUs) is paid once per collective and its alpha once per ring step, as NCCL's
     * latency model counts them (NVIDIA/nccl src/graph/tuning.cc: a base once per call plus nsteps x hwLatency, nsteps
     * n-1 for an Allgather, 2 (n-1) for an Allreduce): on 4 ranks an Allreduce of 10 MB pays 40 + 6 x 10 us, not
     * twice the Allgather's 40 + 3 x 10 us; with no callUs the figures are the per-step model's.
     */
    @Test
    void aCollectivePaysTheLinksPerCallLatencyOnceAndItsAlphaPerRingStep() throws Exception {
        HardwareProfile base = profile(8, 0, Map.of());
        for (double call : new double[] {0, 40}) {
            HardwareProfile p = new HardwareProfile(base.name(), base.description(), base.source(),
                    base.gpusPerNode(), base.gemm(), new HardwareProfile.Link(NV_ALPHA, NV_BW, call), base.network(),
                    base.copyEngine(), base.contention(), base.dispatch());
            List<TimelineEvent> reduces = comms(simulate("seeds/matmul_ar", 4,
                    Map.of("S", 2L, "M", 1000L, "K", 8L, "N", 2500L), Map.of(), p));
            assertEquals(2, reduces.size());
            for (TimelineEvent e : reduces) {
                assertEquals(10_000_000L, e.bytes());
                // ring: 6 steps and 2 x 3/4 of 10 MB at 100 GB/s (150 us); the tree's 4 steps and 200 us are slower
                assertEquals(call + 6 * NV_ALPHA + 150, us(e), 0.002, "Allreduce, callUs " + call);
            }
            List<TimelineEvent> gathers = comms(simulate("seeds/allgather", 4, Map.of("S", 4L),
                    Map.of("allgather", "collective"), p));
            assertTrue(!gathers.isEmpty());
            for (TimelineEvent e : gathers) {
                assertEquals(call + 3 * NV_ALPHA + 0.75 * e.bytes() / (NV_BW * 1e3), us(e), 0.002,
                        "Allgather, callUs " + call);
            }
        }
    }

    private static List<TimelineEvent> comms(RunResult r) {
        return r.timeline().of(0).stream().filter(e -> e.kind() == EventKind.COMMUNICATION).toList();
    }

    @Test
    void hostDispatchCostsTheProfilesTimePerNodeKind() throws Exception {
        RunResult r = simulate("seeds/ag_matmul_p2p", 2, Map.of(), Map.of(),
                profile(8, 0, Map.of("HostOp", 7.0, "EndCoalescing", 3.0)));
        List<TimelineEvent> host = r.timeline().of(0).stream().filter(e -> e.kind() == EventKind.HOST).toList();
        assertTrue(host.stream().anyMatch(e -> e.name().equals("dispatch HostOp")));
        for (TimelineEvent e : host) {
            double expected = switch (e.name()) {
                case "dispatch HostOp" -> 7;
                case "dispatch EndCoalescing" -> 3;
                default -> 0;
            };
            assertEquals(expected, us(e), 1e-9, e.name());
        }
    }

    @Test
    void aGemmOverlappingAnNcclKernelIsSlowedByTheContentionFactor() throws Exception {
        Map<String, Long> shape = Map.of("M", 1000L, "K", 1000L, "N", 1000L);
        Map<String, String> options = Map.of("offsetStreamIndexingByRank", "true", "forwardLocalShard", "true");
        RunResult slowed = simulate("seeds/ag_matmul_p2p", 2, shape, options, profile(8, 0.5, Map.of()));
        // the forwarded local GEMM (42 us alone) starts at once beside the NCCL transfer of 4 MB (10 + 40 us), at
        // 1/1.5 of its speed: 33.3 us of its work by 50 us; then the second GEMM starts and they share: the rest,
        // 8.7 us of work, takes twice as long
        TimelineEvent first = firstMatmul(slowed);
        assertEquals(0, first.startNs());
        assertEquals(50 + (42 - 50 / 1.5) * 2, first.endNs() / 1000.0, 0.002);
    }

    /**
     * An NCCL collective that starts while a GEMM runs is slowed by ncclSlowdown x the overlap, unless it runs at
     * stream priority as the CUDA backend runs it by default ({@code CollectivePriority}): then every Allreduce of
     * seed 001's pipeline lasts its cost alone. 30 us of host dispatch per matmul staggers the two streams' GEMMs,
     * so the first Allreduce (60 us alone) starts while the second GEMM still runs (30 us of overlap: 90 us).
     */
    @Test
    void ncclCollectivesAtStreamPriorityAreNotSlowedByCompute() throws Exception {
        HardwareProfile base = profile(8, 0, Map.of("HostOp", 30.0));
        HardwareProfile contended = new HardwareProfile(base.name(), base.description(), base.source(),
                base.gpusPerNode(), base.gemm(), base.nvlink(), base.network(), base.copyEngine(),
                new HardwareProfile.Contention(0, 1.0), base.dispatch());
        Map<String, Long> shape = Map.of("S", 4L, "M", 1000L, "K", 1000L, "N", 1000L);
        List<Double> atPriority = allreduceUs(simulate("seeds/matmul_ar", 2, shape, Map.of("numberOfStreams", "2"), contended));
        System.setProperty(CollectivePriority.PROPERTY, "none");
        List<Double> plain;
        try {
            plain = allreduceUs(simulate("seeds/matmul_ar", 2, shape, Map.of("numberOfStreams", "2"), contended));
        } finally {
            System.clearProperty(CollectivePriority.PROPERTY);
        }
        assertEquals(atPriority.size(), plain.size());
        double alone = atPriority.getFirst();
        for (double us : atPriority) assertEquals(alone, us, 1e-6, "at priority: " + atPriority);
        assertEquals(60, alone, 1e-6);
        assertEquals(90, plain.getFirst(), 1e-6, "without priority the first overlaps a GEMM: " + plain);
    }

    private static List<Double> allreduceUs(RunResult r) {
        return r.timeline().of(0).stream().filter(e -> e.kind() == EventKind.COMMUNICATION)
                .map(e -> e.durationNs() / 1000.0).toList();
    }

    @Test
    void kernelsOnTwoStreamsShareTheGpu() throws Exception {
        Map<String, Long> shape = Map.of("M", 1000L, "K", 1000L, "N", 1000L);
        Map<String, String> options = Map.of("backend", "cuda", "offsetStreamIndexingByRank", "true",
                "forwardLocalShard", "true");
        RunResult r = simulate("seeds/ag_matmul_p2p", 2, shape, options, profile(8, 0.5, Map.of()));
        // copy engine (no SMs taken): 4 + 4e6 / 200e3 = 24 us; GEMMs of 42 us alone: the first runs alone to 24 us,
        // then both at half speed until the first is done (60 us), then the second alone (done at 84 us)
        List<TimelineEvent> mm = r.timeline().of(0).stream().filter(e -> e.kind() == EventKind.MATMUL).toList();
        assertEquals(2, mm.size());
        assertEquals(60, mm.get(0).endNs() / 1000.0, 0.002);
        assertEquals(24, mm.get(1).startNs() / 1000.0, 0.002);
        assertEquals(84, mm.get(1).endNs() / 1000.0, 0.002);
        assertEquals(84, r.medianMillis() * 1000, 0.002);
    }

    private static TimelineEvent firstMatmul(RunResult r) {
        return r.timeline().of(0).stream().filter(e -> e.kind() == EventKind.MATMUL).findFirst().orElseThrow();
    }
}
