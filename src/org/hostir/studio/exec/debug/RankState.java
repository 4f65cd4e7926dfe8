package org.hostir.studio.exec.debug;

/**
 * Where a rank's host is in a debugged run: issuing nodes, held before a node, done issuing (waiting for its
 * streams), done with its outputs, or ended by a failure or by the debugger.
 */
public enum RankState {
    RUNNING, SUSPENDED, DISPATCHED, FINISHED, FAILED, TERMINATED;

    /** Whether the rank's host will post nothing more (a wait of its streams on it cannot be met by its host). */
    public boolean doneIssuing() {
        return switch (this) {
            case DISPATCHED, FINISHED, FAILED, TERMINATED -> true;
            case RUNNING, SUSPENDED -> false;
        };
    }
}
