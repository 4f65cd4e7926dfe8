package org.hostir.studio.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.exec.BlockedStream;
import org.hostir.studio.exec.LoopFrame;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.debug.RankStop;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.exec.debug.TensorSummary;
import org.hostir.studio.exec.debug.WaitGraph;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;

/** {@code hirstudio debug}'s loop: print a stop, let every rank go (resume or step), until the run ends. */
final class DebugPrinter {
    private final DebugSession session;
    private final NvFuserGeneration generation;
    private final PrintStream out;
    private final Map<Integer, HostIrContainer> programs = new TreeMap<>();

    DebugPrinter(DebugSession session, NvFuserGeneration generation, PrintStream out) {
        this.session = session;
        this.generation = generation;
        this.out = out;
        for (int r : session.ranks()) programs.put(r, session.program(r));
    }

    /**
     * From {@code start} (every rank held before its first node), lets the ranks go after each stop
     * ({@code step}: none, over, into) and prints the stops (the start too when stepping); the exit code.
     */
    int drive(DebugStop start, String step, long maxStops) throws InterruptedException {
        long printed = 0;
        List<Integer> all = session.ranks();
        DebugStop stop = start;
        if (step.equals("none")) {
            session.resume(all);
            stop = session.awaitStop();
        }
        for (;; stop = session.awaitStop()) {
            if (stop.ended()) return ended(stop);
            if (stop.stuck()) {
                print(stop, ++printed);
                out.println("stuck: no rank can issue anything more and some stream waits; the run is terminated");
                session.terminate();
                session.awaitStop();
                return ExitCode.FAILED;
            }
            if (printed < maxStops) {
                print(stop, ++printed);
            } else if (printed == maxStops) {
                out.println("(" + maxStops + " stops printed, --max-stops; running to the end)");
                session.setBreakpoints(List.of());
                printed++;
                step = "none";
            }
            Optional<String> refused = switch (step) {
                case "over" -> session.stepOver(all);
                case "into" -> session.stepInto(all);
                default -> {
                    session.resume(all);
                    yield Optional.empty();
                }
            };
            if (refused.isPresent()) {
                out.println("refused: " + refused.get() + "; the run is terminated");
                session.terminate();
                session.awaitStop();
                return ExitCode.FAILED;
            }
        }
    }

    private int ended(DebugStop stop) {
        if (stop.failure().isPresent()) {
            out.println("failed: " + stop.failure().get());
            return ExitCode.FAILED;
        }
        var validation = session.validation();
        out.println("finished" + validation.map(v -> ": " + v.line()).orElse(""));
        return validation.map(v -> v.passed() ? ExitCode.OK : ExitCode.FAILED).orElse(ExitCode.OK);
    }

    void print(DebugStop stop, long n) {
        out.println("stop " + n);
        for (RankStop r : stop.ranks()) {
            out.println("  rank " + r.rank() + ": " + StopText.state(r));
            for (LoopFrame f : r.at().map(a -> a.loops()).orElse(List.of())) out.println("    " + StopText.loop(f));
            r.at().ifPresent(a -> out.println("    at: " + StopText.headline(a, generation)));
            for (TensorSummary t : session.tensors(r.rank())) out.println("    " + StopText.tensor(t));
            for (BlockedStream b : r.blocked()) out.println("    " + StopText.blocked(b));
        }
        for (WaitGraph.Edge e : stop.waits().edges()) out.println("  waits: " + StopText.edge(e, programs));
        for (WaitGraph.Cycle c : stop.waits().cycles()) out.println("  " + StopText.cycle(c, programs));
    }
}
