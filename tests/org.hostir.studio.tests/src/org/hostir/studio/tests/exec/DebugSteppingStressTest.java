package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.exec.debug.Breakpoint;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.debug.RankState;
import org.hostir.studio.exec.debug.RankStop;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.Wait;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The step/resume protocol under repetition, at the engine (issue 37: presses the Debug view seemed to lose): a
 * group step over every rank, then a resume of every rank, again and again, on seed 000 (ag_matmul_p2p) with
 * breakpoints on its transfers and waits, and on the deadlocking example (examples/debug, both sends first). Every
 * command must be answered by a stop within {@link #STOP_WITHIN_SECONDS}, no rank running at a stop, and every
 * round must see the same stops (they depend on the program and the commands, never on thread timing). CI runs
 * {@link #ROUNDS} rounds of each; {@code -Dhirstudio.debugStress.rounds=N} runs more.
 */
class DebugSteppingStressTest {
    private static final int ROUNDS = Integer.getInteger("hirstudio.debugStress.rounds", 8);
    private static final long STOP_WITHIN_SECONDS = 20;
    private static final ExecutorService WAITER = Executors.newVirtualThreadPerTaskExecutor();

    @AfterAll
    static void stopWaiter() { WAITER.shutdownNow(); }

    /** The stop that answers {@code command}, or a failure naming the command when none comes in time. */
    private static DebugStop answer(DebugSession s, String command, int round) throws Exception {
        Future<DebugStop> stop = WAITER.submit(s::awaitStop);
        try {
            return stop.get(STOP_WITHIN_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException lost) {
            stop.cancel(true);
            throw new AssertionError("round " + round + ": no stop " + STOP_WITHIN_SECONDS + " s after " + command);
        }
    }

    /** A stop in words that do not depend on timing: each rank's state, node, iteration and reason. */
    private static String describe(DebugStop stop) {
        StringBuilder out = new StringBuilder(stop.ended() ? "ended" : stop.stuck() ? "stuck" : "stop");
        for (RankStop r : stop.ranks()) {
            assertFalse(r.state() == RankState.RUNNING, "a rank running at a stop: " + stop);
            out.append(" | ").append(r.rank()).append(' ').append(r.state());
            r.at().ifPresent(at -> out.append(" at ").append(at.node().id()).append(':').append(at.iteration()));
            r.reason().ifPresent(why -> out.append(' ').append(why));
        }
        return out.toString();
    }

    /**
     * From every rank held at its start: a group step, then a resume, until the run ends or, stuck, has answered
     * {@code stuckCommands} more commands with a stop; then terminates. The stops, described.
     */
    private static List<String> drive(DebugSession s, int round, int stuckCommands) throws Exception {
        List<String> stops = new ArrayList<>();
        DebugStop stop = answer(s, "the start", round);
        stops.add(describe(stop));
        int afterStuck = 0;
        for (int command = 0; !stop.ended(); command++) {
            if (stop.stuck() && afterStuck++ == stuckCommands) {
                s.terminate();
                stop = answer(s, "terminate", round);
            } else if (command % 2 == 0) {
                s.stepOver(s.ranks());
                stop = answer(s, "a group step (command " + command + ")", round);
            } else {
                s.resume(s.ranks());
                stop = answer(s, "a resume (command " + command + ")", round);
            }
            stops.add(describe(stop));
            if (command > 10_000) fail("round " + round + ": no end after 10,000 commands");
        }
        return stops;
    }

    private static List<Breakpoint> transfersAndWaits(HostIrContainer program) {
        return program.allNodes().stream().filter(n -> n instanceof P2PCommunication || n instanceof Wait)
                .map(n -> Breakpoint.at(n.id())).toList();
    }

    /** Breakpoints on the transfers and waits (a resume runs past the other nodes), then on every node. */
    @Test
    void seed000AnswersEveryGroupStepAndResumeWithTheSameStops() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", 2, Map.of());
        Compilation compilation = Engine.compile(loaded, SeedGeneration.DEFAULTS);
        List<Breakpoint> some = transfersAndWaits(compilation.program(0));
        List<Breakpoint> every = compilation.program(0).allNodes().stream().map(n -> Breakpoint.at(n.id())).toList();
        assertTrue(roundsOfTheSameStops(loaded, compilation, some).size() > 5);
        assertTrue(roundsOfTheSameStops(loaded, compilation, every).size() > 20);
    }

    /** {@link #ROUNDS} rounds of {@link #drive}, each validated and seeing round 0's stops; those stops. */
    private static List<String> roundsOfTheSameStops(LoadedFusion loaded, Compilation compilation,
                                                     List<Breakpoint> breakpoints) throws Exception {
        List<String> first = null;
        for (int round = 0; round < ROUNDS; round++) {
            try (DebugSession s = Engine.debug(loaded, compilation, breakpoints, true, 7)) {
                List<String> stops = drive(s, round, 0);
                assertTrue(s.validation().orElseThrow().passed(), "round " + round + ": " + s.validation());
                if (first == null) first = stops;
                assertEquals(first, stops, "round " + round + " saw other stops than round 0");
            }
        }
        return first;
    }

    @Test
    void theDeadlockAnswersEveryCommandEvenStuckWithTheSameStops() throws Exception {
        LoadedFusion loaded = Runs.load("communication/send_recv_swapped", 2, Map.of());
        var programs = Engine.dumpPrograms(TestPaths.repo("examples/debug/send_recv_swapped_sends_first.txt"), 2);
        List<String> first = null;
        for (int round = 0; round < ROUNDS; round++) {
            try (DebugSession s = Engine.debug(loaded, programs, 1, transfersAndWaits(programs.get(0)), true, 7)) {
                List<String> stops = drive(s, round, 4);
                assertTrue(stops.stream().filter(d -> d.startsWith("stuck")).count() == 5, stops.toString());
                if (first == null) first = stops;
                assertEquals(first, stops, "round " + round + " saw other stops than round 0");
            }
        }
    }
}
