package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.exec.Blockage;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.debug.Breakpoint;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.debug.RankState;
import org.hostir.studio.exec.debug.StopReason;
import org.hostir.studio.exec.debug.StopRule;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.Wait;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * The debugger's rule for the CUDA backend ({@link StopRule#SYNCHRONIZED}: a rank posts a communication only with
 * its whole team, a step over a communication takes the team members held at their part along, a rank-only step
 * that would wait for a held peer is refused in one line, and each stop synchronizes the held ranks' streams). The
 * rule does not depend on the backend, so the CPU backend stands in for the several GPUs multi-rank CUDA needs (one
 * per rank for NCCL); the CUDA runs of D = 1 are {@code CudaDebugTest}.
 */
class DebugSynchronizedTest {
    private static final List<Integer> BOTH = List.of(0, 1);

    /** {@code loaded}'s programs under the synchronized rule on the CPU backend, as Engine.debug starts one. */
    static DebugSession start(LoadedFusion loaded, Map<Integer, HostIrContainer> programs, int streams,
                              List<Breakpoint> breakpoints, boolean suspendAtStart) {
        return start(loaded, programs, streams, breakpoints, suspendAtStart, 7);
    }

    static DebugSession start(LoadedFusion loaded, Map<Integer, HostIrContainer> programs, int streams,
                              List<Breakpoint> breakpoints, boolean suspendAtStart, long seed) {
        int devices = loaded.bindings().devices();
        Map<String, Long> symbols = new HashMap<>(loaded.bindings().asMap());
        loaded.bindings().asMap().forEach((name, value) -> loaded.fusion().symbol(name)
                .ifPresent(sym -> symbols.putIfAbsent("i" + sym.id(), value)));
        RunConfig config = new RunConfig(devices, symbols, streams, 1, 0, ValidationMode.AUTO, seed,
                CpuBackend.NO_TIMEOUT);
        assertEquals(Optional.empty(), DebugSession.refusal(programs, config, StopRule.SYNCHRONIZED));
        return DebugSession.start(loaded.fusion(), programs, config, new CpuBackend(devices, CpuBackend.NO_TIMEOUT),
                breakpoints, suspendAtStart, StopRule.SYNCHRONIZED);
    }

    private static DebugSession seed(String example, List<Breakpoint> breakpoints, boolean suspendAtStart)
            throws Exception {
        LoadedFusion loaded = Runs.load(example, 2, Map.of());
        Compilation c = Engine.compile(loaded, SeedGeneration.DEFAULTS);
        return start(loaded, Map.of(0, c.program(0), 1, c.program(1)), c.options().numberOfStreams(), breakpoints,
                suspendAtStart);
    }

    private static int allgather(HostIrContainer program) {
        return program.allNodes().stream().filter(n -> n instanceof Communication).findFirst().orElseThrow().id();
    }

