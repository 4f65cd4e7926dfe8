package org.hostir.studio.tests.exec;

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
}
