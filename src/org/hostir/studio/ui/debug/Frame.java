package org.hostir.studio.ui.debug;

import java.util.List;

import org.eclipse.debug.core.DebugException;
import org.eclipse.debug.core.model.IRegisterGroup;
import org.eclipse.debug.core.model.IStackFrame;
import org.eclipse.debug.core.model.IThread;
import org.eclipse.debug.core.model.IVariable;

/**
 * A stack frame of a rank: the node it is held before (the top frame: its loop indices and the rank's live tensors
 * as variables) or one of the loops around it (its index as the variable). Steps and resumes go to the rank.
 */
final class Frame extends Element implements IStackFrame {
    private final RankThread thread;
    private final String name;
    private final List<Variable> variables;

    Frame(RankThread thread, String name, List<Variable> variables) {
        super(thread.getDebugTarget());
        this.thread = thread;
        this.name = name;
        this.variables = List.copyOf(variables);
    }

    @Override
    public IThread getThread() { return thread; }

    @Override
    public IVariable[] getVariables() { return variables.toArray(IVariable[]::new); }

    @Override
    public boolean hasVariables() { return !variables.isEmpty(); }

    @Override
    public int getLineNumber() { return -1; }

    @Override
    public int getCharStart() { return -1; }

    @Override
    public int getCharEnd() { return -1; }

    @Override
    public String getName() { return name; }

    @Override
    public IRegisterGroup[] getRegisterGroups() { return new IRegisterGroup[0]; }

    @Override
    public boolean hasRegisterGroups() { return false; }

    @Override
    public boolean canStepInto() { return thread.canStepInto(); }

    @Override
    public boolean canStepOver() { return thread.canStepOver(); }

    @Override
    public boolean canStepReturn() { return false; }

    @Override
    public boolean isStepping() { return thread.isStepping(); }

    @Override
    public void stepInto() throws DebugException { thread.stepInto(); }

    @Override
    public void stepOver() throws DebugException { thread.stepOver(); }

    @Override
    public void stepReturn() { }

    @Override
    public boolean canResume() { return thread.canResume(); }

    @Override
    public boolean canSuspend() { return thread.canSuspend(); }

    @Override
    public boolean isSuspended() { return thread.isSuspended(); }

    @Override
    public void resume() throws DebugException { thread.resume(); }

    @Override
    public void suspend() throws DebugException { thread.suspend(); }

    @Override
    public boolean canTerminate() { return thread.canTerminate(); }

    @Override
    public boolean isTerminated() { return thread.isTerminated(); }

    @Override
    public void terminate() throws DebugException { thread.terminate(); }
}
