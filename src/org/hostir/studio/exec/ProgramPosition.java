package org.hostir.studio.exec;

import java.util.List;

import org.hostir.studio.ir.host.HostNode;

/**
 * Where a rank's evaluator is: the node it is about to issue, how deep that node is nested (0 at the top level;
 * a loop's or branch's body is one deeper) and the enclosing loops, outermost first, with their iterations.
 */
public record ProgramPosition(int rank, HostNode node, int depth, List<LoopFrame> loops) {
    public ProgramPosition {
        loops = List.copyOf(loops);
    }

    /** The innermost loop's iteration, -1 outside every loop. */
    public long iteration() { return loops.isEmpty() ? -1 : loops.getLast().index(); }
}
