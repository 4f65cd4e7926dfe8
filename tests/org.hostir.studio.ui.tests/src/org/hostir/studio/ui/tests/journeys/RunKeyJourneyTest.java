package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.Platform;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchManager;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;

/**
 * Issue 35, power users: Alt+Shift+X H runs the .fusion in the editor as a Host IR Program, as Alt+Shift+X J runs
 * Java. A person opens a seed, clicks into its graph and presses the keys; the launch appears in the launch manager,
 * runs on the CPU and its trace opens in the Timeline. The keys did nothing until the debug UI had read its launch
 * shortcuts (a Run menu shown, a launch made): in a workbench that has not done so yet, the launch must still come.
 * A class of its own, so that it runs in a workbench no other journey has driven to the Run menu.
 */
public class RunKeyJourneyTest extends JourneyTest {
    @Test
    public void altShiftXHRunsTheFusionInTheEditor() throws Exception {
        Bundle debugUi = Platform.getBundle("org.eclipse.debug.ui");
        String state = debugUi.getState() == Bundle.ACTIVE ? "started" : "not started";
        System.out.println("run key: the debug UI is " + state);
        journey.hide(TimelineView.ID);   // the Timeline shown after the run is this run's
        FusionEditor e = journey.openSeed("run-key", "ag_matmul_p2p", "run-key.fusion");
        IFile file = e.getEditorInput().getAdapter(IFile.class);
        RunKeys keys = new RunKeys(journey);
        List<ILaunch> ours = keys.press(e);
        assertEquals(1, ours.size(), "Alt+Shift+X H launched run-key.fusion once (the debug UI " + state + ")");
        ILaunch launch = ours.get(0);
        assertEquals(ILaunchManager.RUN_MODE, launch.getLaunchMode(), "as a run, not a debug session");
        try {
            keys.runToTheEnd(launch, "run-key-failure.png");
            assertEquals(0, launch.getProcesses()[0].getExitValue(), "the run succeeds");
            // what a person sees: the run's trace in the Timeline, named after the file
            assertTrue(person.until(20_000, () -> page.findView(TimelineView.ID) instanceof TimelineView v
                    && v.timeline() != null && file.getFullPath().toString().equals(v.getContentDescription())),
                    "the Timeline shows the run of " + file.getFullPath());
            assertEquals(List.of(launch), keys.made(), "one launch, no second one");
            TimelineView view = (TimelineView) page.findView(TimelineView.ID);
            assertNotNull(view.canvas().rows(), "with its rows");
            // the Timeline, or the Console when its last lines came after the trace (the two share a stack)
            ViewTestSupport.screenshot(journey.shell(), "run-key-run.png");
        } finally {
            keys.tidy(launch);
        }
    }
}
