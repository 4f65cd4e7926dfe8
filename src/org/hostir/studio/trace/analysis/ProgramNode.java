package org.hostir.studio.trace.analysis;

import java.util.Map;

/**
 * A top-level node of one rank's Host IR program, as nvFuser's evaluator dispatches them in order: its position,
 * its node id, its op string (nvFuser's {@code getOpString()} without the {@code hir::}/{@code kir::}
 * namespace: {@code Communication}, {@code LaunchKernel}, {@code ForLoop}) and the nodes nested in it (a loop's
 * body: id to op), whose bars in the Studio's own traces are work of this node. The front end that lowered or read
 * the program makes these; {@link NodeMatching} ties an imported trace's dispatch ranges to them and
 * {@link TraceComparison} aligns two runs by them.
 */
public record ProgramNode(int rank, int index, int nodeId, String op, Map<Integer, String> within) {
    public ProgramNode {
        within = Map.copyOf(within);
    }

    /** A node whose nested nodes are not known (or that has none). */
    public ProgramNode(int rank, int index, int nodeId, String op) {
        this(rank, index, nodeId, op, Map.of());
    }

    /** An op string as nvFuser's ranges spell it ({@code hir::Wait}) or as the program does ({@code Wait}). */
    public static String bare(String op) {
        return op.replaceFirst("^(hir|kir)::", "");
    }

    /** How a comparison names the node, the same for every side: {@code ForLoop #4 (node 20)}. */
    public String label() {
        return bare(op) + " #" + index + " (node " + nodeId + ")";
    }

    /** A node nested in this one, named under it: {@code ForLoop #4 (node 20) > HostOp 1}. */
    public String label(int nested) {
        return nested == nodeId || !within.containsKey(nested) ? label() : label() + " > " + within.get(nested) + " " + nested;
    }
}
