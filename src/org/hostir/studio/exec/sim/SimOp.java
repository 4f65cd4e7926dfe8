package org.hostir.studio.exec.sim;

import java.util.Arrays;
import java.util.function.Consumer;

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

    private static final Role[] ROLES = Role.values();

    /*
     * The fields are sized so that an op takes 96 bytes, not 112: at 4,096 ranks of the all-pairs schedule about
     * 16 M ops are in flight at once (docs/simulation.md, "Done ops forgotten"); what few ops use is in {@link Rare}.
     */
    final int rank;
    final short stream;
    /** Shared by the ops that it describes alike ({@link SimBackend#shared}). */
    OpInfo info;
    private final byte role;
    /** Its duration alone (kernels and copies); collectives and transfers are timed when they match. */
    final double baseUs;
    /** Its position among its rank's ops. */
    int seq;
    double issueUs;
    /** What waits for this op: most ops have one or two, so the first is a field (millions of ops at scale). */
    private SimOp firstDependent;
    /**
     * The others, in the order they came: null, one {@code SimOp}, or a {@code SimOp[]} (full) for more; a list here
     * cost an {@code ArrayList} and its array, about 60 bytes, for nearly every exchange of an all-pairs schedule.
     */
    private Object moreDependents;
    int waitingFor;
    /** Done and its dependents told: an op that follows it later needs only its end ({@link EventSimulation}). */
    boolean released;
    double readyUs;
    double startUs = Double.NaN;
    double endUs = Double.NaN;
    /** A running compute kernel's solo time still to go ({@link GpuShare}). */
    double remainingUs;
    /** The transfers of this op's coalesced group (send or receive side), or null. */
    Transfer[] transfers;
    /** What few ops have, or null. */
    private Rare rare;

    /** The fields few ops use: collectives, ops kept under a symmetry, groups that are both sides of a transfer. */
    private static final class Rare {
        /** The positions of the ops it follows, kept on the ranks a {@link Symmetry} checks others against. */
        int[] deps;
        /** The collective this op is one rank's part of. */
        CollectiveMatch collective;
        /**
         * Whether this op sends (else receives) each of its transfers, kept only where a transfer cannot tell, this
         * op being both its sides: under a {@link Symmetry} one rank may hold both sides of one kept transfer (its
         * send to r + s stands for its receive from r - s shifted). Else null, and {@link #sends} reads the transfer.
         */
        boolean[] sending;
    }
    /**
     * The P2PCommunication node that posted each transfer (a coalesced group's bars name those, not the
     * EndCoalescing), or null where each is the op's own node; one array shared by a rank's groups of the same nodes.
     */
    int[] nodes;

    SimOp(int rank, int stream, OpInfo info, Role role, double baseUs) {
        if (stream > Short.MAX_VALUE) throw new IllegalArgumentException("stream " + stream);
        this.rank = rank;
        this.stream = (short) stream;
        this.info = info;
        this.role = (byte) role.ordinal();
        this.baseUs = baseUs;
    }

    Role role() { return ROLES[role]; }

    int[] deps() { return rare == null ? null : rare.deps; }

    void deps(int[] positions) { rare().deps = positions; }

    /** The collective this op is one rank's part of, or null. */
    CollectiveMatch collective() { return rare == null ? null : rare.collective; }

    void collective(CollectiveMatch match) { rare().collective = match; }

    /** Which side of each transfer this op is, where this op is both sides of one of them ({@link Rare#sending}). */
    void sending(boolean[] sides) { rare().sending = sides; }

    private Rare rare() {
        if (rare == null) rare = new Rare();
        return rare;
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
            dependency.moreDependents = switch (dependency.moreDependents) {
                case null -> this;
                case SimOp one -> new SimOp[] {one, this};
                case SimOp[] more -> {
                    SimOp[] grown = Arrays.copyOf(more, more.length + 1);
                    grown[more.length] = this;
                    yield grown;
                }
                default -> throw new IllegalStateException();
            };
        }
        waitingFor++;
    }

    /** Calls {@code action} on every op that waits for this one, in the order they came. */
    void forEachDependent(Consumer<SimOp> action) {
        if (firstDependent != null) action.accept(firstDependent);
        switch (moreDependents) {
            case null -> { }
            case SimOp one -> action.accept(one);
            case SimOp[] more -> {
                for (SimOp d : more) action.accept(d);
            }
            default -> throw new IllegalStateException();
        }
    }

    /**
     * Forgets what waited for this op, once told: an op that follows it later reads its end ({@link #after}), and a
     * done op reachable from a live one (a stream's waits, a transfer) no longer keeps every later op alive through
     * its dependents (at 4,096 ranks of the all-pairs schedule that chain held nearly every op of the run).
     */
    void forgetDependents() {
        firstDependent = null;
        moreDependents = null;
    }

    /** Whether this op sends (else receives) its {@code i}-th transfer. */
    boolean sends(int i) {
        boolean[] sending = rare == null ? null : rare.sending;
        return sending != null ? sending[i] : transfers[i].send == this;
    }

    /** The node of this op's {@code i}-th transfer's bar. */
    int node(int i) { return nodes != null ? nodes[i] : info.nodeId(); }

    boolean done() { return !Double.isNaN(endUs); }

    String describe() {
        return "rank " + rank + " stream " + stream + ": " + info.name() + " (node " + info.nodeId()
                + (info.iteration() >= 0 ? ", iteration " + info.iteration() : "") + ")";
    }
}
