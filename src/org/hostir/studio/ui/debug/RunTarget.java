package org.hostir.studio.ui.debug;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.TreeMap;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarkerDelta;
import org.eclipse.debug.core.DebugEvent;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.model.IBreakpoint;
import org.eclipse.debug.core.model.IDebugTarget;
import org.eclipse.debug.core.model.IMemoryBlock;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.core.model.IStep;
import org.eclipse.debug.core.model.IThread;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.debug.RankState;
import org.hostir.studio.exec.debug.RankStop;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.exec.debug.Stepping;
import org.hostir.studio.exec.debug.WaitGraph;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;

/**
 * The debug target: one run of every rank of a fusion under the engine's {@link DebugSession}. A command (from a
 * rank's thread or the run itself) lets ranks go; a watcher thread then waits for the run to come to rest and
 * tells the Debug view (suspend events with the reason, state changes with what blocked ranks wait for). The
 * run's label names a deadlock by its Host IR nodes; the workspace's enabled breakpoints on this file are the
 * session's, kept in step as they are toggled.
 */
public final class RunTarget extends Element implements IDebugTarget, IStep {
    private final ILaunch launch;
    private final IFile file;
    private final IFile program;
    private final DebugSession session;
    private final NvFuserGeneration generation;
    private final List<RankThread> threads = new ArrayList<>();
    private final Map<Integer, HostIrContainer> programs = new TreeMap<>();
    private final Thread watcher;
    private volatile DebugStop last;
    private volatile boolean terminated;
    private int pending = 1;

    /** {@code program}: the Host IR dump every rank runs, or null for the lowering's programs. */
    RunTarget(ILaunch launch, IFile file, IFile program, DebugSession session, NvFuserGeneration generation) {
        super(null);
        this.launch = launch;
        this.file = file;
        this.program = program;
        this.session = session;
        this.generation = generation;
        for (int r : session.ranks()) {
            threads.add(new RankThread(this, r));
            programs.put(r, session.program(r));
        }
        watcher = Thread.ofPlatform().daemon().name("Host IR debugger " + file.getName()).unstarted(this::watch);
    }

    void start() {
        DebugPlugin.getDefault().getBreakpointManager().addBreakpointListener(this);
        fireCreationEvent();
        threads.forEach(t -> t.fireCreationEvent());
        watcher.start();
    }

    /** The engine's session (its validation once the run has ended). */
    public DebugSession session() { return session; }

    NvFuserGeneration generation() { return generation; }

    IFile file() { return file; }

    HostIrContainer program(int rank) { return programs.get(rank); }

    /** Every rank's program, by rank. */
    Map<Integer, HostIrContainer> programs() { return Map.copyOf(programs); }

    /** The latest stop (null before the first). */
    public DebugStop lastStop() { return last; }

    /** The enabled node breakpoints on this run's file, and on its dump's lines when it runs one. */
    List<NodeBreakpoint> breakpoints() { return breakpoints(file, program); }

    /** The enabled node breakpoints on {@code file}, and on {@code program} (a dump; null for none). */
    static List<NodeBreakpoint> breakpoints(IFile file, IFile program) {
        List<NodeBreakpoint> out = new ArrayList<>(allBreakpoints(file));
        if (program != null) out.addAll(allBreakpoints(program));
        return out.stream().filter(RunTarget::enabled).toList();
    }

    /** Every node breakpoint on {@code file}, enabled or not. */
    static List<NodeBreakpoint> allBreakpoints(IFile file) {
        return Arrays.stream(DebugPlugin.getDefault().getBreakpointManager().getBreakpoints(NodeBreakpoint.MODEL_ID))
                .filter(b -> b instanceof NodeBreakpoint n && file.equals(n.getMarker().getResource()))
                .map(NodeBreakpoint.class::cast).toList();
    }

    private static boolean enabled(IBreakpoint b) {
        try {
            return b.isEnabled();
        } catch (org.eclipse.core.runtime.CoreException e) {
            return false;
        }
    }

    /**
     * Lets {@code ranks} go (or asks them to stop at their next node) and has the watcher wait for the next stop;
     * a step the session refuses (on CUDA, one that would wait for a held peer) changes nothing and says why.
     */
    synchronized Optional<String> command(Collection<Integer> ranks, Stepping how) {
        if (terminated) return Optional.empty();
        Optional<String> refused = switch (how) {
            case RESUME -> {
                session.resume(ranks);
                yield Optional.empty();
            }
            case STEP_OVER -> session.stepOver(ranks);
            case STEP_INTO -> session.stepInto(ranks);
            case SUSPEND -> {
                session.suspend(ranks);
                yield Optional.empty();
            }
        };
        if (refused.isPresent()) return refused;
        if (how != Stepping.SUSPEND) {
            int detail = switch (how) {
                case STEP_OVER -> DebugEvent.STEP_OVER;
                case STEP_INTO -> DebugEvent.STEP_INTO;
                case RESUME, SUSPEND -> DebugEvent.CLIENT_REQUEST;
            };
            for (RankThread t : threads) {
                if (!ranks.contains(t.rank()) || !t.held()) continue;
                t.running(how != Stepping.RESUME);
                t.fireResumeEvent(detail);
            }
        }
        pending++;
        notifyAll();
        return Optional.empty();
    }

