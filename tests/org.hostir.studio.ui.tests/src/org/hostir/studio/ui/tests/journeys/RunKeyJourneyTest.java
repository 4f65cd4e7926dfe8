package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.Platform;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.tests.ShownGraph;
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
        System.out.println("run key: the debug UI is " + (debugUi.getState() == Bundle.ACTIVE ? "started" : "not started"));
        ILaunchManager manager = DebugPlugin.getDefault().getLaunchManager();
        Set<ILaunch> earlier = Set.of(manager.getLaunches());
        journey.hide(TimelineView.ID);   // the Timeline shown after the run is this run's
        FusionEditor e = journey.openSeed("run-key", "ag_matmul_p2p", "run-key.fusion");
        IFile file = e.getEditorInput().getAdapter(IFile.class);
        page.activate(e);
        Control canvas = ShownGraph.of(e).getControl();
        person.click(canvas, canvas.getSize().x - 20, canvas.getSize().y - 20);   // the empty canvas: keys to the editor
        person.press(SWT.ALT | SWT.SHIFT, 'x');
        person.press(0, 'h');

        List<ILaunch> ours = new ArrayList<>();
        person.until(20_000, () -> {
            ours.clear();
            for (ILaunch l : manager.getLaunches()) if (!earlier.contains(l) && launches(l, file)) ours.add(l);
            return !ours.isEmpty();
        });
        assertEquals(1, ours.size(), "Alt+Shift+X H launched run-key.fusion once (the debug UI "
                + (debugUi.getState() == Bundle.ACTIVE ? "started" : "not started") + ")");
        ILaunch launch = ours.get(0);
        assertEquals(ILaunchManager.RUN_MODE, launch.getLaunchMode(), "as a run, not a debug session");
        try {
            // a launch is registered before its checks, build and delegate run: first its process, then its end
            expect(() -> launch.getProcesses().length > 0, 60_000, launch, "the run starts its process");
            expect(launch::isTerminated, 120_000, launch, "the run ends");
            assertEquals(0, launch.getProcesses()[0].getExitValue(), "the run succeeds");
            // what a person sees: the run's trace in the Timeline, named after the file
            assertTrue(person.until(20_000, () -> page.findView(TimelineView.ID) instanceof TimelineView v
                    && v.timeline() != null && file.getFullPath().toString().equals(v.getContentDescription())),
                    "the Timeline shows the run of " + file.getFullPath());
            TimelineView view = (TimelineView) page.findView(TimelineView.ID);
            assertNotNull(view.canvas().rows(), "with its rows");
            ViewTestSupport.screenshot(journey.shell(), "run-key-timeline.png");
        } finally {
            for (Shell s : Display.getCurrent().getShells()) if (s != journey.shell() && s.isVisible()) s.close();
            if (!launch.isTerminated()) launch.terminate();
            manager.removeLaunch(launch);
            ILaunchConfiguration config = launch.getLaunchConfiguration();
            if (config != null && config.exists()) config.delete();
        }
    }

    /** Waits for {@code done}; else fails with what is on screen and in the launch, and a screenshot of it. */
    private void expect(BooleanSupplier done, long millis, ILaunch launch, String what) {
        if (person.until(millis, done)) return;
        String scene = LaunchScene.describe(launch, journey.shell());
        ViewTestSupport.screenshot(journey.shell(), "run-key-failure.png");
        System.out.println("run key: " + what + " failed" + scene);
        fail(what + scene);
    }

    /** Whether {@code l} is a Host IR Program launch of {@code file}. */
    private static boolean launches(ILaunch l, IFile file) {
        try {
            ILaunchConfiguration c = l.getLaunchConfiguration();
            return c != null && file.getFullPath().toString().equals(c.getAttribute(LaunchAttributes.FILE, ""));
        } catch (org.eclipse.core.runtime.CoreException ex) {
            return false;
        }
    }
}
