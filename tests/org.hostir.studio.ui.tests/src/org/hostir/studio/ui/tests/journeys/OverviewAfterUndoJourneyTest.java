package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, round 15's editor-align.png: right after Ctrl+Z the Outline's overview still showed the aligned nodes
 * while the graph showed them back in their places. The overview was drawn only 250 ms after the graph's last paint
 * (IdleThumbnail); a person looking from the graph to the overview saw the picture from before the undo.
 */
public class OverviewAfterUndoJourneyTest extends JourneyTest {

    @Test
    public void theOverviewShowsTheUndoneLayoutAsSoonAsTheGraphDoes() throws Exception {
        FusionEditor e = journey.openSeedBesideOutline("overview-undo", "ag_matmul_p2p", "undo.fusion");
        GraphViewer g = ShownGraph.of(e);
        Control canvas = g.getControl();
        person.click(canvas, g.center("tv0"), 0).click(canvas, g.center("tv1"), SWT.CTRL)
                .click(canvas, g.center("tv2"), SWT.CTRL);
        List<Integer> xs = List.of(g.bounds("tv0")[0], g.bounds("tv1")[0], g.bounds("tv2")[0]);
        person.settle(600);   // the overview at rest: drawn after the idle delay
        Control overview = ShownGraph.outline(e);
        assertNotNull(overview, "the Outline shows the graph's overview");
        ImageData laidOut = shown(overview);

        ShownGraph.press(e, "Align left");
        person.settle(600);
        ImageData aligned = shown(overview);
        long moved = differing(laidOut, aligned);
        assertTrue(moved > 50, "the overview shows the alignment: " + moved + " pixels changed");

        person.press(SWT.CTRL, 'z');
        g = ShownGraph.of(e);   // as a person waits for the graph to be drawn again
        assertEquals(xs, List.of(g.bounds("tv0")[0], g.bounds("tv1")[0], g.bounds("tv2")[0]), "Ctrl+Z put the nodes back");
        drain(canvas.getDisplay());   // what is queued, no timer's wait
        ImageData undone = shown(overview);
        long fromLaidOut = differing(undone, laidOut), fromAligned = differing(undone, aligned);
        ViewTestSupport.screenshot(journey.shell(), "overview-after-undo.png");
        assertTrue(fromLaidOut * 4 < fromAligned, "the overview shows the layout from before the alignment as the"
                + " graph does: " + fromLaidOut + " pixels differ from it, " + fromAligned + " from the aligned one");
    }

    /** Runs what is queued (async runnables, paints) until nothing is left, without waiting for timers. */
    private static void drain(Display display) {
        for (int idle = 0; idle < 3; ) idle = display.readAndDispatch() ? 0 : idle + 1;
    }

    /** The overview's pixels as the screen shows them. */
    private static ImageData shown(Control c) { return ScreenPixels.of(c); }

    private static long differing(ImageData a, ImageData b) {
        long n = 0;
        for (int y = 0; y < Math.min(a.height, b.height); y++) {
            for (int x = 0; x < Math.min(a.width, b.width); x++) {
                if (!a.palette.getRGB(a.getPixel(x, y)).equals(b.palette.getRGB(b.getPixel(x, y)))) n++;
            }
        }
        return n;
    }
}