    private void watch() {
        try {
            while (!terminated) {
                synchronized (this) {
                    while (pending == 0) wait();
                    pending = 0;
                }
                show(session.awaitStop());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void show(DebugStop stop) {
        last = stop;
        if (stop.ended()) {
            ended();
            return;
        }
        for (RankThread t : threads) {
            RankStop r = stop.rank(t.rank());
            t.stopped(r, stop.stuck());
            if (t.isSuspended()) {
                // a rank blocked in a deadlock is shown as suspended there, as if asked to (its frames expanded)
                t.fireSuspendEvent(r.reason().map(why -> switch (why) {
                    case BREAKPOINT -> DebugEvent.BREAKPOINT;
                    case STEP -> DebugEvent.STEP_END;
                    case SUSPEND, TEAM -> DebugEvent.CLIENT_REQUEST;
                }).orElse(DebugEvent.CLIENT_REQUEST));
                // after a step the Debug view relabels only the top frame; the loop frames' indices change too
                t.fireChangeEvent(DebugEvent.CONTENT);
            } else {
                // its label and no frames: a rank stepped to the end of its program gets no suspend event, and
                // the Debug view would keep the frames of its last step
                t.fireChangeEvent(DebugEvent.CONTENT);
            }
        }
        fireChangeEvent(DebugEvent.STATE);
    }

    private void ended() {
        terminated = true;
        for (RankThread t : threads) {
            t.stopped(last.rank(t.rank()), false);
            t.fireTerminateEvent();
        }
        DebugPlugin.getDefault().getBreakpointManager().removeBreakpointListener(this);
        session.close();
        fireTerminateEvent();
    }

    /** {@code Host IR run of f.fusion (2 ranks)}, and a deadlock's cycle or who waits for whom once stopped. */
    @Override
    public String getName() {
        StringBuilder name = new StringBuilder("Host IR run of " + file.getName() + " (" + threads.size() + " ranks)");
        DebugStop s = last;
        if (s == null) return name.toString();
        if (s.ended()) {
            boolean byDebugger = s.ranks().stream().anyMatch(r -> r.state() == RankState.TERMINATED);
            return name.append(s.failure().map(f -> ": failed").orElse(byDebugger ? ": terminated" : ": finished"))
                    .toString();
        }
        for (WaitGraph.Cycle c : s.waits().cycles()) name.append(" \u2014 ").append(StopText.cycle(c, programs));
        return name.toString();
    }

    /** Who waits for whom at the latest stop, one line per edge, then the cycles. */
    public List<String> waits() {
        DebugStop s = last;
        if (s == null) return List.of();
        List<String> out = new ArrayList<>();
        s.waits().edges().forEach(e -> out.add(StopText.edge(e, programs)));
        s.waits().cycles().forEach(c -> out.add(StopText.cycle(c, programs)));
        return out;
    }

    @Override
    public IDebugTarget getDebugTarget() { return this; }

    @Override
    public ILaunch getLaunch() { return launch; }

    @Override
    public IProcess getProcess() { return null; }

    @Override
    public IThread[] getThreads() { return threads.toArray(IThread[]::new); }

    @Override
    public boolean hasThreads() { return !threads.isEmpty(); }

    @Override
    public boolean supportsBreakpoint(IBreakpoint breakpoint) { return breakpoint instanceof NodeBreakpoint; }

    @Override
    public boolean canTerminate() { return !terminated; }

    @Override
    public boolean isTerminated() { return terminated; }

    @Override
    public synchronized void terminate() {
        if (terminated) return;
        session.terminate();
        pending++;
        notifyAll();
    }

    @Override
    public boolean canResume() { return !terminated && threads.stream().anyMatch(RankThread::held); }

    @Override
    public boolean canSuspend() { return !terminated && threads.stream().anyMatch(RankThread::canSuspend); }

    @Override
    public boolean isSuspended() { return !terminated && threads.stream().allMatch(RankThread::isSuspended); }

    /** Every rank: "step the group" is each rank's step, given to all of them at once. */
    @Override
    public void resume() { command(session.ranks(), Stepping.RESUME); }

    @Override
    public void suspend() { command(session.ranks(), Stepping.SUSPEND); }

    /** Whether a group step can go: some rank is held before a node. */
    public boolean canStepGroup() { return canResume(); }

    /**
     * Steps the group: every rank held before a node steps over it, all let go at once, and the next stop is taken
     * when the run is at rest again (each of them held at its next node, blocked, or ended). F6 on the run in the
     * Debug view (the run is an {@link IStep}), or Step the Group in its toolbar.
     */
    public void stepGroup() { stepHeld(Stepping.STEP_OVER); }

    private void stepHeld(Stepping how) {
        command(threads.stream().filter(RankThread::held).map(RankThread::rank).toList(), how);
    }

    @Override
    public boolean canStepInto() { return canStepGroup(); }

    @Override
    public boolean canStepOver() { return canStepGroup(); }

    @Override
    public boolean canStepReturn() { return false; }

    @Override
    public boolean isStepping() { return threads.stream().anyMatch(RankThread::isStepping); }

    /** Every held rank steps into its node, at once (F5 on the run). */
    @Override
    public void stepInto() { stepHeld(Stepping.STEP_INTO); }

    @Override
    public void stepOver() { stepGroup(); }

    @Override
    public void stepReturn() { }

    @Override
    public void breakpointAdded(IBreakpoint breakpoint) { breakpointsChanged(); }

    @Override
    public void breakpointRemoved(IBreakpoint breakpoint, IMarkerDelta delta) { breakpointsChanged(); }

    @Override
    public void breakpointChanged(IBreakpoint breakpoint, IMarkerDelta delta) { breakpointsChanged(); }

    private void breakpointsChanged() {
        session.setBreakpoints(breakpoints().stream().map(NodeBreakpoint::toEngine).toList());
    }

    @Override
    public boolean canDisconnect() { return false; }

    @Override
    public void disconnect() { }

    @Override
    public boolean isDisconnected() { return false; }

    @Override
    public boolean supportsStorageRetrieval() { return false; }

    @Override
    public IMemoryBlock getMemoryBlock(long startAddress, long length) { return null; }
}
