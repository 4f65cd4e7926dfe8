package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineView;

/** A launched run the journeys wait for, then the Timeline view its trace opened in (none left from before). */
final class LaunchedTimeline {
    private LaunchedTimeline() {
    }

    /** Launches {@code config}, waits for it to end with exit 0 and for its trace in the Timeline view. */
    static TimelineView launch(IWorkbenchPage page, Person person, ILaunchConfiguration config) throws Exception {
        var earlier = page.findViewReference(TimelineView.ID);
        if (earlier != null) page.hideView(earlier);
        ILaunch launch = config.launch(ILaunchManager.RUN_MODE, null);
        long deadline = System.currentTimeMillis() + 180_000;
        while (!launch.isTerminated() && System.currentTimeMillis() < deadline) person.settle(50);
        assertTrue(launch.isTerminated(), "the prediction ends");
        assertEquals(0, launch.getProcesses()[0].getExitValue());
        long opened = System.currentTimeMillis() + 30_000;
        while (!(page.findView(TimelineView.ID) instanceof TimelineView v && v.timeline() != null)
                && System.currentTimeMillis() < opened) {
            person.settle(100);
        }
        TimelineView view = (TimelineView) page.findView(TimelineView.ID);
        assertNotNull(view, "the trace opened in the Timeline");
        return view;
    }
}
