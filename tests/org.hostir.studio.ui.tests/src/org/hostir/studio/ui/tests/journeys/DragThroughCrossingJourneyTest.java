package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Event;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * CI's DraggedNodeRoutesJourneyTest once stored no drag; the gesture's trace showed why: right after the press GTK
 * reported FocusOut, MouseExit, FocusIn and MouseEnter at the pressed point (the press moved the focus), then the
 * moves with the button held. Draw2d let go of the pressed node at that MouseExit. Here a person drags a node while
 * the canvas gets that crossing (the SWT events GTK gave, sent to the canvas once the press is in; Xvfb makes no
 * crossing on demand): the node follows the pointer and the move is one edit in the file.
 */
public class DragThroughCrossingJourneyTest extends JourneyTest {
    @Test
    public void aDragSurvivesACrossingAfterItsPress() throws Exception {
        FusionEditor e = journey.open(ViewTestSupport.copyToWorkspace("crossing", "examples/transpose_add.fusion",
                "transpose_add.fusion"));
        page.activate(e);
        GraphViewer g = ShownGraph.of(e);
        person.settle(300);
        Control canvas = g.getControl();
        int[] a = g.center("a");
        int before = g.bounds("a")[0];
        Runnable crossing = () -> {
            for (int type : new int[] {SWT.MouseExit, SWT.MouseEnter}) {
                Event ev = new Event();
                ev.x = a[0];
                ev.y = a[1];
                canvas.notifyListeners(type, ev);
            }
        };
        // steps of 60 px, as in CI's drag: the first already leaves the node (Draw2d found the canvas under it)
        int to = Math.min(canvas.getSize().x - 20, a[0] + 480);
        person.dragThrough(canvas, 0, crossing, a, new int[] {to, a[1]});
        g = ShownGraph.of(e);
        assertNotNull(e.model().layout(), "the drag is in the file; the gesture's " + person.lastGesture());
        assertTrue(g.bounds("a")[0] > before + 60, "a follows the pointer: from x " + before + " to " + g.bounds("a")[0]);
    }
}