    /**
     * seeds/allgather's Allgather held on rank 1 alone, in iteration 0: on the CPU rule rank 0 posts it and its
     * stream blocks (DebugSessionTest); here rank 0's host is held before it, for its team, so nothing waits on a
     * device: the stop names the wait (host, the collective, rank 1), and letting rank 1 go lets both through.
     */
    @Test
    void aRankWhosePeerIsHeldWaitsOnTheHostBeforeItPosts() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            int node;
            try (DebugSession probe = seed("seeds/allgather", List.of(), true)) {
                node = allgather(probe.program(0));
            }
            try (DebugSession s = seed("seeds/allgather", List.of(Breakpoint.at(node).onRank(1).inIteration(0)),
                    false)) {
                DebugStop stop = s.awaitStop();
                assertEquals(StopReason.BREAKPOINT, stop.rank(1).reason().orElseThrow(), stop.toString());
                assertEquals(RankState.SUSPENDED, stop.rank(0).state());
                assertEquals(StopReason.TEAM, stop.rank(0).reason().orElseThrow(), stop.toString());
                assertEquals(node, stop.rank(0).at().orElseThrow().node().id());
                assertEquals(0, stop.rank(0).at().orElseThrow().iteration());
                var blocked = stop.rank(0).blocked();
                assertEquals(1, blocked.size(), blocked.toString());
                assertEquals(-1, blocked.getFirst().stream(), "the host waits, no stream");
                assertEquals(List.of(1), blocked.getFirst().waitsFor());
                Blockage.Collective c = (Blockage.Collective) blocked.getFirst().on();
                assertEquals(List.of(0, 1), c.team());
                assertEquals("host: Allgather (node " + node + ", #0 on team [0, 1], iteration 0), waits for rank 1",
                        StopText.blocked(blocked.getFirst()));
                assertEquals(1, stop.waits().edges().size());
                assertFalse(stop.stuck(), "rank 1 can be let go");
                s.resume(List.of(0)); // held for its team, not by a command: resume does not let it go
                stop = s.awaitStop();
                assertEquals(StopReason.TEAM, stop.rank(0).reason().orElseThrow(), stop.toString());
                s.resume(List.of(1));
                stop = s.awaitStop();
                assertTrue(stop.ended(), stop.toString());
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
        });
    }

    /**
     * Held at the start, rank 0 steps alone into seeds/ag_matmul_p2p's program up to the EndCoalescing that posts
     * its recv and send of iteration 1: a step over it would wait for rank 1, held at its first node, and is
     * refused in one line, changing nothing. Once rank 1 is at its side of those transfers (its EndCoalescing of
     * iteration 0), a step over on rank 0 alone takes rank 1 through it too (team stepping), both streams are
     * synchronized at the stop, and the run ends as a plain run.
     */
    @Test
    void aStepOverACommunicationStepsItsTeamOrIsRefusedWhileAPeerIsHeldElsewhere() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (DebugSession s = seed("seeds/ag_matmul_p2p", List.of(), true)) {
                int end = s.program(0).allNodes().stream().filter(n -> n instanceof EndCoalescing).findFirst()
                        .orElseThrow().id();
                DebugStop stop = s.awaitStop();
                int rank1At = stop.rank(1).at().orElseThrow().node().id();
                stop = stepIntoUntil(s, 0, stop, end);
                assertEquals(1, stop.rank(0).at().orElseThrow().iteration(), "rank 0 receives from 1 in iteration 1");
                Optional<String> refused = s.stepOver(List.of(0));
                assertEquals(Optional.of("rank 0's step over EndCoalescing " + end + " would wait for rank 1, held at "
                        + StopText.node(s.program(1), rank1At) + " before EndCoalescing " + end + ": step rank 1 to"
                        + " EndCoalescing " + end + " first (then both go through together), or resume it"), refused);
                DebugStop same = s.awaitStop();
                assertEquals(end, same.rank(0).at().orElseThrow().node().id(), "the refused step changed nothing");
                assertEquals(rank1At, same.rank(1).at().orElseThrow().node().id());
                stop = stepIntoUntil(s, 1, same, end);
                assertEquals(0, stop.rank(1).at().orElseThrow().iteration(), "rank 1 receives from 0 in iteration 0");
                assertEquals(Optional.empty(), s.stepOver(List.of(0)));
                stop = s.awaitStop();
                for (int r : BOTH) {
                    assertEquals(StopReason.STEP, stop.rank(r).reason().orElseThrow(), stop.toString());
                    assertTrue(stop.rank(r).at().orElseThrow().node() instanceof Wait, "past its EndCoalescing: "
                            + stop.rank(r));
                    assertTrue(stop.rank(r).blocked().isEmpty(), stop.toString());
                }
                s.resume(BOTH);
                stop = s.awaitStop();
                assertTrue(stop.ended(), stop.toString());
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
        });
    }

    /**
     * The group stepped into every node together, as {@code hirstudio debug --step into} does: a rank at a
     * communication whose peer the same command moves waits for its team instead of refusing the step, and the run
     * ends as a plain run. On two H200s, {@code debug seeds/ag_matmul_p2p.fusion --backend cuda --step into} was
     * refused at its 16th stop ("rank 1's step over EndCoalescing 14 would wait for rank 0, held at HostOp 1") before.
     */
    @Test
    void theGroupSteppedTogetherWaitsForItsTeamInsteadOfRefusing() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (DebugSession s = seed("seeds/ag_matmul_p2p", List.of(), true)) {
                DebugStop stop = s.awaitStop();
                boolean waitedForTeam = false;
                for (int i = 0; i < 400 && !stop.ended(); i++) {
                    assertEquals(Optional.empty(), s.stepInto(BOTH), stop.toString());
                    stop = s.awaitStop();
                    DebugStop at = stop;
                    waitedForTeam |= !at.ended() && BOTH.stream()
                            .anyMatch(r -> at.rank(r).reason().orElse(null) == StopReason.TEAM);
                }
                assertTrue(stop.ended(), stop.toString());
                assertTrue(waitedForTeam, "some stop shows a rank waiting for its team");
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
        });
    }

    /** Steps {@code rank} alone into its program until it is held before node {@code id}; the stop there. */
    private static DebugStop stepIntoUntil(DebugSession s, int rank, DebugStop from, int id) throws Exception {
        DebugStop stop = from;
        for (int i = 0; i < 100 && stop.rank(rank).at().orElseThrow().node().id() != id; i++) {
            assertEquals(Optional.empty(), s.stepInto(List.of(rank)));
            stop = s.awaitStop();
            assertEquals(StopReason.STEP, stop.rank(rank).reason().orElseThrow(), stop.toString());
        }
        assertEquals(id, stop.rank(rank).at().orElseThrow().node().id(), stop.toString());
        return stop;
    }

    /**
     * The hand-edited dump whose ranks both send before they receive: each host waits before its send for the
     * other's recv, no command can let either go, and the stop is stuck with the deadlock named by its nodes.
     */
    @Test
    void sendsFirstOnBothRanksIsAStuckStopWithItsCycleNamed() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            LoadedFusion loaded = Runs.load("communication/send_recv_swapped", 2, Map.of());
            var programs = Engine.dumpPrograms(TestPaths.repo("examples/debug/send_recv_swapped_sends_first.txt"), 2);
            try (DebugSession s = start(loaded, programs, 1, List.of(), false)) {
                DebugStop stop = s.awaitStop();
                assertTrue(stop.stuck(), stop.toString());
                assertFalse(stop.ended());
                for (int r : BOTH) {
                    assertEquals(StopReason.TEAM, stop.rank(r).reason().orElseThrow(), stop.toString());
                    assertEquals(3, stop.rank(r).at().orElseThrow().node().id());
                }
                assertTrue(stop.waits().deadlocked(), stop.waits().toString());
                assertEquals("deadlock: rank 0 (P2PCommunication 3) -> rank 1 (P2PCommunication 3) -> rank 0",
                        StopText.cycle(stop.waits().cycles().getFirst(), Map.of(0, programs.get(0), 1,
                                programs.get(1))));
                s.terminate();
                assertTrue(s.awaitStop().ended());
            }
        });
    }
}
