package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Scrollable;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Hand drive 17, finding 4: an op added from the palette with two tensors selected at the bottom of the view was
 * placed below the visible canvas and not shown; the person had to scroll to find it. A new op is selected and
 * scrolled into sight with its output, as a new Input tensor is. (At this window's size, zoomed in, the layout put
 * the op in sight before the fix too; what failed was the selection: the two tensors stayed selected.)
 */
public class PaletteOpRevealedJourneyTest extends JourneyTest {
    @Test
    public void anOpAddedOnTwoTensorsAtTheBottomIsShownAndSelected() throws Exception {
        FusionEditor e = journey.openSeedActive("palette-op-reveal", "ag_matmul_p2p", "reveal.fusion");
        GraphViewer g = ShownGraph.of(e);
        person.until(5000, () -> !g.layoutPending());
        // zoomed in, as a person reading the names does: the canvas shows less than the drive's 1280 x 800 did
        person.click(g.getControl(), 5, 5);
        for (int i = 0; i < 2; i++) person.press(SWT.CTRL, '=');
        person.settle(300);
        // two Input tensors, each at the first free place in sight: below tv1, the lowest nodes in the view
        List<String> added = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int before = e.model().tensors().size();
            Button input = ShownGraph.button(e, "Input tensor");
            person.clickUnreported(input, input.getSize().x / 2, input.getSize().y / 2);
            person.until(5000, () -> e.model().tensors().size() == before + 1 && !g.layoutPending());
            added.add(e.model().tensors().get(before).name());
        }
        added.sort((a, b) -> g.shownBounds(b)[1] - g.shownBounds(a)[1]);
        String lowest = added.get(0), next = added.get(1);
        // each clicked where it shows: the second tensor may lie below the view at this zoom (a click below the
        // canvas pressed on the Lowering view's tab row, whose drag tracker waited for a release: CI hung)
        intoSight(g, next);
        person.click(g.getControl(), g.center(next), 0);
        person.settle(300);
        intoSight(g, lowest);
        person.click(g.getControl(), g.center(lowest), SWT.CTRL);
        person.settle(300);
        ViewTestSupport.screenshot(journey.shell(), "palette-op-two-selected.png");
        assertEquals(List.of(next, lowest).stream().sorted().toList(), g.selectedKeys().stream().sorted().toList(),
                "two tensors selected");
        int ops = e.model().ops().size();
        Button add = ShownGraph.button(e, "add");
        person.clickUnreported(add, add.getSize().x / 2, add.getSize().y / 2);
        person.until(5000, () -> e.model().ops().size() == ops + 1 && !g.layoutPending());
        person.settle(400);
        ViewTestSupport.screenshot(journey.shell(), "palette-op-revealed.png");
        assertEquals(ops + 1, e.model().ops().size(), "add was added (" + e.commands().lastError() + ")");
        String out = e.model().ops().get(ops).output();
        assertInSight(g, "op:" + out);
        assertInSight(g, out);
        assertEquals(List.of("op:" + out), g.selectedKeys(), "the new op is selected");
    }

    /** Turns the wheel over the canvas, as a person scrolls, until {@code key} shows whole (at most 60 notches). */
    private void intoSight(GraphViewer g, String key) {
        Control c = g.getControl();
        for (int i = 0; i < 60 && !inSight(g, key); i++) {
            person.wheel(c, c.getSize().x / 2, c.getSize().y / 2, g.shownBounds(key)[1] < 0 ? 1 : -1, 0);
        }
        assertTrue(inSight(g, key), key + " scrolled into sight: " + java.util.Arrays.toString(g.shownBounds(key)));
    }

    /** Whether {@code key} shows whole inside the canvas's client area (not under a scroll bar, not past an edge). */
    private static boolean inSight(GraphViewer g, String key) {
        Rectangle area = ((Scrollable) g.getControl()).getClientArea();
        int[] b = g.shownBounds(key);
        return area.contains(b[0], b[1]) && area.contains(b[0] + b[2] - 1, b[1] + b[3] - 1);
    }

    private static void assertInSight(GraphViewer g, String key) {
        assertTrue(inSight(g, key), key + " at " + java.util.Arrays.toString(g.shownBounds(key)) + " is in sight in "
                + ((Scrollable) g.getControl()).getClientArea());
    }
}
