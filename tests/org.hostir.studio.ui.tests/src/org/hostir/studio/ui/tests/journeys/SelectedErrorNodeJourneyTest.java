package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Predicate;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.SampleFusions;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio by hand: an op with an error is framed in red, and selecting it (a click, or a
 * double-click on its problem in the Problems view) changed nothing on the graph, because the red frame was drawn in
 * place of the selection's blue one. A selected node with an error shows both.
 */
public class SelectedErrorNodeJourneyTest extends JourneyTest {

    /** The error frame's red (light theme 215,30,30). */
    private static final Predicate<RGB> RED = c -> c.red > 180 && c.green < 80 && c.blue < 80;
    /** The selection's blue (light theme 30,110,230). */
    private static final Predicate<RGB> BLUE = c -> c.blue > 180 && c.red < 110 && c.green > 70 && c.green < 190;

    @Test
    public void aSelectedOpWithAnErrorShowsTheSelectionBesideItsRedFrame() throws Exception {
        IFile f = ViewTestSupport.workspaceFile("selected-error", "mismatch.fusion", SampleFusions.MISMATCH);
        FusionEditor e = journey.open(f);
        page.activate(e);
        person.settle(200);
        GraphViewer g = ShownGraph.of(e);
        assertNotNull(g.error("op:tv2"), "the matmul has the error");
        Control canvas = g.getControl();
        person.click(canvas, canvas.getSize().x - 30, canvas.getSize().y - 30);   // nothing selected
        assertEquals(0, pixels(g, "op:tv2", BLUE), "unselected, the matmul shows no selection blue");
        assertTrue(pixels(g, "op:tv2", RED) > 40, "and its red frame");

        person.click(canvas, g.center("op:tv2"), 0);
        assertEquals(List.of("op:tv2"), g.selectedKeys(), "the click selected the matmul");
        person.settle(200);
        int blue = pixels(g, "op:tv2", BLUE), red = pixels(g, "op:tv2", RED);
        assertTrue(blue > 40, "the selected matmul shows the selection's blue: " + blue + " pixels");
        assertTrue(red > 40, "and keeps its red frame: " + red + " pixels");

        person.click(canvas, g.center("tv0"), 0);
        person.settle(200);
        assertEquals(0, pixels(g, "op:tv2", BLUE), "selecting another node takes the blue off the matmul");
        ViewTestSupport.screenshot(journey.shell(), "selected-error-node.png");
    }

    /** The pixels of {@code colour} painted within a node's box on the graph's canvas, as drawn now. */
    private static int pixels(GraphViewer g, String key, Predicate<RGB> colour) {
        Control c = g.getControl();
        Image shot = new Image(c.getDisplay(), c.getSize().x, c.getSize().y);
        GC gc = new GC(c);
        gc.copyArea(shot, 0, 0);
        gc.dispose();
        ImageData data = shot.getImageData();
        shot.dispose();
        int[] center = g.center(key), b = g.shownBounds(key);
        int n = 0;
        for (int x = center[0] - b[2] / 2; x < center[0] + b[2] / 2; x++) {
            for (int y = center[1] - b[3] / 2; y < center[1] + b[3] / 2; y++) {
                if (x < 0 || y < 0 || x >= data.width || y >= data.height) continue;
                if (colour.test(data.palette.getRGB(data.getPixel(x, y)))) n++;
            }
        }
        return n;
    }
}
