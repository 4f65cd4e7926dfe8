package org.hostir.studio.exec.debug;

/**
 * What a rank does when let go, until it is next held: run to a breakpoint, step over the node (its loop or branch
 * body included), step into it (a loop's next iteration, a branch's first node), or stop at the next node.
 */
public enum Stepping {
    RESUME, STEP_OVER, STEP_INTO, SUSPEND
}
