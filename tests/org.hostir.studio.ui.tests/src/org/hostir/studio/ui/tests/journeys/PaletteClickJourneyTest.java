package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio by hand: a second click on the palette's "Input tensor" seemed to add nothing.
 * Each click on a palette entry adds its node where the person sees it: in the canvas's visible area, on top of no
 * other node, selected.
 */
public class PaletteClickJourneyTest extends JourneyTest {
    @Test
    public void eachClickOnInputTensorAddsATensorInSight() throws Exception {
        FusionEditor e = journey.openSeed("palette-click", "ag_matmul_p2p", "clicks.fusion");
        page.activate(e);
        person.settle(200);
        for (int click = 1; click <= 3; click++) {
            int before = e.model().tensors().size();
            // press and release at once, as a hand does: Person.click lets the press in before it releases, and
            // the drag source's drag detection on that press waits out its timeout and starts a drag instead
            Button input = ShownGraph.button(e, "Input tensor");
            person.clickUnreported(input, input.getSize().x / 2, input.getSize().y / 2);
            person.settle(400);
            GraphViewer g = ShownGraph.of(e);
            ViewTestSupport.screenshot(journey.shell(), "palette-click-input-" + click + ".png");
            assertEquals(before + 1, e.model().tensors().size(), "click " + click + " added a tensor");
            String added = e.model().tensors().get(before).name();
            assertInSightAlone(g, added, "click " + click);
            assertEquals(List.of(added), g.selectedKeys(), "click " + click + ": the new tensor is selected, as a dropped one");
        }
    }

    /** The node is drawn whole inside the canvas's visible area and overlaps no other node. */
    private static void assertInSightAlone(GraphViewer g, String key, String when) {
        Control canvas = g.getControl();
        Rectangle area = ((org.eclipse.swt.widgets.Scrollable) canvas).getClientArea();
        int[] b = g.shownBounds(key);
        Rectangle r = new Rectangle(b[0], b[1], b[2], b[3]);
        assertTrue(area.contains(r.x, r.y) && area.contains(r.x + r.width - 1, r.y + r.height - 1),
                when + ": " + key + " at " + r + " is in sight in " + area);
        for (String other : g.keys()) {
            if (other.equals(key) || !g.visible(other)) continue;
            int[] o = g.shownBounds(other);
            assertFalse(r.intersects(new Rectangle(o[0], o[1], o[2], o[3])), when + ": " + key + " at " + r
                    + " lies on " + other);
        }
    }
}
