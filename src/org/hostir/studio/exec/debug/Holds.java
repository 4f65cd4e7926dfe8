package org.hostir.studio.exec.debug;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiPredicate;

import org.hostir.studio.exec.ProgramPosition;

/**
 * Where each rank's host is held and what it does when let go: the stepping rules, behind one monitor. A rank's
 * host thread calls {@link #before} before each node (through the evaluator's hook) and waits there while held;
 * the front end lets ranks go with {@link #release} and asks to hold running ones with {@link #suspend}.
 */
final class Holds {
    /** Thrown on a host thread held (or about to be) when the debugger ends the run. */
    static final class Terminated extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Terminated() { super("terminated by the debugger", null, false, false); }
    }

    private static final class Rank {
        RankState state = RankState.RUNNING;
        Stepping stepping = Stepping.RESUME;
        int stepDepth;
        ProgramPosition at;
        StopReason reason;
    }

    private final Map<Integer, Rank> ranks = new TreeMap<>();
    private final List<Breakpoint> breakpoints = new CopyOnWriteArrayList<>();
    private final BiPredicate<Breakpoint, ProgramPosition> teamOf;
    private boolean terminated;

    /** {@code teamOf}: whether a team-wide breakpoint holds a rank it does not name ({@link CommunicationTeam}). */
    Holds(Collection<Integer> ranks, List<Breakpoint> breakpoints, boolean suspendAtStart,
          BiPredicate<Breakpoint, ProgramPosition> teamOf) {
        this.teamOf = teamOf;
        for (int r : ranks) {
            Rank c = new Rank();
            if (suspendAtStart) c.stepping = Stepping.SUSPEND;
            this.ranks.put(r, c);
        }
        this.breakpoints.addAll(breakpoints);
    }

    List<Breakpoint> breakpoints() { return List.copyOf(breakpoints); }

    void setBreakpoints(List<Breakpoint> now) {
        breakpoints.clear();
        breakpoints.addAll(now);
    }

    /** On rank {@code at.rank()}'s host thread: holds it here while the stepping rules say so. */
    synchronized void before(ProgramPosition at) {
        if (terminated) throw new Terminated();
        Rank c = ranks.get(at.rank());
        StopReason why = reason(c, at);
        if (why == null) return;
        c.state = RankState.SUSPENDED;
        c.at = at;
        c.reason = why;
        notifyAll();
        while (c.state == RankState.SUSPENDED && !terminated) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                terminated = true;
            }
        }
        if (terminated) throw new Terminated();
    }

    /** Why {@code at} holds the rank, or null: a breakpoint holds it whatever it was doing. */
    private StopReason reason(Rank c, ProgramPosition at) {
        boolean breakpoint = breakpoints.stream().anyMatch(b -> b.matches(at, teamOf));
        return switch (c.stepping) {
            case SUSPEND -> StopReason.SUSPEND;
            case STEP_INTO -> StopReason.STEP;
            case STEP_OVER -> at.depth() <= c.stepDepth ? StopReason.STEP : breakpoint ? StopReason.BREAKPOINT : null;
            case RESUME -> breakpoint ? StopReason.BREAKPOINT : null;
        };
    }

    /** Lets the held ones of {@code which} go, each doing {@code how} until it is held again. */
    synchronized void release(Collection<Integer> which, Stepping how) {
        for (int r : which) {
            Rank c = rank(r);
            if (c.state != RankState.SUSPENDED) continue;
            c.stepping = how;
            c.stepDepth = c.at.depth();
            c.state = RankState.RUNNING;
            c.at = null;
            c.reason = null;
        }
        notifyAll();
    }

    /** The running ones of {@code which} stop before their next node. */
    synchronized void suspend(Collection<Integer> which) {
        for (int r : which) {
            Rank c = rank(r);
            if (c.state == RankState.RUNNING) c.stepping = Stepping.SUSPEND;
        }
    }

    synchronized void terminate() {
        terminated = true;
        notifyAll();
    }

    synchronized boolean terminated() { return terminated; }

    synchronized void set(int r, RankState state) {
        rank(r).state = state;
        notifyAll();
    }

    synchronized RankState state(int r) { return rank(r).state; }

    synchronized Map<Integer, RankState> states() {
        Map<Integer, RankState> out = new TreeMap<>();
        ranks.forEach((r, c) -> out.put(r, c.state));
        return out;
    }

    synchronized Optional<ProgramPosition> position(int r) { return Optional.ofNullable(rank(r).at); }

    synchronized Optional<StopReason> reason(int r) { return Optional.ofNullable(rank(r).reason); }

    /** Waits up to {@code millis} for a change of any rank's state. */
    synchronized void awaitChange(long millis) throws InterruptedException { wait(millis); }

    private Rank rank(int r) {
        Rank c = ranks.get(r);
        if (c == null) throw new IllegalArgumentException("no rank " + r + " in this run");
        return c;
    }
}
