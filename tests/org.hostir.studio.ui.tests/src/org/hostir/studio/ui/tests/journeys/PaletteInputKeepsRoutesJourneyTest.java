package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Arrays;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Hand drive 17, finding 3: an Input tensor added from the palette to ag_matmul_p2p re-routed the untouched
 * {@code matmul -> tv2} arrow down, right and up into tv2's bottom instead of its straight line, and it stayed so
 * after a second tensor, an add and undo and redo. An arrow between two nodes that did not move keeps its route.
 */
public class PaletteInputKeepsRoutesJourneyTest extends JourneyTest {
    private static final String ARROW = "op:tv2 -> tv2";

    @Test
    public void anAddedInputTensorLeavesTheMatmulArrowAsItWas() throws Exception {
        FusionEditor e = journey.openSeed("palette-routes", "ag_matmul_p2p", "routes.fusion");
        page.activate(e);
        GraphViewer g = ShownGraph.of(e);
        person.until(5000, () -> !g.layoutPending());
        person.settle(300);
        int[] before = g.drawnArrowsByEnds().get(ARROW);
        assertNotNull(before, "the matmul's arrow to tv2 is drawn: " + g.drawnArrowsByEnds().keySet());
        assertEquals(4, before.length, "the arrow is one straight line at first: " + Arrays.toString(before));

        // press and release at once, as a hand does (the button's drag source takes a slow press for a drag)
        Button input = ShownGraph.button(e, "Input tensor");
        person.clickUnreported(input, input.getSize().x / 2, input.getSize().y / 2);
        person.until(5000, () -> e.model().tensors().size() == 4 && !g.layoutPending());
        person.settle(300);
        ViewTestSupport.screenshot(journey.shell(), "palette-input-routes.png");
        assertEquals(4, e.model().tensors().size(), "a tensor was added");
        assertArrayEquals(before, g.drawnArrowsByEnds().get(ARROW), "after the add: "
                + Arrays.toString(g.drawnArrowsByEnds().get(ARROW)) + ", was " + Arrays.toString(before));

        // as the drive went on: a second tensor, an add on both, then undo and redo
        person.clickUnreported(input, input.getSize().x / 2, input.getSize().y / 2);
        person.until(5000, () -> e.model().tensors().size() == 5 && !g.layoutPending());
        person.settle(300);
        assertArrayEquals(before, g.drawnArrowsByEnds().get(ARROW), "after a second tensor: "
                + Arrays.toString(g.drawnArrowsByEnds().get(ARROW)));
        String third = e.model().tensors().get(3).name(), fourth = e.model().tensors().get(4).name();
        person.click(g.getControl(), g.center(third), 0).click(g.getControl(), g.center(fourth), SWT.CTRL);
        Button add = ShownGraph.button(e, "add");
        person.clickUnreported(add, add.getSize().x / 2, add.getSize().y / 2);
        person.until(5000, () -> e.model().ops().size() == 2 && !g.layoutPending());
        person.settle(300);
        ViewTestSupport.screenshot(journey.shell(), "palette-input-routes-add.png");
        assertEquals(2, e.model().ops().size(), "add was added");
        assertArrayEquals(before, g.drawnArrowsByEnds().get(ARROW), "after an add: "
                + Arrays.toString(g.drawnArrowsByEnds().get(ARROW)));

        person.click(g.getControl(), 5, 5).press(SWT.CTRL, 'z');
        person.until(5000, () -> e.model().ops().size() == 1 && !g.layoutPending());
        person.settle(300);
        assertEquals(1, e.model().ops().size(), "Ctrl+Z took the add away");
        assertArrayEquals(before, g.drawnArrowsByEnds().get(ARROW), "after the undo: "
                + Arrays.toString(g.drawnArrowsByEnds().get(ARROW)));
        person.press(SWT.CTRL, 'y');
        person.until(5000, () -> e.model().ops().size() == 2 && !g.layoutPending());
        person.settle(300);
        ViewTestSupport.screenshot(journey.shell(), "palette-input-routes-redo.png");
        assertEquals(2, e.model().ops().size(), "Ctrl+Y brought the add back");
        assertArrayEquals(before, g.drawnArrowsByEnds().get(ARROW), "after the redo: "
                + Arrays.toString(g.drawnArrowsByEnds().get(ARROW)));
    }
}
