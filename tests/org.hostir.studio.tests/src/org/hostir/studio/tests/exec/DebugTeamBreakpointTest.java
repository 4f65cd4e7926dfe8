package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.exec.ProgramPosition;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.debug.Breakpoint;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.debug.RankState;
import org.hostir.studio.exec.debug.StopReason;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * A team-wide communication breakpoint ({@link Breakpoint#team()}): the rank it names and every member of the team
 * its communication states are held at that communication, in the same iteration; ranks outside the team run on.
 * A point-to-point transfer's peer is held at its own side of the transfer, which may be another node.
 */
class DebugTeamBreakpointTest {
    private static int firstCommunication(Compilation c, int rank) {
        return c.program(rank).allNodes().stream().filter(n -> n instanceof Communication).findFirst().orElseThrow()
                .id();
    }

    /** The ranks held at a breakpoint on {@code node} at this stop. */
    private static Set<Integer> heldAt(DebugStop stop, int node) {
        Set<Integer> out = new TreeSet<>();
        for (var r : stop.ranks()) {
            if (r.state() == RankState.SUSPENDED && r.reason().orElseThrow() == StopReason.BREAKPOINT
                    && r.at().orElseThrow().node().id() == node) {
                out.add(r.rank());
            }
        }
        return out;
    }

    /**
     * seeds/allgather's Allgather held on rank 1 in iteration 0: alone, rank 0 posts it and waits in the collective
     * (DebugSessionTest); team-wide, rank 0 is held before it too, in iteration 0, and the run ends as a plain run.
     */
    @Test
    void theAllgathersWholeTeamIsHeldWithTheRankItNames() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            LoadedFusion loaded = Runs.load("seeds/allgather", 2, Map.of());
            Compilation compilation = Engine.compile(loaded, SeedGeneration.DEFAULTS);
            int allgather = firstCommunication(compilation, 0);
            Breakpoint alone = Breakpoint.at(allgather).onRank(1).inIteration(0);
            try (DebugSession s = Engine.debug(loaded, compilation, List.of(alone), false, 5)) {
                assertEquals(Set.of(1), heldAt(s.awaitStop(), allgather), "without the team: rank 1 alone");
            }
            try (DebugSession s = Engine.debug(loaded, compilation, List.of(alone.wholeTeam()), false, 5)) {
                DebugStop stop = s.awaitStop();
                assertEquals(Set.of(0, 1), heldAt(stop, allgather), stop.toString());
                for (int r = 0; r < 2; r++) assertEquals(0, stop.rank(r).at().orElseThrow().iteration(), "rank " + r);
                assertTrue(stop.waits().edges().isEmpty(), "nobody waits: every member is held before it");
                s.resume(List.of(0, 1));
                DebugStop end = s.awaitStop();
                assertTrue(end.ended(), end.toString());
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
        });
    }

    /**
     * conformance/allgather_2d on a 2 x 2 mesh: the Allgather gathers within a mesh row, so a team-wide breakpoint
     * named for rank 0 holds rank 0 and its row's other member, as rank 0's program states the team, and the other
     * row runs on through it.
     */
    @Test
    void onATwoDimensionalMeshOnlyTheNamedRanksSliceIsHeld() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            LoadedFusion loaded = Runs.load("conformance/allgather_2d", 4, Map.of());
            Compilation compilation = Engine.compile(loaded, SeedGeneration.DEFAULTS);
            int node = firstCommunication(compilation, 0);
            Set<Integer> team = new TreeSet<>(((Communication) compilation.program(0).allNodes().stream()
                    .filter(n -> n.id() == node).findFirst().orElseThrow()).team());
            assertEquals(2, team.size(), "a row of the 2 x 2 mesh: " + team);
            try (DebugSession s = Engine.debug(loaded, compilation, List.of(Breakpoint.at(node).onRank(0).wholeTeam()),
                    false, 5)) {
                DebugStop stop = s.awaitStop();
                assertEquals(team, heldAt(stop, node), stop.toString());
                for (var r : stop.ranks()) {
                    if (!team.contains(r.rank())) assertFalse(r.state() == RankState.SUSPENDED, "rank " + r.rank());
                }
                s.resume(s.ranks());
                assertTrue(s.awaitStop().ended());
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
        });
    }

    /** The rule itself: the node, rank and iteration named, or (team-wide) a position the team says is a member's. */
    @Test
    void aTeamWideBreakpointAlsoHoldsWhereTheTeamSaysAMembersSideIs() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/allgather", 2, Map.of());
        Compilation compilation = Engine.compile(loaded, SeedGeneration.DEFAULTS);
        int id = firstCommunication(compilation, 0);
        var node = compilation.program(0).allNodes().stream().filter(n -> n.id() == id).findFirst().orElseThrow();
        ProgramPosition rank0 = new ProgramPosition(0, node, 0, List.of());
        Breakpoint onRank1 = new Breakpoint(id, OptionalInt.of(1), OptionalLong.empty());
        assertFalse(onRank1.matches(rank0, (b, p) -> true), "not team-wide: the rank named only");
        assertTrue(onRank1.wholeTeam().matches(rank0, (b, p) -> true));
        assertFalse(onRank1.wholeTeam().matches(rank0, (b, p) -> false), "no member's side");
        assertTrue(onRank1.matches(new ProgramPosition(1, node, 0, List.of()), (b, p) -> false), "the rank named");
        assertFalse(onRank1.inIteration(3).matches(new ProgramPosition(1, node, 0, List.of())), "another iteration");
        assertEquals(id + "@1:3+team", onRank1.wholeTeam().inIteration(3).toString());
    }

    /**
     * Two ranks whose programs differ, so a transfer's two sides are different nodes: rank 0 sends to rank 1 in
     * each of three iterations of a loop, then receives from it; rank 1 receives in its own loop (other node ids),
     * then sends. Ids: {@code [send0, recv0, recv1, send1]}, the P2PCommunication nodes of each program.
     */
    private record Pair(Fusion fusion, Map<Integer, HostIrContainer> programs, int send0, int recv0, int recv1,
                        int send1) {
        static Pair build() {
            IrBuilder b = new IrBuilder();
            DeviceMesh mesh = DeviceMesh.of(0, 1);
            TensorView in = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, mesh, b.iter(b.symbol("M")));
            TensorView out = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, mesh, b.iter(b.symbol("M")));
            Fusion fusion = b.fusion("pair", List.of(in), List.of(new FusionOp.Set(out, in)), List.of(out));
            Map<Integer, HostIrContainer> programs = new HashMap<>();
            int[] ids = new int[4];
            // one builder for both programs: its node ids go on, so no node of rank 1 has an id of rank 0's
            HostIrBuilder h = new HostIrBuilder(new IrBuilder(fusion.counters(), fusion.symbols()));
            for (int rank = 0; rank < 2; rank++) {
                Scalar peer = Scalar.constant(1 - rank);
                // rank 0 sends in the loop and then receives; rank 1 the other way round
                HostNode looped = h.p2p(rank == 0 ? P2PCommunication.Type.SEND : P2PCommunication.Type.RECV,
                        rank == 0 ? in : out, peer, CommunicatorBackend.NCCL);
                HostNode after = h.p2p(rank == 0 ? P2PCommunication.Type.RECV : P2PCommunication.Type.SEND,
                        rank == 0 ? out : in, peer, CommunicatorBackend.NCCL);
                HostNode loop = h.forRange(new NamedScalar("i" + rank), Scalar.constant(0), Scalar.constant(3),
                        List.of(looped, h.waitFor(looped)));
                programs.put(rank, h.container(List.of(in), List.of(out),
                        List.of(h.allocate(out), loop, after, h.waitFor(after))));
                ids[rank * 2] = looped.id();
                ids[rank * 2 + 1] = after.id();
            }
            return new Pair(fusion, programs, ids[0], ids[1], ids[2], ids[3]);
        }

        DebugSession debug(Breakpoint breakpoint) {
            RunConfig config = new RunConfig(2, Map.of("M", 4L, "D", 2L), 1, 1, 0, true, 3, CpuBackend.NO_TIMEOUT);
            return DebugSession.start(fusion, programs, config, new CpuBackend(2, CpuBackend.NO_TIMEOUT),
                    List.of(breakpoint), false);
        }
    }

    /** Where rank {@code r} is held at this stop: node id and innermost iteration; none when it is not held. */
    private static String held(DebugStop stop, int r) {
        var rank = stop.rank(r);
        if (rank.state() != RankState.SUSPENDED) return "not held (" + rank.state() + ")";
        ProgramPosition at = rank.at().orElseThrow();
        return at.node().id() + ":" + at.iteration() + " " + rank.reason().orElseThrow();
    }

    /**
     * Rank 0's send in iteration 2, team-wide: rank 1 is held at its receive of that transfer, another node, in its
     * own loop's iteration 2 (the third send from 0 to 1 meets the third receive on 1 from 0, as the backends match
     * them); without the team, rank 1 runs on to its end and waits in that receive.
     */
    @Test
    void aSendsPeerIsHeldAtItsMatchingReceiveWhateverNodeThatIs() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            Pair pair = Pair.build();
            assertNotEquals(pair.send0(), pair.recv1(), "the two sides are different nodes");
            Breakpoint thirdSend = Breakpoint.at(pair.send0()).onRank(0).inIteration(2);
            try (DebugSession s = pair.debug(thirdSend)) {
                DebugStop stop = s.awaitStop();
                assertEquals(pair.send0() + ":2 BREAKPOINT", held(stop, 0));
                assertEquals("not held (DISPATCHED)", held(stop, 1), stop.toString());
            }
            try (DebugSession s = pair.debug(thirdSend.wholeTeam())) {
                DebugStop stop = s.awaitStop();
                assertEquals(pair.send0() + ":2 BREAKPOINT", held(stop, 0), stop.toString());
                assertEquals(pair.recv1() + ":2 BREAKPOINT", held(stop, 1), stop.toString());
                s.resume(List.of(0, 1));
                DebugStop end = s.awaitStop();
                assertTrue(end.ended(), end.toString());
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
        });
    }

    /**
     * Rank 0's receive, team-wide: rank 1 is held at the send that feeds it (its second P2PCommunication, after
     * its loop), not at its first one, the receive, which is another transfer with rank 0.
     */
    @Test
    void aReceivesPeerIsHeldAtTheSendThatFeedsIt() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            Pair pair = Pair.build();
            try (DebugSession s = pair.debug(Breakpoint.at(pair.recv0()).onRank(0).wholeTeam())) {
                DebugStop stop = s.awaitStop();
                assertEquals(pair.recv0() + ":-1 BREAKPOINT", held(stop, 0), stop.toString());
                assertEquals(pair.send1() + ":-1 BREAKPOINT", held(stop, 1), stop.toString());
                s.resume(List.of(0, 1));
                assertTrue(s.awaitStop().ended());
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
            // named for every rank: each rank's own node 'recv0' (only rank 0 has it) and the peers' sides of it
            try (DebugSession s = pair.debug(Breakpoint.at(pair.recv0()).wholeTeam())) {
                DebugStop stop = s.awaitStop();
                assertEquals(pair.send1() + ":-1 BREAKPOINT", held(stop, 1), stop.toString());
                s.resume(List.of(0, 1));
                assertTrue(s.awaitStop().ended());
            }
        });
    }

    /**
     * Seed 000 as lowered: in iteration 1 rank 0 receives from rank 1 (its recv node) in a coalesced group, and the
     * data comes from rank 1's send node in iteration 0, where rank 1 is not rank 0's slice. Team-wide, rank 0's
     * recv in iteration 1 holds rank 1 at that send, another node in another iteration (rank 1 never reaches the
     * recv node in iteration 1); the run then ends as a plain run.
     */
    @Test
    void onTheSeedARecvsPeerIsHeldAtTheSendOfAnotherIteration() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            int recv;
            int send;
            try (DebugSession probe = DebugSessionTest.seed(List.of(), true)) {
                recv = DebugSessionTest.p2p(probe.program(0), P2PCommunication.Type.RECV).id();
                send = DebugSessionTest.p2p(probe.program(1), P2PCommunication.Type.SEND).id();
            }
            try (DebugSession s = DebugSessionTest.seed(List.of(Breakpoint.at(recv).onRank(0).inIteration(1)
                    .wholeTeam()), false)) {
                DebugStop stop = s.awaitStop();
                assertEquals(recv + ":1 BREAKPOINT", held(stop, 0), stop.toString());
                assertEquals(send + ":0 BREAKPOINT", held(stop, 1), stop.toString());
                s.resume(List.of(0, 1));
                assertTrue(s.awaitStop().ended());
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
        });
    }
}
