package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.engine.RoutingFiles;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.sim.Routing;
import org.hostir.studio.exec.sim.RoutingModel;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator's routing model (issue 39.4; docs/simulation.md, "Mixture of experts"): a dispatch + combine
 * program (nvFuser's DispatchCombineTop1 as {@link MoePrograms} builds it) simulated with a declared routing moves
 * what the CPU backend's exchange moves for the same counts; skew lengthens the hot rank's bars; capacity drops
 * are counted; histogram files round-trip; bad declarations are one line.
 */
class SimRoutingTest {
    private static final int WORLD = 4;
    private static final int EXPERTS = 8;
    private static final int TOKENS = 16;
    private static final int HIDDEN = 8;

    private static HostIrContainer program(MoePrograms.Built b) {
        MoePrograms.Tensors t = b.t();
        return MoePrograms.program(b, List.of(b.dispatch(), b.combine()),
                List.of(t.inX(), t.inTopkIdx(), t.inTopkWeights()), List.of(t.combined()));
    }

    /** Bytes of P2P bars by "rank send|recv peer" and of the own chunk's copy by "rank local", summed. */
    private static Map<String, Long> p2pBytes(List<TimelineEvent> events) {
        Map<String, Long> out = new TreeMap<>();
        for (TimelineEvent e : events) {
            if (e.kind() != EventKind.P2P) continue;
            String side = e.name().toLowerCase(java.util.Locale.ROOT).startsWith("send") ? "send" : "recv";
            out.merge(e.rank() + (e.peer() < 0 ? " local" : " " + side + " " + e.peer()), e.bytes(), Long::sum);
        }
        return out;
    }

    private static SimBackend simulate(RoutingModel model, List<String> progress) throws Exception {
        return simulate(model, progress, TOKENS, HIDDEN);
    }

    private static SimBackend simulate(RoutingModel model, List<String> progress, long tokens, long hidden)
            throws Exception {
        MoePrograms.Built b = MoePrograms.build(WORLD, EXPERTS, DataType.FLOAT);
        HostIrContainer p = program(b);
        Map<Integer, HostIrContainer> programs = new TreeMap<>();
        for (int r = 0; r < WORLD; r++) programs.put(r, p);
        SimBackend sim = new SimBackend(WORLD, ProfileFiles.builtIn("h200x8-nvlink"), false, r -> true)
                .routing(model);
        SimRun.run(programs, new RunConfig(WORLD, Map.of("T", tokens, "H", hidden), 1, 1, 0, false, 42,
                10_000), sim, progress::add);
        return sim;
    }

    /**
     * Uniform routing: token t of every rank to expert t mod 8, so each rank sends 16 / 4 = 4 tokens to each
     * other rank; by hand, per pair: x 4 x 8 x 4 B, topk_idx 4 x 8 B, topk_weights 4 x 4 B, src_idx 4 x 8 B, then
     * back x 4 x 8 x 4 B and src_idx 4 x 8 B = 368 B each way (and as much copied to itself).
     */
    @Test
    void atSkewZeroTheSimulatorMovesWhatTheCpuExchangeMoves() throws Exception {
        MoePrograms.Built b = MoePrograms.build(WORLD, EXPERTS, DataType.FLOAT);
        List<Map<Integer, DenseTensor>> in = new ArrayList<>();
        for (int r = 0; r < WORLD; r++) {
            long[] idx = new long[TOKENS];
            for (int t = 0; t < TOKENS; t++) idx[t] = t % EXPERTS;
            in.add(Map.of(b.t().inX().id(), DenseTensor.zeros(new long[] {TOKENS, HIDDEN}, DataType.FLOAT),
                    b.t().inTopkIdx().id(), DenseTensor.ofLongs(DataType.INT64, new long[] {TOKENS, 1}, idx),
                    b.t().inTopkWeights().id(), DenseTensor.zeros(new long[] {TOKENS, 1}, DataType.FLOAT)));
        }
        Map<String, Long> cpu;
        try (CpuBackend backend = new CpuBackend(WORLD, 10_000)) {
            MoePrograms.run(program(b), WORLD, in, backend);
            cpu = p2pBytes(backend.timeline().events());
        }
        Map<String, Long> expected = new TreeMap<>();
        for (int r = 0; r < WORLD; r++) {
            expected.put(r + " local", 368L); // its own experts' 4 tokens: a device copy, as c10d's alltoall_base
            for (int peer = 0; peer < WORLD; peer++) {
                if (peer == r) continue;
                expected.put(r + " send " + peer, 368L);
                expected.put(r + " recv " + peer, 368L);
            }
        }
        assertEquals(expected, cpu, "the CPU exchange, against the hand count");
        for (String zipf0 : List.of("uniform", "zipf:0")) {
            Routing routing = Routing.parse(zipf0, f -> { throw new AssertionError(f); });
            SimBackend sim = simulate(new RoutingModel(routing, Double.POSITIVE_INFINITY, 42), new ArrayList<>());
            assertEquals(expected, p2pBytes(sim.timeline().events()), zipf0);
        }
    }

    /** The rank holding the hottest expert receives the most; its receive bars lengthen as the exponent grows. */
    @Test
    void theHotRanksBarsGrowWithTheZipfExponent() throws Exception {
        long previousBytes = 0;
        long previousNs = 0;
        for (double s : new double[] {0, 1.0, 1.5, 2.5}) {
            // 1,024 tokens of 16 KiB: the bytes, not the links' latency, decide the bars
            SimBackend sim = simulate(new RoutingModel(new Routing.Zipf(s), Double.POSITIVE_INFINITY, 42),
                    new ArrayList<>(), 1024, 4096);
            long[] recvBytes = new long[WORLD];
            long[] recvNs = new long[WORLD];
            for (TimelineEvent e : sim.timeline().events()) {
                if (e.kind() == EventKind.P2P && e.name().startsWith("recv")) {
                    recvBytes[e.rank()] += e.bytes();
                    recvNs[e.rank()] += e.endNs() - e.startNs();
                }
            }
            int hot = 0;
            for (int r = 1; r < WORLD; r++) if (recvBytes[r] > recvBytes[hot]) hot = r;
            // the figures docs/simulation.md ("Mixture of experts") quotes
            System.out.printf(java.util.Locale.ROOT, "zipf:%s: received KiB by rank %s, receive bars us %s,"
                    + " span %.1f us%n", s, java.util.Arrays.toString(java.util.Arrays.stream(recvBytes)
                    .map(b -> b / 1024).toArray()), java.util.Arrays.toString(java.util.Arrays.stream(recvNs)
                    .map(n -> n / 1000).toArray()), sim.spanUs());
            if (s > 0) {
                assertTrue(recvBytes[hot] > previousBytes, "zipf:" + s + ": hot rank " + hot + " receives "
                        + recvBytes[hot] + " B, no more than " + previousBytes + " B at the smaller exponent");
                assertTrue(recvNs[hot] > previousNs, "zipf:" + s + ": hot rank's receive bars " + recvNs[hot]
                        + " ns, not longer than " + previousNs);
                for (int r = 0; r < WORLD; r++) if (r != hot) assertTrue(recvBytes[r] < recvBytes[hot], "rank " + r);
            }
            previousBytes = recvBytes[hot];
            previousNs = recvNs[hot];
        }
    }

    /** Switch Transformer's capacity: ceil(F x 16 tokens / 4 experts) per expert; the excess dropped and counted. */
    @Test
    void capacityDropsAreCounted() throws Exception {
        Routing skewed = new Routing.Histogram(new long[] {10, 2, 2, 2}, "h.json");
        RoutingModel.Assignment a = new RoutingModel(skewed, 1.0, 42).assign(16, 4);
        assertArrayEquals(new long[] {10, 2, 2, 2}, a.routed());
        assertArrayEquals(new long[] {4, 2, 2, 2}, a.kept());
        assertEquals(6, a.dropped());
        assertEquals(5, new RoutingModel(skewed, 1.25, 42).assign(16, 4).dropped());
        assertEquals(0, new RoutingModel(skewed, Double.POSITIVE_INFINITY, 42).assign(16, 4).dropped());
        // in a simulated dispatch: Zipf 2.5 over 8 experts at factor 1 drops tokens on every rank, and says so
        List<String> progress = new ArrayList<>();
        SimBackend sim = simulate(new RoutingModel(new Routing.Zipf(2.5), 1.0, 42), progress);
        long expertDrops = new RoutingModel(new Routing.Zipf(2.5), 1.0, 42).assign(TOKENS, EXPERTS).dropped();
        assertTrue(expertDrops > 0);
        String line = progress.stream().filter(l -> l.startsWith("routing ")).findFirst().orElseThrow();
        assertTrue(line.contains("dropped " + WORLD * expertDrops + " of " + WORLD * TOKENS + " tokens"), line);
        long sent = p2pBytes(sim.timeline().events()).values().stream().mapToLong(Long::longValue).sum();
        long unlimited = p2pBytes(simulate(new RoutingModel(new Routing.Zipf(2.5), Double.POSITIVE_INFINITY, 42),
                new ArrayList<>()).timeline().events()).values().stream().mapToLong(Long::longValue).sum();
        assertTrue(sent < unlimited, sent + " B moved with drops, " + unlimited + " B without");
    }

    /** Largest remainder: 12 tokens over 4 experts uniformly is 3 each; a histogram's own counts come back whole. */
    @Test
    void theSplitIsWholeTokensInProportion() {
        assertArrayEquals(new long[] {3, 3, 3, 3}, RoutingModel.DEFAULT.assign(12, 4).kept());
        long[] measured = {2372, 195, 293, 2986, 948, 191, 1100, 107};
        RoutingModel m = new RoutingModel(new Routing.Histogram(measured, "m.json"), Double.POSITIVE_INFINITY, 1);
        assertArrayEquals(measured, m.assign(8192, 8).kept());
        long[] zipf = new RoutingModel(new Routing.Zipf(1.0), Double.POSITIVE_INFINITY, 42).assign(1000, 4).kept();
        assertEquals(1000, java.util.Arrays.stream(zipf).sum());
        // shares 1 : 1/2 : 1/3 : 1/4 of 1000 = 480, 240, 160, 120, placed by the seed
        assertArrayEquals(new long[] {120, 160, 240, 480}, java.util.Arrays.stream(zipf).sorted().toArray());
    }

    @Test
    void aHistogramFileRoundTrips(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("routing.json");
        long[] counts = {5, 2, 3, 2};
        RoutingFiles.write(file, counts, "a test");
        assertArrayEquals(counts, RoutingFiles.read(file.toString()));
        assertTrue(RoutingFiles.wroteThis(file));
        RoutingModel m = RoutingFiles.model("histogram:" + file, "1.5", 7, "f.fusion");
        assertArrayEquals(counts, ((Routing.Histogram) m.routing()).counts());
        assertEquals(1.5, m.capacityFactor());
    }

    @Test
    void badDeclarationsAreOneLine(@TempDir Path dir) throws Exception {
        Path notJson = Files.writeString(dir.resolve("a.json"), "{");
        Path other = Files.writeString(dir.resolve("b.json"), "{\"format\": \"x\"}");
        String format = "{\"format\": \"" + RoutingFiles.FORMAT + "\", \"counts\": ";
        Path negative = Files.writeString(dir.resolve("c.json"), format + "[1, -2]}");
        Path fraction = Files.writeString(dir.resolve("d.json"), format + "[1.5]}");
        Map<String, String[]> cases = Map.of(
                "'zipf:x': the Zipf exponent 'x' is not a number", new String[] {"zipf:x", "none", "--routing"},
                "the exponent must be a number >= 0", new String[] {"zipf:-1", "none", "--routing"},
                "'gauss' is not a routing: expected " + Routing.SPELLINGS, new String[] {"gauss", "none", "--routing"},
                "'0' is not a capacity factor", new String[] {"uniform", "0", "--capacity-factor"},
                "cannot read the histogram", new String[] {"histogram:" + dir.resolve("missing.json"), "none",
                        "--routing"},
                "is not JSON", new String[] {"histogram:" + notJson, "none", "--routing"},
                "is not a routing histogram", new String[] {"histogram:" + other, "none", "--routing"},
                "a negative count -2", new String[] {"histogram:" + negative, "none", "--routing"},
                "counts[0] is not an integer", new String[] {"histogram:" + fraction, "none", "--routing"});
        for (var c : cases.entrySet()) {
            String[] v = c.getValue();
            EngineFailure e = assertThrows(EngineFailure.class, () -> RoutingFiles.model(v[0], v[1], 1, "f.fusion"));
            assertEquals(1, e.lines().size(), c.getKey());
            String line = e.lines().getFirst();
            assertTrue(line.startsWith("error: f.fusion: " + v[2] + ": ") && line.contains(c.getKey())
                    && line.endsWith("[run.routing]") && !line.contains("\n"), line);
        }
        // a histogram of another expert count: refused by the simulated dispatch, naming the file
        RoutingModel four = new RoutingModel(new Routing.Histogram(new long[] {1, 1, 1, 1}, "four.json"),
                Double.POSITIVE_INFINITY, 1);
        Exception e = assertThrows(Exception.class, () -> simulate(four, new ArrayList<>()));
        assertTrue(e.getMessage().contains("four.json counts 4 experts, the program routes to 8"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}
