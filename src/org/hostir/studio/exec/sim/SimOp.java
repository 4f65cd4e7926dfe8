package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.exec.BackendEvent;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.Work;

/**
 * One piece of device work in simulated time: a kernel, a copy, a collective's part on one rank, a coalesced
 * group of transfers, or a join (a stream waiting for events, invisible). It may start once the host has issued it
 * ({@code issueUs}), the previous work of its stream is done and every event it waits for has been reached; the
 * simulation fills in start and end. As an event or a work handle it stands for "this op is done".
 */
final class SimOp implements BackendEvent, Work {
    /** What an op occupies on its GPU, which decides how it contends with others. */
    enum Role { KERNEL, NCCL, COPY_ENGINE, JOIN }

    final int rank;
    final int stream;
    /** Shared by the ops that it describes alike ({@link SimBackend#shared}). */
    OpInfo info;
    final Role role;
    /** Its duration alone (kernels and copies); collectives and transfers are timed when they match. */
    final double baseUs;
    /** Its position among its rank's ops. */
    int seq;
    /** The positions of the ops it follows, kept on the ranks a {@link Symmetry} checks others against, else null. */
    int[] deps;
    double issueUs;
    /** What waits for this op: most ops have one or two, so the first is a field (millions of ops at scale). */
    private SimOp firstDependent;
    private List<SimOp> moreDependents;
    int waitingFor;
    /** Done and its dependents told: an op that follows it later needs only its end ({@link EventSimulation}). */
    boolean released;
    double readyUs;
    double startUs = Double.NaN;
    double endUs = Double.NaN;
    /** A running compute kernel's solo time still to go ({@link GpuShare}). */
    double remainingUs;
    /** The collective this op is one rank's part of, or null. */
    CollectiveMatch collective;
    /** The transfers of this op's coalesced group (send or receive side), or null. */
    Transfer[] transfers;
    /**
     * Whether this op sends (else receives) each of its transfers: under a {@link Symmetry} one rank may hold both
     * sides of one kept transfer (its send to r + s stands for its receive from r - s shifted).
     */
    boolean[] sending;

    SimOp(int rank, int stream, OpInfo info, Role role, double baseUs) {
        this.rank = rank;
        this.stream = stream;
        this.info = info;
        this.role = role;
        this.baseUs = baseUs;
    }

    void after(SimOp dependency) {
        if (dependency == null || dependency == this) return;
        if (dependency.released) { // issued while the simulation runs, after what it follows ended
            readyUs = Math.max(readyUs, dependency.endUs);
            return;
        }
        if (dependency.firstDependent == null) {
            dependency.firstDependent = this;
        } else {
            if (dependency.moreDependents == null) dependency.moreDependents = new ArrayList<>(2);
            dependency.moreDependents.add(this);
        }
        waitingFor++;
    }

    /** Calls {@code action} on every op that waits for this one. */
    void forEachDependent(java.util.function.Consumer<SimOp> action) {
        if (firstDependent != null) action.accept(firstDependent);
        if (moreDependents != null) moreDependents.forEach(action);
    }

    boolean done() { return !Double.isNaN(endUs); }

    String describe() {
        return "rank " + rank + " stream " + stream + ": " + info.name() + " (node " + info.nodeId()
                + (info.iteration() >= 0 ? ", iteration " + info.iteration() : "") + ")";
    }
}
