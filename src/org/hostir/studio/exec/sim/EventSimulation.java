package org.hostir.studio.exec.sim;

import java.util.List;
import java.util.PriorityQueue;

/**
 * The discrete-event simulation of every rank's ops (docs/simulation.md, "Simulation"): an op becomes ready when
 * the host has issued it and everything it follows is done; ready ops start in time order. A kernel then lasts
 * its cost; a collective's part waits for every rank's part and the data moves from the last one's arrival; a
 * coalesced group's transfers each move once both sides' groups have started. Overlapping NCCL kernels and
 * compute kernels on one GPU slow each other by the profile's contention factors. Nothing sleeps: time is a
 * number. What never completes (a collective a rank never posted, a receive without its send) is reported.
 */
final class EventSimulation {
    private record Event(double timeUs, long order, SimOp op, boolean finish) {}

    private final HardwareProfile profile;
    private final PriorityQueue<Event> queue = new PriorityQueue<>((a, b) -> a.timeUs() != b.timeUs()
            ? Double.compare(a.timeUs(), b.timeUs()) : Long.compare(a.order(), b.order()));
    private final SmOccupancy occupancy;
    private long order;
    private String failure;

    EventSimulation(HardwareProfile profile, int ranks) {
        this.profile = profile;
        this.occupancy = new SmOccupancy(ranks);
    }

    /** Runs {@code ops} to the end; returns why it could not finish every op, or null. */
    String run(List<SimOp> ops) {
        for (SimOp op : ops) {
            op.readyUs = Math.max(op.readyUs, op.issueUs);
            if (op.waitingFor == 0) push(op.readyUs, op, false);
        }
        while (!queue.isEmpty() && failure == null) {
            Event e = queue.poll();
            if (e.finish() && e.timeUs() != e.op().endUs) continue; // stretched by contention: a later event stands
            if (e.finish()) {
                release(e.op(), e.timeUs());
            } else {
                start(e.op(), e.timeUs());
            }
        }
        return failure != null ? failure : Unfinished.describe(ops);
    }

    private void release(SimOp op, double t) {
        for (SimOp d : op.dependents) {
            d.readyUs = Math.max(d.readyUs, t);
            if (--d.waitingFor == 0) push(Math.max(d.readyUs, d.issueUs), d, false);
        }
    }

    private void start(SimOp op, double t) {
        op.startUs = t;
        if (op.collective != null) {
            arrive(op, t);
        } else if (op.transfers != null) {
            for (Transfer x : op.transfers) {
                if (Double.isNaN(x.startUs) && x.bothPosted()) move(x, t);
            }
            completeIfMoved(op, t);
        } else {
            double base = op.baseUs;
            double us = base + (op.role == SimOp.Role.KERNEL
                    ? occupancy.ncclOverlapUs(op.rank, t, t + base) * profile.contention().computeSlowdown() : 0);
            finish(op, t + us);
        }
    }

    private void arrive(SimOp op, double t) {
        CollectiveMatch m = op.collective;
        if (++m.arrived < m.team.size()) return;
        if (m.parts.size() != m.team.size()) {
            failure = "collective #" + m.sequence + " of team " + m.team + " was posted by ranks " + m.parts.keySet()
                    + ", which is not the team";
            return;
        }
        failure = m.disagreement();
        if (failure != null) return;
        double base = CommunicationCost.collectiveUs(profile, m.type(), m.team, m.bytes());
        boolean nccl = op.role == SimOp.Role.NCCL;
        double worst = 0;
        for (CollectiveMatch.Part p : m.parts.values()) {
            if (nccl) worst = Math.max(worst, occupancy.kernelOverlapUs(p.op().rank, t, t + base));
        }
        double end = t + base + worst * profile.contention().ncclSlowdown();
        for (CollectiveMatch.Part p : m.parts.values()) {
            if (nccl) stretchRunningKernels(p.op().rank, t, end, t);
            finish(p.op(), end);
        }
    }

    private void move(Transfer x, double t) {
        if (x.sendBytes != x.recvBytes) {
            failure = "rank " + x.to + " receives " + x.recvBytes + " bytes from " + x.from + ", which sent "
                    + x.sendBytes + " (transfer #" + x.sequence + ")";
            return;
        }
        boolean nccl = x.send.role == SimOp.Role.NCCL;
        double base = CommunicationCost.p2pUs(profile, x.from, x.to, x.sendBytes, !nccl);
        double overlap = !nccl ? 0 : Math.max(occupancy.kernelOverlapUs(x.from, t, t + base),
                occupancy.kernelOverlapUs(x.to, t, t + base));
        x.startUs = t;
        x.endUs = t + base + overlap * profile.contention().ncclSlowdown();

        completeIfMoved(x.send, t);
        completeIfMoved(x.recv, t);
    }

    /** Ends {@code op}'s group once all its transfers have moved; an NCCL group is one kernel that takes SMs. */
    private void completeIfMoved(SimOp op, double now) {
        if (op.done()) return;
        double end = op.startUs, from = Double.POSITIVE_INFINITY;
        for (Transfer x : op.transfers) {
            if (Double.isNaN(x.endUs)) return;
            end = Math.max(end, x.endUs);
            from = Math.min(from, x.startUs);
        }
        if (op.role == SimOp.Role.NCCL && !op.transfers.isEmpty()) stretchRunningKernels(op.rank, from, end, now);
        finish(op, end);
    }

    private void finish(SimOp op, double end) {
        op.endUs = end;
        occupancy.add(op);
        push(end, op, true);
    }

    /**
     * An NCCL kernel running on {@code rank} over {@code [from, to]} slows the compute kernels still running there
     * at {@code now}: each ends later by its overlap with it times the contention factor (its finish event moves).
     * Kernels that already ended are left as they were (their dependents have started).
     */
    private void stretchRunningKernels(int rank, double from, double to, double now) {
        double slowdown = profile.contention().computeSlowdown();
        if (slowdown == 0) return;
        for (SimOp k : occupancy.running(rank, now)) {
            double overlap = Math.min(k.endUs, to) - Math.max(from, k.startUs);
            if (overlap <= 0) continue;
            k.endUs += overlap * slowdown;
            push(k.endUs, k, true);
        }
    }

    private void push(double t, SimOp op, boolean finish) { queue.add(new Event(t, order++, op, finish)); }
}
