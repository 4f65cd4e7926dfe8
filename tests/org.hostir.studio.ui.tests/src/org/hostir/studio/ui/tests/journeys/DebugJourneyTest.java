package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.model.IStackFrame;
import org.eclipse.debug.core.model.IThread;
import org.eclipse.debug.core.model.IVariable;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.debug.ui.IDebugView;
import org.eclipse.jface.preference.IPreferenceStore;
import org.eclipse.jface.viewers.TreePath;
import org.eclipse.jface.viewers.TreeSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.ui.HostIrNodeElement;
import org.hostir.studio.ui.debug.NodeBreakpoint;
import org.hostir.studio.ui.debug.RunTarget;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.WorkbenchSmokeTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 37's journey: a breakpoint on seed 000's recv (P2PCommunication) toggled with Ctrl+Shift+B on the Lowering
 * view's final program, Debug As > Host IR Program, both ranks held there in their remote iteration, each stepped
 * with F6 from the Debug view through the rest of that iteration (the Debug view's rows checked against the model
 * after each step), a tensor read in the frame's variables, F8 to the end.
 */
public class DebugJourneyTest extends JourneyTest {
    private static final String SWITCH_ON_SUSPEND = "org.eclipse.debug.ui.switch_perspective_on_suspend";
    private static final String SWITCH_ON_LAUNCH = "org.eclipse.debug.ui.switch_to_perspective";

    @AfterEach
    public void cleanUp() throws Exception {
        for (ILaunch l : DebugPlugin.getDefault().getLaunchManager().getLaunches()) {
            if (!l.isTerminated()) l.terminate();
        }
        DebugPlugin.getDefault().getBreakpointManager().removeBreakpoints(DebugPlugin.getDefault()
                .getBreakpointManager().getBreakpoints(NodeBreakpoint.MODEL_ID), true);
        journey.hide(IDebugUIConstants.ID_DEBUG_VIEW);
        journey.hide(IDebugUIConstants.ID_VARIABLE_VIEW);
        DebugUITools.getPreferenceStore().setToDefault(SWITCH_ON_SUSPEND);
        DebugUITools.getPreferenceStore().setToDefault(SWITCH_ON_LAUNCH);
    }

    @Test
    public void breakpointOnTheSeedsRecvDebugStepBothRanksInspectResume() throws Exception {
        IPreferenceStore prefs = DebugUITools.getPreferenceStore();
        prefs.setValue(SWITCH_ON_SUSPEND, "never");   // no perspective-switch dialog in the way
        prefs.setValue(SWITCH_ON_LAUNCH, "never");
        IFile file = ViewTestSupport.copyToWorkspace("debug-journey", "examples/seeds/ag_matmul_p2p.fusion",
                "seed000.fusion");
        IDE.openEditor(page, file, "org.eclipse.ui.DefaultTextEditor");
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        int recv = recvNode(view);

        // the node in the final program, clicked, then Ctrl+Shift+B
        view.reveal(new HostIrNodeElement(file.getFullPath().toString(), 0, recv));
        person.settle(300);
        TreeItem row = ShownLowering.of(view).tree().getTree().getSelection()[0];
        var b = row.getBounds();
        person.click(row.getParent(), b.x + 10, b.y + b.height / 2);
        person.press(SWT.CTRL | SWT.SHIFT, 'b');
        person.settle(300);
        NodeBreakpoint bp = breakpoints().stream().filter(x -> x.nodeId() == recv).findFirst()
                .orElseThrow(() -> new AssertionError("no breakpoint after Ctrl+Shift+B on " + row.getText()));
        assertEquals("P2PCommunication " + recv, bp.label());

        DebugUITools.launch(HostIrLaunchShortcut.configurationFor(file), "debug"); // what Debug As > Host IR Program does
        RunTarget run = awaitTarget();
        awaitBothSuspended(run);
        IThread[] ranks = run.getThreads();
        for (int r = 0; r < 2; r++) {
            assertEquals("rank " + r + ": suspended at P2PCommunication " + recv + " (breakpoint)", ranks[r].getName());
            IStackFrame[] frames = ranks[r].getStackFrames();
            assertEquals(2, frames.length, "the node, then the stream loop");
            assertTrue(frames[0].getName().startsWith("P2PCommunication " + recv + " (type=recv"), frames[0].getName());
            assertTrue(frames[1].getName().endsWith("StreamIdx = " + (1 - r) + " of [0, 2)"), frames[1].getName());
        }
        IDebugView debug = journey.show(IDebugUIConstants.ID_DEBUG_VIEW);
        journey.show(IDebugUIConstants.ID_VARIABLE_VIEW);
        // rank 0 through its remote iteration, the last: then it has issued everything and its stream waits for
        // rank 1's send; rank 1 through iteration 0 (which sends it) into iteration 1, and rank 0 finishes
        stepThroughTheIteration(debug, run, 0);
        String rank0 = run.getThreads()[0].getName();
        assertTrue(rank0.startsWith("rank 0: done issuing, blocked; ") && rank0.contains("recv from 1 (node "
                + (recv + 2) + ", iteration 1), waits for rank 1"), rank0);
        assertTrue(run.waits().contains("rank 0 -> rank 1: EndCoalescing " + (recv + 2) + ", recv from 1 (node "
                + (recv + 2) + ", iteration 1), " + 8 * 4 * 4 + " B, tag 0"), run.waits().toString());
        WorkbenchSmokeTest.screenshot(journey.shell(), "debug-seed000-rank0-waits.png");
        stepThroughTheIteration(debug, run, 1);
        assertEquals("rank 0: finished", run.getThreads()[0].getName());
        assertTrue(run.getThreads()[1].getStackFrames()[1].getName().endsWith("StreamIdx = 1 of [0, 2)"),
                run.getThreads()[1].getStackFrames()[1].getName());

        IVariable t0 = null;
        for (IVariable v : run.getThreads()[1].getTopStackFrame().getVariables()) {
            if (v.getName().equals("T0 'tv0'")) t0 = v;
        }
        assertNotNull(t0, "rank 1's T0 in the Variables view");
        assertTrue(t0.getValue().getValueString().startsWith("float [1, 8, 4] min "), t0.getValue().getValueString());
        assertTrue(t0.getValue().getValueString().endsWith("; reference: equal"), t0.getValue().getValueString());
        WorkbenchSmokeTest.screenshot(journey.shell(), "debug-seed000-stepped.png");

        page.activate(debug);
        select(debug, run, run.getThreads()[1]);
        Debugging.pressFor(person, Debugging.RESUME, () -> person.press(SWT.F8));
        long deadline = System.currentTimeMillis() + 60_000;
        while (!run.isTerminated() && System.currentTimeMillis() < deadline) person.settle(100);
        assertTrue(run.isTerminated(), run.getName());
        assertEquals("Host IR run of seed000.fusion (2 ranks): finished", run.getName());
        assertTrue(run.session().validation().orElseThrow().passed());
    }

