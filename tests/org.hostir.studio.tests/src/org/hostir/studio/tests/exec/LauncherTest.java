package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import java.util.Optional;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.launch.LauncherEnv;
import org.hostir.studio.exec.launch.UniqueIdExchange;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.trace.Timeline;
import org.junit.jupiter.api.Test;

/** Launcher mode without a GPU: the launcher's variables and the NCCL unique id exchange over loopback sockets. */
class LauncherTest {
    private static Map<String, String> torchrun(int rank, int world) {
        Map<String, String> env = new HashMap<>();
        env.put("RANK", "" + rank);
        env.put("WORLD_SIZE", "" + world);
        env.put("LOCAL_RANK", "" + rank);
        env.put("MASTER_ADDR", "127.0.0.1");
        env.put("MASTER_PORT", "29500");
        return env;
    }

    @Test
    void torchrunsVariablesGiveRankWorldGpuAndAddress() {
        LauncherEnv e = LauncherEnv.parse(torchrun(1, 2));
        assertEquals(new LauncherEnv(1, 2, 1, "127.0.0.1", 29500, 29500), e);
        Map<String, String> agent = torchrun(0, 2);
        agent.put("TORCHELASTIC_USE_AGENT_STORE", "True");
        agent.put("MASTER_PORT", "40000");
        assertEquals(16384 + 40000 % 16384, LauncherEnv.parse(agent).idPort(),
                "torchrun's store holds MASTER_PORT; its connections take ephemeral ports above 32767");
        agent.put("MASTER_PORT", "29500"); // 29500 % 16384 + 16384 is 29500 itself: the next port
        assertEquals(29501, LauncherEnv.parse(agent).idPort());
        agent.put("HIRSTUDIO_ID_PORT", "4000");
        assertEquals(4000, LauncherEnv.parse(agent).idPort());
        Map<String, String> noLocal = torchrun(3, 4);
        noLocal.remove("LOCAL_RANK");
        assertEquals(3, LauncherEnv.parse(noLocal).localRank());
        assertTrue(LauncherEnv.present(torchrun(0, 1)));
        assertFalse(LauncherEnv.present(Map.of("RANK", "0")));
    }

    @Test
    void aMissingOrBadVariableIsNamed() {
        Map<String, String> noAddr = torchrun(0, 2);
        noAddr.remove("MASTER_ADDR");
        assertMessage(noAddr, "MASTER_ADDR is not set");
        Map<String, String> noPort = torchrun(1, 2);
        noPort.remove("MASTER_PORT");
        assertMessage(noPort, "MASTER_PORT is not set");
        assertMessage(torchrun(2, 2), "RANK=2 is outside 0..1 (WORLD_SIZE=2)");
        Map<String, String> word = torchrun(0, 2);
        word.put("WORLD_SIZE", "two");
        assertMessage(word, "WORLD_SIZE=two is not an integer");
        Map<String, String> none = new HashMap<>();
        assertMessage(none, "WORLD_SIZE is not set (one process per GPU needs RANK, WORLD_SIZE, LOCAL_RANK,"
                + " MASTER_ADDR, MASTER_PORT");
    }

