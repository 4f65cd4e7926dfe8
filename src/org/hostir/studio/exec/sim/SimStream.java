package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.exec.BackendStream;

/**
 * A stream of the simulation: its last op (the next one follows it) and the events its next op must wait for.
 */
final class SimStream implements BackendStream {
    private final int index;
    SimOp last;
    final List<SimOp> waits = new ArrayList<>(2);

    SimStream(int index) { this.index = index; }

    @Override
    public int index() { return index; }
}
