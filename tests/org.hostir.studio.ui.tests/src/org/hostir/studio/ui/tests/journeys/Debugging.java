package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.eclipse.core.commands.Command;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.commands.ExecutionException;
import org.eclipse.core.commands.IExecutionListenerWithChecks;
import org.eclipse.core.commands.NotEnabledException;
import org.eclipse.core.commands.common.NotDefinedException;
import org.eclipse.core.commands.NotHandledException;
import org.eclipse.debug.core.DebugEvent;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.IDebugEventSetListener;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.model.IDebugElement;
import org.eclipse.debug.core.model.IStackFrame;
import org.eclipse.debug.core.model.IThread;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.IDebugView;
import org.eclipse.jface.viewers.TreePath;
import org.eclipse.jface.viewers.TreeSelection;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.commands.ICommandService;
import org.hostir.studio.ui.debug.NodeBreakpoint;
import org.hostir.studio.ui.debug.RunTarget;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;

/** What the debugger's journeys share: finding the run, waiting for its stops, reading what the Debug view shows. */
final class Debugging {
    static final String SWITCH_ON_SUSPEND = "org.eclipse.debug.ui.switch_perspective_on_suspend";
    static final String SWITCH_ON_LAUNCH = "org.eclipse.debug.ui.switch_to_perspective";

    private Debugging() {}

    /** No perspective-switch question in the way of a journey. */
    static void neverSwitchPerspective() {
        DebugUITools.getPreferenceStore().setValue(SWITCH_ON_SUSPEND, "never");
        DebugUITools.getPreferenceStore().setValue(SWITCH_ON_LAUNCH, "never");
    }

    /** Ends the runs, removes the node breakpoints and puts the preferences back; closes a dialog a failure left. */
    static void cleanUp() throws Exception {
        Shell main = ViewTestSupport.window().getShell();
        for (Shell s : Display.getCurrent().getShells()) if (s != main && s.isVisible()) s.close();
        for (ILaunch l : DebugPlugin.getDefault().getLaunchManager().getLaunches()) {
            if (!l.isTerminated()) l.terminate();
        }
        DebugPlugin.getDefault().getBreakpointManager().removeBreakpoints(DebugPlugin.getDefault()
                .getBreakpointManager().getBreakpoints(NodeBreakpoint.MODEL_ID), true);
        DebugUITools.getPreferenceStore().setToDefault(SWITCH_ON_SUSPEND);
        DebugUITools.getPreferenceStore().setToDefault(SWITCH_ON_LAUNCH);
    }

    static List<NodeBreakpoint> breakpoints() {
        return Arrays.stream(DebugPlugin.getDefault().getBreakpointManager().getBreakpoints(NodeBreakpoint.MODEL_ID))
                .map(NodeBreakpoint.class::cast).toList();
    }