    /** Selects the rank's top frame in the Debug view and presses F6 until its loop index moves on. */
    private void stepThroughTheIteration(IDebugView debug, RunTarget run, int rank) throws Exception {
        IThread thread = run.getThreads()[rank];
        String loop = thread.getStackFrames()[1].getName();
        for (int steps = 0; thread.getStackFrames().length > 1 && thread.getStackFrames()[1].getName().equals(loop);
                steps++) {
            assertTrue(steps < 20, "rank " + rank + " leaves " + loop + " in a few steps");
            int before = run.lastStop().number();
            page.activate(debug);
            select(debug, run, thread);
            Debugging.pressFor(person, Debugging.STEP_OVER, () -> person.press(SWT.F6));
            long deadline = System.currentTimeMillis() + 20_000;
            while (run.lastStop().number() == before && System.currentTimeMillis() < deadline) person.settle(50);
            assertTrue(run.lastStop().number() > before, "F6 on rank " + rank + " stepped: " + thread.getName());
            // what the Debug view draws, not only the model: a loop frame once kept its index of the step before
            if (thread.isSuspended()) Debugging.assertShowsFrames(debug, person, thread);
        }
    }

    private void select(IDebugView debug, RunTarget run, IThread thread) throws Exception {
        IStackFrame top = thread.getTopStackFrame();
        Object[] path = top == null ? new Object[] {run.getLaunch(), run, thread}
                : new Object[] {run.getLaunch(), run, thread, top};
        debug.getViewer().setSelection(new TreeSelection(new TreePath(path)), true);
        person.settle(300);
    }

    private static int recvNode(LoweringView view) {
        var program = ShownLowering.of(view).rank().result();
        return ((org.hostir.studio.lower.Snapshot.OfHost) program).container().allNodes().stream()
                .filter(n -> n instanceof org.hostir.studio.ir.host.P2PCommunication p
                        && p.type() == org.hostir.studio.ir.host.P2PCommunication.Type.RECV)
                .findFirst().orElseThrow().id();
    }

    private static List<NodeBreakpoint> breakpoints() {
        return Arrays.stream(DebugPlugin.getDefault().getBreakpointManager().getBreakpoints(NodeBreakpoint.MODEL_ID))
                .map(NodeBreakpoint.class::cast).toList();
    }

    private RunTarget awaitTarget() {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            for (ILaunch l : DebugPlugin.getDefault().getLaunchManager().getLaunches()) {
                if (!l.isTerminated() && l.getDebugTarget() instanceof RunTarget t) return t;
            }
            person.settle(100);
        }
        throw new AssertionError("no Host IR debug target was launched");
    }

    private void awaitBothSuspended(RunTarget run) {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline
                && !Arrays.stream(run.getThreads()).allMatch(IThread::isSuspended)) {
            person.settle(100);
        }
        assertNotNull(run.lastStop(), "the run stopped");
        assertTrue(Arrays.stream(run.getThreads()).allMatch(IThread::isSuspended), run.getName());
    }
}