    private static void assertMessage(Map<String, String> env, String part) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> LauncherEnv.parse(env));
        assertTrue(e.getMessage().contains(part), () -> part + " missing in: " + e.getMessage());
    }

    @Test
    void rankZeroServesOneIdPerTeamToEveryRankOverLoopback() throws Exception {
        AtomicInteger made = new AtomicInteger();
        UniqueIdExchange zero = UniqueIdExchange.open(new LauncherEnv(0, 3, 0, "127.0.0.1", 0, 0), () -> {
            byte[] id = new byte[128];
            id[0] = (byte) made.incrementAndGet();
            id[127] = 42;
            return id;
        }, 10_000);
        int port = zero.localPort();
        assertTrue(port > 0);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<byte[][]>> others = List.of(1, 2).stream().map(r -> pool.submit(() -> {
                try (UniqueIdExchange x = UniqueIdExchange.open(new LauncherEnv(r, 3, r, "127.0.0.1", port, port),
                        () -> { throw new AssertionError("only rank 0 makes ids"); }, 10_000)) {
                    return new byte[][] {x.id("team [0, 1, 2]"), x.id("team [1, 2]")};
                }
            })).toList();
            byte[] world = zero.id("team [0, 1, 2]");
            for (Future<byte[][]> f : others) {
                byte[][] ids = f.get();
                assertArrayEquals(world, ids[0]);
                assertEquals(128, ids[1].length);
                assertFalse(java.util.Arrays.equals(world, ids[1]), "another team gets another id");
                assertArrayEquals(ids[1], others.get(0).get()[1], "a team's members get the same id");
            }
            assertEquals(2, made.get());
            zero.close();
            assertEquals(java.util.Set.of(1, 2), zero.goodbyes(), "rank 0 waits for every rank before it stops");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRankWhoseRankZeroNeverListensFailsWithinTheTimeoutNamingTheAddress() throws Exception {
        int port = freePort();
        UniqueIdExchange one = UniqueIdExchange.open(new LauncherEnv(1, 2, 1, "127.0.0.1", port, port),
                () -> new byte[128], 400);
        long t0 = System.nanoTime();
        ExecutionException e = assertThrows(ExecutionException.class, () -> one.id("team [0, 1]"));
        double s = (System.nanoTime() - t0) / 1e9;
        assertTrue(s >= 0.35 && s < 5, "gave up after " + s + " s");
        for (String part : new String[] {"rank 1 of 2 got no NCCL unique id from rank 0 at 127.0.0.1:" + port,
                "within 0.4 s", "Connection refused", "MASTER_ADDR, MASTER_PORT and WORLD_SIZE"}) {
            assertTrue(e.getMessage().contains(part), () -> part + " missing in: " + e.getMessage());
        }
    }

    @Test
    void ranksStartedWithDifferentWorldSizesAreToldApart() throws Exception {
        try (UniqueIdExchange zero = UniqueIdExchange.open(new LauncherEnv(0, 2, 0, "127.0.0.1", 0, 0),
                () -> new byte[128], 300)) {
            int port = zero.localPort();
            UniqueIdExchange stranger = UniqueIdExchange.open(new LauncherEnv(2, 3, 0, "127.0.0.1", port, port),
                    () -> new byte[128], 5_000);
            ExecutionException e = assertThrows(ExecutionException.class, () -> stranger.id("team [0, 1, 2]"));
            assertTrue(e.getMessage().contains("rank 0 has WORLD_SIZE=2, rank 2 has WORLD_SIZE=3"), e.getMessage());
        }
    }

    @Test
    void rankZeroReportsATakenPort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            int port = taken.getLocalPort();
            ExecutionException e = assertThrows(ExecutionException.class, () -> UniqueIdExchange.open(
                    new LauncherEnv(0, 2, 0, "127.0.0.1", port, port), () -> new byte[128], 1_000));
            assertTrue(e.getMessage().contains("rank 0 cannot listen on port " + port), e.getMessage());
        }
    }

    /** The CPU backend as a process of launcher mode would see it: only rank 1 runs here. */
    private record OnlyRankOne(CpuBackend cpu) implements Backend {
        public String name() { return "cpu, rank 1 only"; }
        public int deviceCount() { return cpu.deviceCount(); }
        public Device device(int rank) { return cpu.device(rank); }
        public boolean runsRank(int rank) { return rank == 1; }
        public Timeline timeline() { return cpu.timeline(); }
        public void resetTimeline() { cpu.resetTimeline(); }
        public Optional<RunFailure> failure() { return cpu.failure(); }
        public void close() { cpu.close(); }
    }

    @Test
    void aProcessRunningOneRankValidatesItsShardAgainstTheReference() throws Exception {
        String text = """
                {"format": "hostir-fusion/1", "name": "double_sharded", "symbols": {"M": 6},
                 "tensors": [
                   {"name": "a", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, "M"], "mesh": "all"},
                   {"name": "b", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, "M"], "mesh": "all"}],
                 "ops": [{"op": "add", "inputs": ["a", "a"], "output": "b"}],
                 "inputs": ["a"], "outputs": ["b"]}
                """;
        LoadedFusion loaded = FusionLoader.load(FusionReader.read(text, "double_sharded"), 2, Map.of());
        try (OnlyRankOne backend = new OnlyRankOne(new CpuBackend(2, 10_000))) {
            RunResult r = Runs.run(loaded, 2, Map.of(), backend, line -> { });
            assertEquals(java.util.Set.of(1), r.programs().keySet(), "only rank 1 is lowered and run here");
            assertEquals(java.util.Set.of(1), r.outputs().keySet());
            assertEquals(List.of(1L, 6L), java.util.Arrays.stream(r.outputs().get(1).get(0).shape()).boxed().toList());
            assertTrue(r.validation().orElseThrow().passed(), r.validation().orElseThrow().line());
            // the shard really is rank 1's: twice the second row of the input
            float[] in = r.inputs().values().iterator().next().toArray();
            float[] out = r.outputs().get(1).get(0).toArray();
            for (int j = 0; j < 6; j++) assertEquals(2 * in[6 + j], out[j], 1e-6);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
