package org.hostir.studio.exec.sim;

import java.util.function.Consumer;
import java.util.function.IntPredicate;

import org.hostir.studio.ir.host.CudaBackendSettings;
import org.hostir.studio.exec.CollectivePriority;

/**
 * The discrete-event simulation of every rank's ops (docs/simulation.md, "Simulation"): an op becomes ready when
 * the host has issued it and everything it follows is done; ready ops start in time order. A kernel then lasts
 * its cost; a collective's part waits for every rank's part and the data moves from the last one's arrival; a
 * coalesced group's transfers each move once both sides' groups have started. Overlapping NCCL kernels and
 * compute kernels on one GPU slow each other by the profile's contention factors, except that a collective the
 * CUDA backend runs at stream priority ({@link CollectivePriority}) takes its SMs first and is not slowed. Nothing
 * sleeps: time is a number. What never completes (a collective a rank never posted, a receive without its send) is reported.
 */
final class EventSimulation {
    private final HardwareProfile profile;
    /** The CUDA backend's transport and multicast protocol ({@code backend=cuda}). */
    private final CudaBackendSettings cuda;
    private final int period;
    /** Told of each collective once all its parts have arrived and agree: nothing will look it up again. */
    private final Consumer<CollectiveMatch> matched;
    private final EventQueue<SimOp> queue = new EventQueue<>();
    private final GpuShare share;
    /** Whether NCCL collectives run at stream priority, as the CUDA backend of this JVM would run them. */
    private final boolean ncclCollectivesFirst = CollectivePriority.configured().covers(false);
    private double lastTime;
    /** The parked rank whose op the last {@link #advance(double, IntPredicate)} stopped after, or -1. */
    int woke = -1;
    private long inFlight;
    private final int[] inFlightOf;
    private long peakInFlight;
    private double lastEndUs;
    private String failure;

    /** {@code period}: the ranks simulated, each standing for those a multiple of it apart ({@link Symmetry}). */
    EventSimulation(HardwareProfile profile, CudaBackendSettings cuda, int ranks, int period,
                    Consumer<CollectiveMatch> matched) {
        this.profile = profile;
        this.cuda = cuda;
        this.period = period;
        this.matched = matched;
        this.inFlightOf = new int[period];
        this.share = new GpuShare(ranks, profile.contention().computeSlowdown(), k -> push(k.endUs, k, true));
    }

    /**
     * {@code op} has been issued by its rank's host (its dependencies were given when it was enqueued): it waits
     * for them, or is ready now. Ops may be issued while the simulation runs ({@link #advance}), as long as none is
     * issued before the time the simulation has reached.
     */
    void issued(SimOp op) {
        peakInFlight = Math.max(peakInFlight, ++inFlight);
        inFlightOf[op.rank]++;
        op.readyUs = Math.max(op.readyUs, op.issueUs);
        if (op.waitingFor == 0) push(op.readyUs, op, false);
    }

    /**
     * Runs every event before {@code untilUs} (all of them for infinity): no op issued later can change them, when
     * every later op is issued at {@code untilUs} or after. Returns why the simulation cannot go on, or null.
     */
    String advance(double untilUs) { return advance(untilUs, null); }

    /**
     * As {@link #advance(double)}, but stops right after the release of an op of a rank that {@code wakes}: a rank
     * whose walk was parked while all it could issue waited for its own unreleased ops ({@link SimDevice#blocked})
     * and no longer does; it must walk on before anything later is simulated. {@link #woke} then names it; else -1.
     */
    String advance(double untilUs, IntPredicate wakes) {
        woke = -1;
        while (!queue.isEmpty() && failure == null && queue.firstTime() < untilUs) {
            double t = queue.firstTime();
            SimOp op = queue.firstOp();
            boolean finish = queue.firstFinish();
            queue.removeFirst();
            if (finish && t != op.endUs) continue; // rescheduled by the GPU share: a later event
            lastTime = t;
            if (finish) {
                ended(op, t);
                release(op, t);
                if (wakes != null && wakes.test(op.rank)) {
                    woke = op.rank;
                    return failure;
                }
            } else {
                start(op, t);
            }
        }
        return failure;
    }

    /** The latest end of an op released so far (its end is final then). */
    double lastEndUs() { return lastEndUs; }

    /** The most ops issued and not yet released at once: what the simulation must hold ({@link RankLockstep}). */
    long peakInFlight() { return peakInFlight; }

    /** The ops of simulated rank {@code rank} issued and not yet released. */
    int inFlight(int rank) { return inFlightOf[rank]; }

