package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.exec.Blockage;
import org.hostir.studio.exec.ProgramPosition;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.debug.Breakpoint;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.debug.RankState;
import org.hostir.studio.exec.debug.StopReason;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.exec.debug.TensorSummary;
import org.hostir.studio.exec.debug.WaitGraph;
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
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/** The stepping controller on seed 000 (ag_matmul_p2p, 2 ranks) and on a deadlocking pair of programs. */
class DebugSessionTest {
    private static final List<Integer> BOTH = List.of(0, 1);

    static DebugSession seed(List<Breakpoint> breakpoints, boolean suspendAtStart) throws Exception {
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", 2, Map.of());
        Compilation compilation = Engine.compile(loaded, SeedGeneration.DEFAULTS);
        return Engine.debug(loaded, compilation, breakpoints, suspendAtStart, 7);
    }

    static P2PCommunication p2p(HostIrContainer program, P2PCommunication.Type type) {
        return program.allNodes().stream().filter(n -> n instanceof P2PCommunication p && p.type() == type)
                .map(P2PCommunication.class::cast).findFirst().orElseThrow();
    }

    /**
     * A breakpoint on the recv holds each rank in the first iteration that is not its own slice (rank 0 in
     * iteration 1, rank 1 in 0), inside the stream loop; a step over moves both to the send of the same iteration.
     */
    @Test
    void aBreakpointOnTheSeedsRecvHoldsBothRanksInTheirRemoteIteration() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            int recv;
            int send;
            try (DebugSession probe = seed(List.of(), true)) {
                recv = p2p(probe.program(0), P2PCommunication.Type.RECV).id();
                send = p2p(probe.program(0), P2PCommunication.Type.SEND).id();
            }
            try (DebugSession s = seed(List.of(Breakpoint.at(recv)), false)) {
                DebugStop stop = s.awaitStop();
                for (int r : BOTH) {
                    ProgramPosition at = stop.rank(r).at().orElseThrow();
                    assertEquals(RankState.SUSPENDED, stop.rank(r).state());
                    assertEquals(StopReason.BREAKPOINT, stop.rank(r).reason().orElseThrow());
                    assertEquals(recv, at.node().id());
                    assertEquals(1, at.loops().size(), "inside the stream loop: " + at.loops());
                    assertEquals(1 - r, at.iteration(), "rank " + r);
                    assertEquals(2, at.depth(), "loop body, then the IF's else branch");
                }
                s.stepOver(BOTH);
                stop = s.awaitStop();
                for (int r : BOTH) {
                    assertEquals(send, stop.rank(r).at().orElseThrow().node().id());
                    assertEquals(StopReason.STEP, stop.rank(r).reason().orElseThrow());
                }
                List<TensorSummary> tensors = s.tensors(0);
                TensorSummary t0 = tensors.stream().filter(t -> t.id() == 0).findFirst().orElseThrow();
                assertEquals(List.of(1L, 8L, 4L), t0.shape(), "rank 0's shard of T0: " + t0);
                assertEquals(0, t0.reference().orElseThrow().differing(), "an input is its reference shard");
                assertEquals(0.0, t0.reference().orElseThrow().maxAbs());
                assertEquals("float", t0.dtype());
                assertEquals(1 * 8 * 4 * 4, t0.bytes());
                assertEquals(Math.min(TensorSummary.SLICE, 32), t0.slice().size());
                s.resume(BOTH);
                stop = s.awaitStop();
                assertTrue(stop.ended(), "no more stops: every iteration's recv was passed once per rank? " + stop);
                assertTrue(s.validation().orElseThrow().passed(), s.validation().toString());
            }
        });
    }

    /**
     * The Tensor Values view's difference table reads {@code referenceValues}: at the recv, rank 1 (iteration 0) has
     * allocated T2 but computed none of it, so it has no difference (its zeros minus the reference are no wrong
     * value; the view says "not written yet", as the Variables view's summary does), while rank 0 (iteration 1),
     * whose own slice is computed, and every rank's input T0 have theirs.
     */
    @Test
    void aTensorNothingHasWrittenYetHasNoDifferenceFromTheReference() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            int recv;
            try (DebugSession probe = seed(List.of(), true)) {
                recv = p2p(probe.program(0), P2PCommunication.Type.RECV).id();
            }
            try (DebugSession s = seed(List.of(Breakpoint.at(recv)), false)) {
                s.awaitStop();
                assertTrue(s.values(1, 2).isPresent(), "rank 1 holds T2's allocation");
                assertFalse(s.written(1, 2));
                assertTrue(s.referenceValues(1, 2).isEmpty(), "no difference for an allocation nothing wrote");
                TensorSummary t2 = s.tensors(1).stream().filter(t -> t.id() == 2).findFirst().orElseThrow();
                assertTrue(StopText.tensor(t2).endsWith("; not written yet"), StopText.tensor(t2));
                assertTrue(s.written(0, 2), "rank 0 computed its own slice in iteration 0");
                assertArrayEquals(s.values(0, 2).orElseThrow().shape(), s.referenceValues(0, 2).orElseThrow().shape());
                for (int r : BOTH) {
                    assertTrue(s.written(r, 0));
                    assertArrayEquals(s.values(r, 0).orElseThrow().toDoubleArray(),
                            s.referenceValues(r, 0).orElseThrow().toDoubleArray(), "an input is its reference shard");
                }
                assertFalse(s.written(1, 99), "no such tensor");
                s.resume(BOTH);
                while (!s.awaitStop().ended()) s.resume(BOTH);
            }
        });
    }

    /**
     * Held at the start, rank 0 alone steps over nodes to the stream loop, steps into its first iteration and over
     * its body into the next iteration; rank 1 stays where it was held. Then both run to the end and validate.
     */
    @Test
    void oneRankStepsIntoALoopIterationWhileTheOtherStaysHeld() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (DebugSession s = seed(List.of(), true)) {
                DebugStop stop = s.awaitStop();
                ProgramPosition first = stop.rank(1).at().orElseThrow();
                assertEquals(StopReason.SUSPEND, stop.rank(0).reason().orElseThrow());
                assertEquals(0, first.depth());
                while (!(stop.rank(0).at().orElseThrow().node() instanceof ForLoop)) {
                    s.stepOver(List.of(0));
                    stop = s.awaitStop();
                    assertEquals(0, stop.rank(0).at().orElseThrow().depth(), "step over stays at the top level");
                    assertEquals(first, stop.rank(1).at().orElseThrow(), "rank 1 is still held where it was");
                }
                int loop = stop.rank(0).at().orElseThrow().node().id();
                s.stepInto(List.of(0));
                stop = s.awaitStop();
                ProgramPosition in = stop.rank(0).at().orElseThrow();
                assertEquals(1, in.depth());
                assertEquals(loop, in.loops().getFirst().loop().id());
                assertEquals(0, in.iteration());
                int steps = 0;
                while (stop.rank(0).at().orElseThrow().iteration() == 0) {
                    s.stepOver(List.of(0));
                    stop = s.awaitStop();
                    assertTrue(++steps < 50, "the body ends");
                }
                assertEquals(1, stop.rank(0).at().orElseThrow().iteration(), "the next iteration");
                assertEquals(1, stop.rank(0).at().orElseThrow().depth(), "its first node");
                assertEquals(in.node().id(), stop.rank(0).at().orElseThrow().node().id());
                s.resume(BOTH);
                assertTrue(s.awaitStop().ended());
                assertTrue(s.validation().orElseThrow().passed());
            }
        });
    }

    /**
     * A breakpoint on the send held on rank 1 only: rank 0 runs on until its stream waits for rank 1's half of the
     * coalesced pair; the wait-for graph names that edge and no cycle, and nothing is stuck.
     */
    @Test
    void aRankHeldAtABreakpointIsWhoTheOtherWaitsFor() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            int send;
            try (DebugSession probe = seed(List.of(), true)) {
                send = p2p(probe.program(0), P2PCommunication.Type.SEND).id();
            }
            try (DebugSession s = seed(List.of(Breakpoint.at(send).onRank(1)), false)) {
                DebugStop stop = s.awaitStop();
                assertEquals(RankState.SUSPENDED, stop.rank(1).state());
                assertEquals(0, stop.rank(1).at().orElseThrow().iteration());
                assertEquals(RankState.DISPATCHED, stop.rank(0).state());
                WaitGraph.Edge edge = stop.waits().edges().getFirst();
                assertEquals(List.of(0, 1), List.of(edge.from(), edge.to()), stop.waits().toString());
                assertTrue(edge.why().on() instanceof Blockage.Receive r && r.peer() == 1, edge.toString());
                assertTrue(stop.waits().cycles().isEmpty());
                assertFalse(stop.stuck());
                s.resume(BOTH);
                assertTrue(s.awaitStop().ended());
                assertTrue(s.validation().orElseThrow().passed());
            }
        });
    }

    /**
     * Both ranks send before they receive, outside a group: each send waits for its receiver, as NCCL would hang.
     * The stop says the run is stuck and names the cycle by the sends' nodes; terminating ends every rank.
     */
    @Test
    void aDeadlockIsACycleNamedByItsNodes() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            IrBuilder b = new IrBuilder();
            DeviceMesh mesh = DeviceMesh.of(0, 1);
            TensorView in = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, mesh, b.iter(b.symbol("M")));
            TensorView out = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, mesh, b.iter(b.symbol("M")));
            Fusion fusion = b.fusion("pair", List.of(in), List.of(new FusionOp.Set(out, in)), List.of(out));
            Scalar peer = Scalar.sub(Scalar.constant(1), NamedScalar.RANK);
            Map<Integer, HostIrContainer> programs = new HashMap<>();
            int sendId = -1;
            for (int rank : BOTH) {
                HostIrBuilder h = new HostIrBuilder(new IrBuilder(fusion.counters(), fusion.symbols()));
                HostNode send = h.p2p(P2PCommunication.Type.SEND, in, peer, CommunicatorBackend.NCCL);
                HostNode recv = h.p2p(P2PCommunication.Type.RECV, out, peer, CommunicatorBackend.NCCL);
                sendId = send.id();
                programs.put(rank, h.container(List.of(in), List.of(out),
                        List.of(h.allocate(out), send, h.waitFor(send), recv, h.waitFor(recv))));
            }
            RunConfig config = new RunConfig(2, Map.of("M", 4L, "D", 2L), 1, 1, 0, true, 3, CpuBackend.NO_TIMEOUT);
            try (DebugSession s = DebugSession.start(fusion, programs, config, new CpuBackend(2, CpuBackend.NO_TIMEOUT),
                    List.of(), false)) {
                DebugStop stop = s.awaitStop();
                assertTrue(stop.stuck(), stop.toString());
                WaitGraph.Cycle cycle = stop.waits().cycles().getFirst();
                assertTrue(cycle.deadlock());
                assertEquals("deadlock: rank 0 (P2PCommunication " + sendId + ") -> rank 1 (P2PCommunication " + sendId
                        + ") -> rank 0", StopText.cycle(cycle, programs));
                for (WaitGraph.Edge e : cycle.edges()) {
                    assertTrue(e.why().on() instanceof Blockage.Send x && x.peer() == e.to() && x.bytes() == 16, e.toString());
                }
                s.terminate();
                stop = s.awaitStop();
                assertTrue(stop.ended());
                for (int r : BOTH) assertEquals(RankState.TERMINATED, stop.rank(r).state());
            }
        });
    }

    /**
     * seeds/allgather's Allgather held on rank 1 in iteration 0: rank 0 posts it and its stream waits in the
     * collective for the member that has not arrived, rank 1, named with the team and the bytes.
     */
    @Test
    void aCollectiveWaitsForTheMembersThatHaveNotArrived() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            LoadedFusion loaded = Runs.load("seeds/allgather", 2, Map.of());
            Compilation compilation = Engine.compile(loaded, SeedGeneration.DEFAULTS);
            int allgather = compilation.program(0).allNodes().stream()
                    .filter(n -> n instanceof org.hostir.studio.ir.host.Communication).findFirst().orElseThrow().id();
            try (DebugSession s = Engine.debug(loaded, compilation, List.of(Breakpoint.at(allgather).onRank(1)
                    .inIteration(0)), false, 5)) {
                DebugStop stop = s.awaitStop();
                assertEquals(RankState.SUSPENDED, stop.rank(1).state());
                assertEquals(allgather, stop.rank(1).at().orElseThrow().node().id());
                WaitGraph.Edge edge = stop.waits().edges().stream().filter(e -> e.from() == 0).findFirst()
                        .orElseThrow(() -> new AssertionError(stop.toString()));
                assertEquals(1, edge.to());
                Blockage.Collective c = (Blockage.Collective) edge.why().on();
                assertEquals(List.of(0, 1), c.team());
                assertEquals(0, c.tag());
                assertEquals(allgather, c.nodeId());
                assertEquals(0, c.iteration());
                assertTrue(c.bytes() > 0);
                assertFalse(stop.stuck());
                s.resume(BOTH);
                assertTrue(s.awaitStop().ended());
                assertTrue(s.validation().orElseThrow().passed());
            }
        });
    }
}
