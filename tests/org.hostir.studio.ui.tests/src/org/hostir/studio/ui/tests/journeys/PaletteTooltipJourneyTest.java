package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.ShownPopups;
import org.hostir.studio.ui.tests.input.ShownPopups.Popup;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, "palette tooltips linger": a palette entry's tooltip shows while the pointer rests on it, and goes when
 * the pointer leaves for the graph and when a drag of the entry starts (no tooltip window stays over the palette
 * once the pointer is on the canvas, the dragged tensor dropped there).
 */
public class PaletteTooltipJourneyTest extends JourneyTest {
    private static final int TOOLTIP_WAIT_MS = 1800;

    /** What {@link #restOnInputTensor} opened: the editor, its palette's Input tensor, canvas and palette. */
    private FusionEditor e;
    private Button input;
    private Control canvas;
    private Control palette;
    /** The tensors the seed has before the test adds one. */
    private int tensors;

    @Test
    public void aPaletteTooltipGoesWhenThePointerLeavesAndWhenADragStarts() throws Exception {
        restOnInputTensor("palettetip.fusion");
        person.moveTo(canvas, canvas.getSize().x / 2, canvas.getSize().y - 30);
        person.settle(TOOLTIP_WAIT_MS);
        assertTrue(over(palette).isEmpty(), "the tooltip stayed after the pointer left: " + over(palette));

        rest(input);
        assertFalse(over(palette).isEmpty(), "the tooltip shows again");
        person.dragTo(input, input.getSize().x / 2, input.getSize().y / 2, canvas, canvas.getSize().x / 2,
                canvas.getSize().y - 40);
        assertEquals(tensors + 1, e.model().tensors().size(), "the dragged input tensor was added");
        List<Popup> left = over(palette);
        ViewTestSupport.screenshot(journey.shell(), "palette-tooltip-after-drag.png");
        assertTrue(left.isEmpty(), "the palette's tooltip stayed through the drag: " + left);
    }

    /**
     * Round 18's guide pictures: a palette tooltip stayed on the screen after the person had used the entry and gone
     * on to the graph. Rested on Input tensor, clicked (a tensor added), then a click on the canvas's empty corner:
     * no tooltip window stays anywhere on the screen.
     */
    @Test
    public void noPaletteTooltipStaysAfterAClickOnTheEntryAndThenOnTheCanvas() throws Exception {
        restOnInputTensor("palettetip-click.fusion");
        person.clickUnreported(input, input.getSize().x / 2, input.getSize().y / 2);   // press and release at once
        person.until(3000, () -> e.model().tensors().size() > tensors);
        assertEquals(tensors + 1, e.model().tensors().size(), "the click added an input tensor");
        person.click(canvas, 8, canvas.getSize().y - 8);
        person.settle(TOOLTIP_WAIT_MS);
        List<Popup> left = ShownPopups.shown("TOOLTIP");
        ViewTestSupport.screenshot(journey.shell(), "palette-tooltip-after-click.png");
        assertTrue(left.isEmpty(), "a tooltip stayed after the clicks on Input tensor and on the canvas: " + left);

        rest(input);
        assertFalse(over(palette).isEmpty(), "the tooltip shows again");
        person.click(canvas, canvas.getSize().x - 8, canvas.getSize().y - 8);
        person.settle(TOOLTIP_WAIT_MS);
        left = ShownPopups.shown("TOOLTIP");
        assertTrue(left.isEmpty(), "a tooltip stayed after a click on the canvas: " + left);
    }

    /** A seed open in a new file, the pointer resting on the palette's Input tensor: its tooltip shows. */
    private void restOnInputTensor(String file) throws Exception {
        e = journey.openSeedActive("palette-tooltip", "ag_matmul_p2p", file);
        person.settle(200);
        input = ShownGraph.button(e, "Input tensor");
        palette = input.getParent().getParent();
        canvas = ShownGraph.of(e).getControl();
        tensors = e.model().tensors().size();
        rest(input);
        assertFalse(over(palette).isEmpty(), "resting on Input tensor shows its tooltip: " + ShownPopups.shown());
    }

    private void rest(Button b) {
        person.moveTo(b, b.getSize().x / 2, b.getSize().y / 2);
        person.moveTo(b, b.getSize().x / 2 + 2, b.getSize().y / 2);
        person.settle(TOOLTIP_WAIT_MS);
    }

    /** The tooltip windows that overlap the palette (its own tooltips show beside the entry, over the palette). */
    private static List<Popup> over(Control palette) {
        var at = palette.toDisplay(0, 0);
        Rectangle bounds = new Rectangle(at.x, at.y, palette.getSize().x, palette.getSize().y);
        return ShownPopups.shown("TOOLTIP").stream().filter(p -> p.bounds().intersects(bounds)).toList();
    }
}
