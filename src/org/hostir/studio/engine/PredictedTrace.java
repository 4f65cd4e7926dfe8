package org.hostir.studio.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.StartCoalescing;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.CoalescedSide;
import org.hostir.studio.trace.analysis.ProgramNode;
import org.hostir.studio.trace.analysis.TraceComparison;

/**
 * The comparisons of traces that need the program that ran, for every front end ({@code hirstudio trace diff},
 * the Timeline's Compare tab): the top-level nodes of each rank's program ({@link ProgramNode}s, which align two
 * runs by node), and a measured run compared with the simulator's prediction of the same fusion
 * ({@code run --backend sim} on a hardware profile, one iteration, not validated), node by node.
 */
public final class PredictedTrace {
    private PredictedTrace() {}

    /** A prediction: its trace and the programs it ran, as nodes. */
    public record Predicted(TraceRun run, List<ProgramNode> program) {
        public Predicted {
            program = List.copyOf(program);
        }
    }

    /** The top-level nodes of each rank's program, with the nodes nested in them. */
    public static List<ProgramNode> nodes(Map<Integer, HostIrContainer> programs) {
        List<ProgramNode> nodes = new ArrayList<>();
        new TreeMap<>(programs).forEach((rank, program) -> {
            List<HostNode> top = program.topLevel();
            List<CoalescedSide> sides = new ArrayList<>();
            coalesced(top, sides);
            // each node record is named as nvFuser's class (ir.host mirrors hir::), which getOpString() returns
            for (int i = 0; i < top.size(); i++) {
                Map<Integer, String> within = new HashMap<>();
                for (List<HostNode> body : top.get(i).bodies()) body.forEach(n -> nested(n, within));
                int id = top.get(i).id();
                List<CoalescedSide> closed = sides.stream()
                        .filter(c -> c.endId() == id || within.containsKey(c.endId())).toList();
                nodes.add(new ProgramNode(rank, i, id, top.get(i).getClass().getSimpleName(), within, closed));
            }
        });
        return nodes;
    }

    /** The sends and receives between each StartCoalescing and EndCoalescing of {@code body} and of its nested bodies. */
    private static void coalesced(List<HostNode> body, List<CoalescedSide> out) {
        List<P2PCommunication> open = null;
        for (HostNode n : body) {
            if (n instanceof StartCoalescing) open = new ArrayList<>();
            else if (n instanceof P2PCommunication p && open != null) open.add(p);
            else if (n instanceof EndCoalescing end && open != null) {
                for (P2PCommunication p : open) {
                    int peer = p.peer() instanceof Extent.Constant(long v) ? (int) v : -1;
                    out.add(new CoalescedSide(end.id(), p.id(), p.type() == P2PCommunication.Type.SEND, peer));
                }
                open = null;
            }
            for (List<HostNode> inner : n.bodies()) coalesced(inner, out);
        }
    }

    private static void nested(HostNode node, Map<Integer, String> ids) {
        ids.put(node.id(), node.getClass().getSimpleName());
        for (List<HostNode> body : node.bodies()) body.forEach(n -> nested(n, ids));
    }

    /** The Studio's lowering of every rank of {@code loaded} with {@code options}, as nodes. */
    public static List<ProgramNode> nodes(LoadedFusion loaded, LoweringOptions options) throws EngineFailure {
        Compilation compilation = Engine.compile(loaded, options);
        Map<Integer, HostIrContainer> programs = new TreeMap<>();
        for (int rank = 0; rank < compilation.devices(); rank++) {
            programs.put(rank, Engine.lowerRank(loaded, compilation, rank));
        }
        return nodes(programs);
    }

    /** The simulator's prediction of {@code loaded} with {@code options} on {@code profile} (a name or a file). */
    public static Predicted of(LoadedFusion loaded, LoweringOptions options, String profile, String file,
                               Consumer<String> progress) throws EngineFailure {
        int devices = loaded.bindings().devices();
        RunRequest request = new RunRequest(RunRequest.BackendChoice.SIM, devices, options, 1, 0, ValidationMode.OFF,
                RunRequest.DEFAULT_SEED, RunRequest.DEFAULT_TIMEOUT_MILLIS, false, Optional.empty(), false, profile);
        RunResult result = Engine.run(loaded, BackendPlan.choose(request, file), progress);
        String label = "predicted: " + loaded.fusion().name() + " on " + devices + " x " + profile + " (simulated)";
        return new Predicted(TraceRun.of(label, result.timeline()), nodes(result.programs()));
    }

    /** {@code measured} (A) compared with the prediction (B) of the fusion it ran, by the prediction's program. */
    public static TraceComparison compare(TraceRun measured, LoadedFusion loaded, LoweringOptions options,
                                          String profile, String file, Consumer<String> progress) throws EngineFailure {
        Predicted predicted = of(loaded, options, profile, file, progress);
        return TraceComparison.of(measured, predicted.run(), predicted.program());
    }
}
