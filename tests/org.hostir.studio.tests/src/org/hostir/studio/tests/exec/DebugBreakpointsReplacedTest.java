package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;

import org.hostir.studio.exec.debug.Breakpoint;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.debug.RankState;
import org.hostir.studio.exec.debug.StopReason;
import org.hostir.studio.ir.host.P2PCommunication;
import org.junit.jupiter.api.Test;

/**
 * The Studio hands the session the file's breakpoints again whenever the workspace tells it that one changed
 * (RunTarget's breakpoint listener), which can happen while the ranks run. Replacing the breakpoints by the same
 * ones must never let a rank pass one: with the list emptied and filled again, the breakpoint on seed 000's
 * coalesced recv, P2PCommunication 12 @ rank 1, iteration 0, was passed and the run finished.
 */
class DebugBreakpointsReplacedTest {
    @Test
    void aRankStopsAtItsBreakpointWhileTheSameBreakpointsAreSetAgainAndAgain() throws Exception {
        int recv;
        try (DebugSession probe = DebugSessionTest.seed(List.of(), true)) {
            recv = DebugSessionTest.p2p(probe.program(1), P2PCommunication.Type.RECV).id();
        }
        List<Breakpoint> breakpoints = List.of(new Breakpoint(recv, OptionalInt.of(1), OptionalLong.of(0)));
        for (int run = 0; run < 40; run++) {
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                try (DebugSession s = DebugSessionTest.seed(breakpoints, false)) {
                    AtomicBoolean stopped = new AtomicBoolean();
                    Thread studio = Thread.ofPlatform().start(() -> {
                        while (!stopped.get()) s.setBreakpoints(breakpoints);
                    });
                    DebugStop stop = s.awaitStop();
                    stopped.set(true);
                    studio.join();
                    assertEquals(RankState.SUSPENDED, stop.rank(1).state(), "rank 1 passed its breakpoint: " + stop);
                    assertEquals(StopReason.BREAKPOINT, stop.rank(1).reason().orElseThrow());
                    assertEquals(recv, stop.rank(1).at().orElseThrow().node().id());
                    assertEquals(0, stop.rank(1).at().orElseThrow().iteration());
                    s.resume(List.of(0, 1));
                    assertTrue(s.awaitStop().ended());
                }
            });
        }
    }
}