    static RunTarget awaitTarget(Person person) {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            for (ILaunch l : DebugPlugin.getDefault().getLaunchManager().getLaunches()) {
                if (!l.isTerminated() && l.getDebugTarget() instanceof RunTarget t) return t;
            }
            person.settle(100);
        }
        throw new AssertionError("no Host IR debug target was launched");
    }

    /** Runs the event loop until {@code done} or {@code millis} have passed; whether it came. */
    static boolean await(Person person, long millis, BooleanSupplier done) { return person.until(millis, done); }

    static final String STEP_OVER = "org.eclipse.debug.ui.commands.StepOver";
    static final String RESUME = "org.eclipse.debug.ui.commands.Resume";
    static final String TERMINATE = "org.eclipse.debug.ui.commands.Terminate";

    /**
     * Waits until the workbench enables {@code commandId} for what is selected. The debug commands work out their
     * enablement in a job after the selection changes; a key pressed before that is dropped, as a person's click on a
     * greyed-out button would be (the clean-clone CI of e36987d lost an F6 that way on a loaded machine).
     */
    static void awaitEnabled(Person person, String commandId) {
        Command command = PlatformUI.getWorkbench().getService(ICommandService.class).getCommand(commandId);
        assertTrue(await(person, 20_000, command::isEnabled), commandId + " is enabled for the selection");
    }

    /**
     * Presses {@code key} for the debug command {@code commandId} once it is enabled, and again when the press
     * reached no Host IR run (a person presses again when nothing happens). A press reached the run when the run
     * or one of its ranks fired a resume or terminate event: the command's own "ran" is no proof, as
     * {@code Command.executeWithChecks} (org.eclipse.core.commands 3.13) tells its listeners {@code preExecute}
     * before it checks that the handler is enabled, and {@code DebugCommandHandler.execute} (org.eclipse.debug.ui
     * 3.21) returns without a word when its debug context is not enabled at that moment: an F6 or F8 pressed while
     * the Debug view re-selects after a stop is dropped (the "lost" F6 and F8 of the CI runs of e36987d, a89ab02
     * and 9dd6d30). A press that reached nothing changed nothing, so pressing again cannot step twice. Each press
     * that reached nothing is printed with what the command's listeners heard and where the focus was; fails when
     * three presses reached nothing.
     */
    static void pressFor(Person person, String commandId, Runnable key) {
        ICommandService commands = PlatformUI.getWorkbench().getService(ICommandService.class);
        List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<DebugEvent> reached = new java.util.concurrent.CopyOnWriteArrayList<>();
        IExecutionListenerWithChecks listener = new IExecutionListenerWithChecks() {
            public void preExecute(String id, ExecutionEvent e) { if (id.equals(commandId)) heard.add("pre-execute"); }
            public void notHandled(String id, NotHandledException e) { if (id.equals(commandId)) heard.add("not handled"); }
            public void notEnabled(String id, NotEnabledException e) { if (id.equals(commandId)) heard.add("not enabled"); }
            public void notDefined(String id, NotDefinedException e) { if (id.equals(commandId)) heard.add("not defined"); }
            public void postExecuteFailure(String id, ExecutionException e) { if (id.equals(commandId)) heard.add("failed"); }
            public void postExecuteSuccess(String id, Object v) { if (id.equals(commandId)) heard.add("handler returned"); }
        };
        IDebugEventSetListener events = set -> {
            for (DebugEvent e : set) {
                boolean ours = e.getSource() instanceof RunTarget || e.getSource() instanceof IThread t
                        && t.getDebugTarget() instanceof RunTarget;
                if (ours && (e.getKind() == DebugEvent.RESUME || e.getKind() == DebugEvent.TERMINATE)) reached.add(e);
            }
        };
        commands.addExecutionListener(listener);
        DebugPlugin.getDefault().addDebugEventListener(events);
        try {
            for (int press = 1; press <= 3; press++) {
                awaitEnabled(person, commandId);
                key.run();
                if (await(person, 5_000, () -> !reached.isEmpty())) return;
                System.out.println("pressed again for " + commandId + ": press " + press + " reached no run ("
                        + (heard.isEmpty() ? "the command heard nothing" : "the command: " + heard) + "; focus "
                        + Display.getCurrent().getFocusControl() + ", active part "
                        + ViewTestSupport.window().getActivePage().getActivePartReference().getId() + ")");
                heard.clear();
            }
            throw new AssertionError("three presses for " + commandId + " reached no run");
        } finally {
            DebugPlugin.getDefault().removeDebugEventListener(events);
            commands.removeExecutionListener(listener);
        }
    }

    /** Waits for a stop after stop {@code before}; fails when none comes. */
    static void awaitStopAfter(Person person, RunTarget run, int before, String what) {
        assertTrue(await(person, 30_000, () -> run.lastStop() != null && run.lastStop().number() > before),
                what + ": no stop after stop " + before + "; " + run.getName());
        person.settle(200);
    }

    /** Selects {@code element} (the run, a rank or a frame) in the Debug view, as a click on its row does. */
    static void select(IDebugView debug, Person person, Object... path) {
        debug.getViewer().setSelection(new TreeSelection(new TreePath(path)), true);
        person.settle(300);
    }

    /**
     * Waits until the Debug view shows every suspended rank's frames as the model has them (it selects a top
     * frame of its own as it catches up with a stop), then clicks the run's row, for a command on every rank.
     */
    static void selectRun(IDebugView debug, Person person, RunTarget run) throws Exception {
        for (IThread t : run.getThreads()) if (t.isSuspended()) assertShowsFrames(debug, person, t);
        person.settle(500);
        // a click on the run's row: the view keeps a suspended frame selected against a selection set in code
        TreeItem row = find(((Tree) debug.getViewer().getControl()).getItems(), run);
        assertTrue(row != null, "the Debug view has a row for the run");
        org.eclipse.swt.graphics.Rectangle b = row.getBounds();
        person.click(row.getParent(), b.x + Math.min(30, b.width / 2), b.y + b.height / 2);
        person.settle(300);
        Object selected = ((org.eclipse.jface.viewers.IStructuredSelection) debug.getViewer().getSelection())
                .getFirstElement();
        assertEquals(run, selected, "the run is selected in the Debug view");
    }

    /** The path of the run, then {@code thread}, then its top frame (when it has one) in the Debug view. */
    static Object[] pathTo(RunTarget run, IThread thread) throws Exception {
        IStackFrame top = thread.getTopStackFrame();
        return top == null ? new Object[] {run.getLaunch(), run, thread}
                : new Object[] {run.getLaunch(), run, thread, top};
    }

    /** The rows the Debug view shows under the row of {@code element}, as drawn (one level down). */
    static List<String> shownChildren(IDebugView debug, IDebugElement element) {
        Tree tree = (Tree) debug.getViewer().getControl();
        List<String> out = new ArrayList<>();
        TreeItem row = find(tree.getItems(), element);
        if (row == null) return out;
        for (TreeItem child : row.getItems()) out.add(child.getText());
        return out;
    }

    private static TreeItem find(TreeItem[] items, Object element) {
        for (TreeItem item : items) {
            if (item.getData() == element) return item;
            TreeItem inner = find(item.getItems(), element);
            if (inner != null) return inner;
        }
        return null;
    }

    /** The text of the Debug view's row of {@code element}, or null when it has none. */
    static String shownLabel(IDebugView debug, Object element) {
        TreeItem row = find(((Tree) debug.getViewer().getControl()).getItems(), element);
        return row == null ? null : row.getText();
    }

    /**
     * The Debug view shows {@code thread}'s frames as the model names them now (waiting a few seconds for the view
     * to catch up with the last stop): the check that fails when a loop frame keeps the label of an earlier stop.
     */
    static void assertShowsFrames(IDebugView debug, Person person, IThread thread) throws Exception {
        List<String> model = new ArrayList<>();
        for (IStackFrame f : thread.getStackFrames()) model.add(f.getName());
        await(person, 8_000, () -> model.equals(shownChildren(debug, thread)));
        assertEquals(model, shownChildren(debug, thread), "the Debug view's rows under " + thread.getName());
    }

    // ---- the Breakpoints view and a breakpoint's properties dialog ----

    /** The row of {@code element} among the top rows of {@code tree}. */
    static TreeItem rowOf(Tree tree, Object element) {
        for (TreeItem i : tree.getItems()) if (i.getData() == element) return i;
        return null;
    }

    /** The visible dialog that shows the label {@code label}. */
    static Shell dialogWith(String label) {
        for (Shell s : Display.getCurrent().getShells()) {
            if (s.isVisible() && ViewTestSupport.descendants(s, Label.class).stream()
                    .anyMatch(l -> label.equals(l.getText()))) {
                return s;
            }
        }
        throw new AssertionError("no dialog shows " + label);
    }

    /** The field beside label {@code label}. */
    static Text fieldAfter(Shell dialog, String label) {
        for (Label l : ViewTestSupport.descendants(dialog, Label.class)) {
            if (!label.equals(l.getText())) continue;
            Control[] siblings = l.getParent().getChildren();
            for (int i = 0; i + 1 < siblings.length; i++) {
                if (siblings[i] == l && siblings[i + 1] instanceof Text t) return t;
            }
        }
        throw new AssertionError("no field after " + label);
    }

    static Button okButton(Shell dialog) {
        return ViewTestSupport.descendants(dialog, Button.class).stream()
                .filter(b -> b.getText().replace("&", "").equals("Apply and Close") || b.getText().equals("OK"))
                .findFirst().orElseThrow(() -> new AssertionError("no OK button"));
    }


    /**
     * A person's click on the breakpoint's row in the Breakpoints view, then Alt+Enter: its properties page, sized so
     * that every field shows.
     */
    static Shell openBreakpointProperties(IDebugView breakpoints, Person person, NodeBreakpoint bp) {
        Tree listed = (Tree) breakpoints.getViewer().getControl();
        // the view labels its rows in the background
        await(person, 5_000, () -> rowOf(listed, bp) != null && !rowOf(listed, bp).getText().isEmpty());
        TreeItem row = rowOf(listed, bp);
        assertTrue(row != null, "the Breakpoints view lists the breakpoint");
        // on its label, as a person selects a row: 10 px into the row's bounds was on its check box under GTK at
        // times, which disabled the breakpoint (DebugConditionsJourneyTest's run then never stopped, CI4)
        org.eclipse.swt.graphics.Rectangle b = row.getTextBounds(0);
        person.click(row.getParent(), b.x + Math.min(b.width / 2, 30), b.y + b.height / 2);
        person.press(org.eclipse.swt.SWT.ALT, (char) 0, org.eclipse.swt.SWT.CR);
        person.settle(800);
        Shell dialog = dialogWith("&Rank (empty: every rank):");
        dialog.setSize(900, 520);
        person.settle(300);
        return dialog;
    }
}