    private void release(SimOp op, double t) {
        inFlight--;
        inFlightOf[op.rank]--;
        op.released = true;
        lastEndUs = Math.max(lastEndUs, t);
        op.forEachDependent(d -> {
            d.readyUs = Math.max(d.readyUs, t);
            if (--d.waitingFor == 0) push(Math.max(d.readyUs, d.issueUs), d, false);
        });
        op.forgetDependents();
    }

    private void start(SimOp op, double t) {
        op.startUs = t;
        if (op.collective() != null) {
            arrive(op, t);
        } else if (op.transfers != null) {
            for (Transfer x : op.transfers) {
                if (Double.isNaN(x.endUs) && x.bothPosted()) move(x, t); // not moved yet
            }
            completeIfMoved(op, t);
        } else if (op.role() == SimOp.Role.KERNEL) {
            share.start(op, op.baseUs, t); // its end follows from the kernels it shares the GPU with
        } else {
            finish(op, t + op.baseUs);
        }
    }

    private void arrive(SimOp op, double t) {
        CollectiveMatch m = op.collective();
        if (++m.arrived < m.expected) return;
        if (m.parts.size() != m.expected) {
            failure = "collective #" + m.sequence + " of team " + m.team + " was posted by ranks " + m.parts.keySet()
                    + ", which is not the team";
            return;
        }
        failure = m.disagreement();
        if (failure != null) return;
        matched.accept(m);
        boolean nccl = op.role() == SimOp.Role.NCCL;
        double base = CommunicationCost.onMulticast(cuda, m.type())
                ? CommunicationCost.multicastUs(profile, cuda.multicast(), m.type(), m.team, m.bytes())
                : op.role() == SimOp.Role.COPY_ENGINE
                ? CommunicationCost.copyEngineCollectiveUs(profile, m.type(), m.team, m.bytes())
                : CommunicationCost.collectiveUs(profile, m.type(), m.team, m.bytes());
        double worst = 0;
        for (CollectiveMatch.Part p : m.parts.values()) {
            if (nccl && !ncclCollectivesFirst) {
                worst = Math.max(worst, share.computeOverlapUs(p.op().rank, t, t + base));
            }
        }
        double end = t + base + worst * profile.contention().ncclSlowdown();
        for (CollectiveMatch.Part p : m.parts.values()) {
            finish(p.op(), end);
        }
    }

    private void move(Transfer x, double t) {
        if (x.sendBytes != x.recvBytes) {
            failure = "rank " + x.to + " receives " + x.recvBytes + " bytes from " + x.from + ", which sent "
                    + x.sendBytes + " (transfer #" + x.sequence + ")";
            return;
        }
        boolean nccl = x.send.role() == SimOp.Role.NCCL;
        double base = nccl ? CommunicationCost.p2pUs(profile, x.from, x.to, x.sendBytes, false)
                : CommunicationCost.cudaP2pUs(profile, x.from, x.to, x.sendBytes, cuda.transport());
        double overlap = !nccl ? 0 : Math.max(share.computeOverlapUs(x.from, t, t + base),
                share.computeOverlapUs(x.to % period, t, t + base)); // the receiver, or the one it mirrors
        x.endUs = t + base + overlap * profile.contention().ncclSlowdown();

        completeIfMoved(x.send, t);
        completeIfMoved(x.recv, t);
    }

    /** Ends {@code op}'s group once all its transfers have moved; an NCCL group is one kernel that takes SMs. */
    private void completeIfMoved(SimOp op, double now) {
        if (op.done()) return;
        double end = op.startUs;
        for (Transfer x : op.transfers) {
            if (Double.isNaN(x.endUs)) return;
            end = Math.max(end, x.endUs);
        }
        finish(op, end);
    }

    /** An op whose end is known: NCCL kernels from now on slow the compute kernels of their GPU. */
    private void finish(SimOp op, double end) {
        op.endUs = end;
        if (op.role() == SimOp.Role.NCCL && end > op.startUs) share.ncclStarts(op.rank, Math.max(op.startUs,
                lastTime), end);
        push(end, op, true);
    }

    /** What ends at {@code t} gives its share of the GPU back. */
    private void ended(SimOp op, double t) {
        switch (op.role()) {
            case KERNEL -> share.end(op, t);
            case NCCL -> share.ncclEnds(op.rank, t);
            case COPY_ENGINE, JOIN -> { }
        }
    }

    private void push(double t, SimOp op, boolean finish) { queue.add(t, op, finish); }
}
