package org.hostir.studio.ui.debug;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.eclipse.core.runtime.Status;
import org.eclipse.debug.core.DebugException;
import org.eclipse.debug.core.model.IBreakpoint;
import org.eclipse.debug.core.model.IStackFrame;
import org.eclipse.debug.core.model.IThread;
import org.hostir.studio.exec.BlockedStream;
import org.hostir.studio.exec.LoopFrame;
import org.hostir.studio.exec.ProgramPosition;
import org.hostir.studio.exec.debug.RankState;
import org.hostir.studio.exec.debug.RankStop;
import org.hostir.studio.exec.debug.StopReason;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.exec.debug.Stepping;
import org.hostir.studio.exec.debug.TensorSummary;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * One rank of the run: suspended while its host is held before a node (its frames: that node, then the loops
 * around it, innermost first), otherwise running, blocked or ended as its label says, with what its streams wait
 * for. Step over, step into, resume and suspend act on this rank alone; the run's own commands on all of them.
 */
final class RankThread extends Element implements IThread {
    private final RunTarget run;
    private final int rank;
    private volatile RankStop stop;
    private volatile boolean stepping;
    private volatile boolean deadlocked;
    private List<IStackFrame> frames = List.of();

    RankThread(RunTarget run, int rank) {
        super(run);
        this.run = run;
        this.rank = rank;
        this.stop = new RankStop(rank, RankState.RUNNING, java.util.Optional.empty(), java.util.Optional.empty(),
                List.of());
    }

    int rank() { return rank; }

    RankStop stop() { return stop; }

    /**
     * The rank at a new stop: its frames are made again when asked for. At a stop where the run is stuck (no rank
     * can issue anything more, some stream waits), a blocked rank counts as suspended there: its frames are the
     * nodes its streams are blocked on, and it can only be terminated.
     */
    synchronized void stopped(RankStop now, boolean stuck) {
        stop = now;
        stepping = false;
        frames = null;
        deadlocked = stuck && !now.blocked().isEmpty();
    }

    synchronized void running(boolean step) {
        stop = new RankStop(rank, RankState.RUNNING, java.util.Optional.empty(), java.util.Optional.empty(),
                List.of());
        stepping = step;
        deadlocked = false;
        frames = List.of();
    }

    /** Held before a node: it can step and resume. */
    boolean held() { return stop.state() == RankState.SUSPENDED && stop.at().isPresent(); }

    /** Blocked at a stop where the run is stuck. */
    boolean deadlocked() { return deadlocked; }

    @Override
    public synchronized IStackFrame[] getStackFrames() {
        if (frames == null) frames = frames();
        return frames.toArray(IStackFrame[]::new);
    }

    private List<IStackFrame> frames() {
        if (deadlocked) return blockedFrames();
        if (!held()) return List.of();
        ProgramPosition at = stop.at().orElseThrow();
        List<Variable> top = new ArrayList<>();
        for (LoopFrame f : at.loops()) top.add(new Variable(run, f.loop().index().name(), Long.toString(f.index())));
        for (TensorSummary t : run.session().tensors(rank)) top.add(tensor(t));
        List<IStackFrame> out = new ArrayList<>();
        out.add(new Frame(this, StopText.headline(at, run.generation()), top));
        for (LoopFrame f : at.loops().reversed()) {
            out.add(new Frame(this, StopText.loop(f), List.of(new Variable(run, f.loop().index().name(),
                    Long.toString(f.index())))));
        }
        return out;
    }

    /** One frame per blocked stream: the node that posted what it waits for, then what and whom it waits for. */
    private List<IStackFrame> blockedFrames() {
        List<Variable> tensors = run.session().tensors(rank).stream().map(this::tensor).toList();
        List<IStackFrame> out = new ArrayList<>();
        for (BlockedStream b : stop.blocked()) {
            int id = b.on().nodeId();
            String node = id < 0 ? "" : run.program(rank).allNodes().stream().filter(n -> n.id() == id).findFirst()
                    .map(n -> HostIrPrinter.headline(n, run.generation()) + " \u2014 ").orElse("");
            out.add(new Frame(this, node + "blocked: " + StopText.blocked(b), tensors));
        }
        return out;
    }

