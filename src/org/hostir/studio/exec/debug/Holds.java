package org.hostir.studio.exec.debug;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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
    /**
     * Replaced whole, never emptied and filled again: the Studio sets the breakpoints again whenever the workspace
     * says one changed, which it may say while ranks run, and a rank checking them in between would see none and
     * pass its breakpoint (DebugBreakpointsReplacedTest).
     */
    private volatile List<Breakpoint> breakpoints;
    private final BiPredicate<Breakpoint, ProgramPosition> teamOf;
    private final Meetings meetings;
    private boolean terminated;

    /**
     * {@code teamOf}: whether a team-wide breakpoint holds a rank it does not name ({@link CommunicationTeam});
     * {@code meetings}: null, or the rule that a rank posts a communication only with its whole team.
     */
    Holds(Collection<Integer> ranks, List<Breakpoint> breakpoints, boolean suspendAtStart,
          BiPredicate<Breakpoint, ProgramPosition> teamOf, Meetings meetings) {
        this.teamOf = teamOf;
        this.meetings = meetings;
        for (int r : ranks) {
            Rank c = new Rank();
            if (suspendAtStart) c.stepping = Stepping.SUSPEND;
            this.ranks.put(r, c);
        }
        this.breakpoints = List.copyOf(breakpoints);
    }

    List<Breakpoint> breakpoints() { return breakpoints; }

    void setBreakpoints(List<Breakpoint> now) { breakpoints = List.copyOf(now); }

    /** On rank {@code at.rank()}'s host thread: holds it here while the stepping rules say so. */
    synchronized void before(ProgramPosition at) {
        if (terminated) throw new Terminated();
        Rank c = ranks.get(at.rank());
        StopReason why = reason(c, at);
        if (why != null) hold(c, at, why);
        if (meetings == null) return;
        boolean met = meetings.arrive(at.rank(), TransferPlan.Site.of(at));
        letMetGo();
        if (!met) hold(c, at, StopReason.TEAM);
    }

    /** Holds the rank at {@code at} until a command (or, for {@link StopReason#TEAM}, its team) lets it go. */
    private void hold(Rank c, ProgramPosition at, StopReason why) {
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

    /** The ranks held for their team whose team is now all there: running again, before their threads wake. */
    private void letMetGo() {
        if (meetings == null) return;
        ranks.forEach((r, c) -> {
            if (c.reason == StopReason.TEAM && !meetings.waits(r)) {
                c.state = RankState.RUNNING;
                c.at = null;
                c.reason = null;
            }
        });
        notifyAll();
    }

    /** Lets the held ones of {@code which} go, each doing {@code how} until it is held again. */
    synchronized void release(Collection<Integer> which, Stepping how) {
        for (int r : which) {
            Rank c = rank(r);
            if (c.state != RankState.SUSPENDED || c.reason == StopReason.TEAM) continue;
            c.stepping = how;
            c.stepDepth = c.at.depth();
            c.state = RankState.RUNNING;
            c.at = null;
            c.reason = null;
        }
        notifyAll();
    }

    /**
     * Where ranks post communications only with their team: adds to {@code which} the ranks a step of it takes
     * along (team stepping: a rank held before a node that posts communications takes the members held at their
     * part of them, closed over theirs), or says why the step cannot be taken: a member held elsewhere that this
     * command does not move, or ended, for which the step would wait. A member the same command moves (the group
     * stepped together) is waited for: the rank is held for its team until that member gets to its part. {@code node} names rank's node of an id.
     */
    synchronized Optional<String> team(Set<Integer> which, BiFunction<Integer, Integer, String> node) {
        Deque<Integer> todo = new ArrayDeque<>(which);
        while (!todo.isEmpty()) {
            int r = todo.pop();
            Rank c = ranks.get(r);
            if (c == null || c.state != RankState.SUSPENDED || c.reason == StopReason.TEAM) continue;
            for (Meetings.Unmet u : meetings.pending(r, TransferPlan.Site.of(c.at))) {
                for (int o : u.absent()) {
                    Rank p = ranks.get(o);
                    Optional<TransferPlan.Site> part = meetings.siteOf(o, u.meeting());
                    boolean held = p != null && p.state == RankState.SUSPENDED && p.reason != StopReason.TEAM;
                    if (held && part.isPresent() && part.get().equals(TransferPlan.Site.of(p.at))) {
                        if (which.add(o)) todo.push(o);
                    } else if (held && which.contains(o)) {
                        // o moves in this same command (a group step): r waits for its team until o gets there
                        continue;
                    } else if (p == null || held || p.state.doneIssuing()) {
                        String its = part.map(s -> node.apply(o, s.nodeId())).orElse("its part");
                        return Optional.of("rank " + r + "'s step over " + node.apply(r, c.at.node().id())
                                + " would wait for rank " + o + (held ? ", held at " + node.apply(o,
                                p.at.node().id()) + " before " + its + ": step rank " + o + " to " + its
                                + " first (then both go through together), or resume it"
                                : ", which will not post " + its + " (it has ended)"));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** The ranks held for their team now, each with what it waits for. */
    synchronized Map<Integer, List<Meetings.Unmet>> teamWaits() {
        Map<Integer, List<Meetings.Unmet>> out = new TreeMap<>();
        if (meetings == null) return out;
        ranks.forEach((r, c) -> {
            if (c.reason == StopReason.TEAM) out.put(r, meetings.unmet(r));
        });
        return out;
    }

    /** Whether some rank is held by the debugger (not for its team), that a command can let go. */
    synchronized boolean commandHeld() {
        return ranks.values().stream().anyMatch(c -> c.state == RankState.SUSPENDED && c.reason != StopReason.TEAM);
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
