package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.IBreakpointManager;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Label;
import org.hostir.studio.ui.debug.NodeBreakpoint;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Run As with breakpoints in the workspace, for a person who chose Run/Debug > Launching > "Launch in debug mode
 * when workspace contains breakpoints: Prompt". Eclipse then asks "Would you rather launch in debug mode?" before a
 * run of a type that also debugs when the delegate's getBreakpoints has an enabled one; that returned every
 * breakpoint of every debugger, so a Java breakpoint held Alt+Shift+X H on a .fusion at that question. Only the Host
 * IR debugger's node breakpoints ask now, as only Java's do for a Java run.
 */
public class RunBreakpointsJourneyTest extends JourneyTest {
    private static final String QUESTION = "Breakpoints in Workspace";

    /** Run/Debug > Launching: "Launch in debug mode when workspace contains breakpoints", Never by default. */
    private static final String SWITCH_TO_DEBUG = "org.eclipse.debug.ui.relaunch_in_debug_mode";

    @BeforeEach
    public void askBeforeRunningWithBreakpoints() {
        DebugUITools.getPreferenceStore().setValue(SWITCH_TO_DEBUG, "prompt");
    }

    @AfterEach
    public void removeBreakpoints() throws Exception {
        IBreakpointManager m = DebugPlugin.getDefault().getBreakpointManager();
        m.removeBreakpoints(m.getBreakpoints(), true);
        DebugUITools.getPreferenceStore().setToDefault(SWITCH_TO_DEBUG);
    }

    @Test
    public void anotherDebuggersBreakpointDoesNotHoldTheRun() throws Exception {
        FusionEditor e = journey.openSeed("run-breakpoints", "ag_matmul_p2p", "other-debugger.fusion");
        OtherDebuggersBreakpoint.on(e.getEditorInput().getAdapter(IFile.class));
        RunKeys keys = new RunKeys(journey);
        List<ILaunch> ours = keys.press(e);
        assertEquals(1, ours.size(), "Alt+Shift+X H launched other-debugger.fusion");
        try {
            keys.runToTheEnd(ours.get(0), "run-key-other-debugger-failure.png");   // no question on the way
            assertEquals(0, ours.get(0).getProcesses()[0].getExitValue(), "the run succeeds");
        } finally {
            keys.tidy(ours.get(0));
        }
    }

    @Test
    public void aNodeBreakpointAsksAndNoRunsAnyway() throws Exception {
        FusionEditor e = journey.openSeed("run-breakpoints", "ag_matmul_p2p", "node-breakpoint.fusion");
        NodeBreakpoint.create(e.getEditorInput().getAdapter(IFile.class), 0, 0, 0, "node 0");
        String[] asked = new String[1];
        ModalSteps no = ModalSteps.whenOpen(QUESTION, 60, dialog -> {
            asked[0] = String.join(" ", ViewTestSupport.descendants(dialog, Label.class).stream()
                    .map(Label::getText).toList());
            ViewTestSupport.screenshot(journey.shell(), "run-key-breakpoints-question.png");
            Button button = ViewTestSupport.descendants(dialog, Button.class).stream()
                    .filter(b -> b.getText().replace("&", "").equals("No")).findFirst().orElseThrow();
            person.clickCenter(button);
        });
        RunKeys keys = new RunKeys(journey);
        List<ILaunch> ours = keys.press(e);
        assertEquals(1, ours.size(), "Alt+Shift+X H launched node-breakpoint.fusion");
        try {
            no.check(person);
            assertTrue(asked[0].contains("Would you rather launch in debug mode?"), asked[0]);
            keys.runToTheEnd(ours.get(0), "run-key-node-breakpoint-failure.png");
            assertEquals(0, ours.get(0).getProcesses()[0].getExitValue(), "No: the run goes on and succeeds");
        } finally {
            keys.tidy(ours.get(0));
        }
    }
}
