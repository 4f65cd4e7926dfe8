package org.hostir.studio.trace.analysis;

import java.util.List;
import java.util.Map;

/**
 * A top-level node of one rank's Host IR program, as nvFuser's evaluator dispatches them in order: its position,
 * its node id, its op string (nvFuser's {@code getOpString()} without the {@code hir::}/{@code kir::}
 * namespace: {@code Communication}, {@code LaunchKernel}, {@code ForLoop}) and the nodes nested in it (a loop's
 * body: id to op), whose bars in the Studio's own traces are work of this node. The front end that lowered or read
 * the program makes these; {@link NodeMatching} ties an imported trace's dispatch ranges to them and
 * {@link TraceComparison} aligns two runs by them. {@code coalesced}: the sends and receives of the coalesced groups
 * this node closes (it, or an EndCoalescing nested in it), which name older traces' bars by their group.
 */
public record ProgramNode(int rank, int index, int nodeId, String op, Map<Integer, String> within,
                          List<CoalescedSide> coalesced) {
    public ProgramNode {
        within = Map.copyOf(within);
        coalesced = List.copyOf(coalesced);
    }

    /** A node without coalesced transfers. */
    public ProgramNode(int rank, int index, int nodeId, String op, Map<Integer, String> within) {
        this(rank, index, nodeId, op, within, List.of());
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

    /**
     * The node a transfer bar naming {@code barNode} is work of. A trace recorded before the Studio named each
     * coalesced send and receive by its P2PCommunication (nvFuser posts each there, csrc/host_ir/evaluator.cpp:404-431
     * at 81c4b22fd) names the group's EndCoalescing instead: then the group's one side of that direction and peer
     * (or of that direction alone where the peer is computed); else, or if that is not one node, {@code barNode}.
     */
    public int postedBy(int barNode, boolean send, int peer) {
        List<CoalescedSide> sides = coalesced.stream()
                .filter(c -> c.endId() == barNode && c.send() == send && (c.peer() < 0 || c.peer() == peer)).toList();
        List<Integer> ids = sides.stream().map(CoalescedSide::nodeId).distinct().toList();
        return ids.size() == 1 ? ids.getFirst() : barNode;
    }
}
