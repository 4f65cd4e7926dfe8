package org.hostir.studio.ui.debug;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.model.IDebugElement;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.ui.handlers.HandlerUtil;

/**
 * Step the Group (Shift+F6 in the Debug view, or its toolbar): every rank of the selected run that is held before a
 * node steps over it, all at once; the next stop is where they all are at rest again.
 */
public final class StepGroup extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) {
        RunTarget run = selectedRun(HandlerUtil.getCurrentSelection(event));
        if (run != null && run.canStepGroup()) run.stepGroup();
        return null;
    }

    /** The run of the selected debug element (the debug context), else the newest live Host IR run. */
    static RunTarget selectedRun(Object selection) {
        Object first = selection instanceof IStructuredSelection s ? s.getFirstElement() : null;
        if (first == null) first = DebugUITools.getDebugContext();
        if (first instanceof IDebugElement e && e.getDebugTarget() instanceof RunTarget run) return run;
        if (first instanceof ILaunch l && l.getDebugTarget() instanceof RunTarget run) return run;
        ILaunch[] launches = DebugPlugin.getDefault().getLaunchManager().getLaunches();
        for (int i = launches.length - 1; i >= 0; i--) {
            if (launches[i].getDebugTarget() instanceof RunTarget run && !run.isTerminated()) return run;
        }
        return null;
    }
}