    private Variable tensor(TensorSummary t) {
        List<Variable> parts = new ArrayList<>(List.of(new Variable(run, "shape", t.shape().toString()),
                new Variable(run, "dtype", t.dtype()), new Variable(run, "mesh", t.mesh()),
                new Variable(run, "device", t.device()), new Variable(run, "bytes", Long.toString(t.bytes())),
                new Variable(run, "statistics", StopText.statistics(t)),
                new Variable(run, "values", t.slice().stream().map(StopText::number).toList().toString())));
        t.reference().ifPresent(r -> parts.add(new Variable(run, "reference", StopText.reference(r))));
        if (!t.written()) parts.add(new Variable(run, "reference", "not written yet"));
        String name = t.label().equals(t.name()) ? t.name() : t.name() + " " + Texts.quote(t.label());
        int at = run.lastStop() == null ? 0 : run.lastStop().number();
        return new Variable(run, name, t.dtype() + " " + t.shape() + " " + StopText.statistics(t)
                + (t.written() ? "" : "; not written yet")
                + t.reference().map(r -> "; " + StopText.reference(r)).orElse(""), t.dtype(), parts,
                new Variable.TensorAt(run, at, rank, t.id(), name));
    }

    @Override
    public boolean hasStackFrames() { return isSuspended(); }

    @Override
    public int getPriority() { return 0; }

    @Override
    public IStackFrame getTopStackFrame() {
        IStackFrame[] all = getStackFrames();
        return all.length == 0 ? null : all[0];
    }

    /** {@code rank 0: suspended at P2PCommunication 12 (breakpoint)}, then what its blocked streams wait for. */
    @Override
    public String getName() {
        RankStop s = stop;
        StringBuilder name = new StringBuilder("rank " + rank + ": " + StopText.state(s));
        for (BlockedStream b : s.blocked()) name.append("; ").append(StopText.blocked(b));
        return name.toString();
    }

    @Override
    public IBreakpoint[] getBreakpoints() {
        RankStop s = stop;
        if (s.reason().orElse(null) != StopReason.BREAKPOINT) return new IBreakpoint[0];
        ProgramPosition at = s.at().orElseThrow();
        return run.breakpoints().stream().filter(b -> b.toEngine().matches(at)).toArray(IBreakpoint[]::new);
    }

    @Override
    public boolean canResume() { return held(); }

    @Override
    public boolean canSuspend() { return stop.state() == RankState.RUNNING; }

    @Override
    public boolean isSuspended() { return held() || deadlocked; }

    @Override
    public void resume() { run.command(List.of(rank), Stepping.RESUME); }

    @Override
    public void suspend() { run.command(List.of(rank), Stepping.SUSPEND); }

    @Override
    public boolean canStepInto() { return held(); }

    @Override
    public boolean canStepOver() { return held(); }

    @Override
    public boolean canStepReturn() { return false; }

    @Override
    public boolean isStepping() { return stepping; }

    @Override
    public void stepInto() throws DebugException { refused(run.command(List.of(rank), Stepping.STEP_INTO)); }

    @Override
    public void stepOver() throws DebugException { refused(run.command(List.of(rank), Stepping.STEP_OVER)); }

    /** A step the session refused (on CUDA: it would wait for a held peer), shown as the step's error. */
    private static void refused(Optional<String> why) throws DebugException {
        if (why.isPresent()) {
            throw new DebugException(Status.error(why.get()));
        }
    }

    @Override
    public void stepReturn() { }

    @Override
    public boolean canTerminate() { return run.canTerminate(); }

    @Override
    public boolean isTerminated() { return run.isTerminated(); }

    @Override
    public void terminate() { run.terminate(); }
}
