package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, round 15's operand-letters-b-below.png: after a node was dragged by hand its arrows were drawn across
 * other nodes (Draw2d's Manhattan router knows no obstacles). A person drags transpose_add's input a to the right
 * of its output c, so that a's arrow back into the transpose must pass the row of at, the add and c; then no arrow
 * may cross a node other than its own two ends, in the figures and on the screen.
 */
public class DraggedNodeRoutesJourneyTest extends JourneyTest {
    private static final List<String> NODES = List.of("a", "b", "at", "c", "op:at", "op:c");

    @Test
    public void aDraggedNodesArrowsGoAroundTheOtherNodes() throws Exception {
        FusionEditor e = journey.open(ViewTestSupport.copyToWorkspace("routes", "examples/transpose_add.fusion",
                "transpose_add.fusion"));
        page.activate(e);
        GraphViewer g = ShownGraph.of(e);
        person.settle(300);
        Control canvas = g.getControl();
        assertEquals(List.of(), crossings(g), "as laid out, no arrow crosses a node");
        Map<String, Integer> inkBefore = edgeInk(g, canvas);

        // the input a dragged to the right of the output c, on its row: its arrow into the transpose goes back
        int[] a = g.center("a"), c = g.shownBounds("c");
        int right = Math.min(canvas.getSize().x - 40, c[0] + c[2] + 90);
        person.drag(canvas, a[0], a[1], right, c[1] + c[3] / 2);
        g = ShownGraph.of(e);
        person.settle(300);
        assertNotNull(e.model().layout(), "the drag is in the file; a at " + java.util.Arrays.toString(g.center("a"))
                + ", selected " + g.selectedKeys() + ", the gesture's " + person.lastGesture());
        assertTrue(g.bounds("a")[0] > g.bounds("c")[0] + g.bounds("c")[2], "a stands right of c now");
        ViewTestSupport.screenshot(journey.shell(), "routes-after-drag.png");
        assertEquals(List.of(), crossings(g), "after the drag, arrows crossing nodes (figures)");
        Map<String, Integer> inkAfter = edgeInk(g, canvas);
        for (String k : NODES) {
            // an arrow across a node adds a line of arrow-coloured pixels inside it (at least its width less 6)
            assertTrue(inkAfter.get(k) - inkBefore.get(k) < 12, "arrow-coloured pixels inside " + k + " on the screen: "
                    + inkBefore.get(k) + " as laid out, " + inkAfter.get(k) + " after the drag");
        }
    }

    /** Each arrow segment that passes through the inside of a node other than the arrow's ends. */
    private static List<String> crossings(GraphViewer g) {
        List<String> out = new ArrayList<>();
        g.drawnArrowsByEnds().forEach((ends, p) -> {
            String[] fromTo = ends.split(" -> ");
            for (String k : NODES) {
                if (k.equals(fromTo[0]) || k.equals(fromTo[1])) continue;
                int[] b = g.bounds(k);
                for (int i = 2; i + 1 < p.length; i += 2) {
                    if (crosses(p[i - 2], p[i - 1], p[i], p[i + 1], b[0] + 1, b[1] + 1, b[0] + b[2] - 1, b[1] + b[3] - 1)) {
                        out.add(ends + " crosses " + k + " between (" + p[i - 2] + "," + p[i - 1] + ") and (" + p[i] + ","
                                + p[i + 1] + ")");
                    }
                }
            }
        });
        return out;
    }

    /** Whether the segment passes through the open rectangle (sampled every half pixel: the segments are short). */
    private static boolean crosses(int x1, int y1, int x2, int y2, int left, int top, int right, int bottom) {
        int steps = 2 * Math.max(Math.abs(x2 - x1), Math.abs(y2 - y1)) + 1;
        for (int s = 0; s <= steps; s++) {
            double x = x1 + (x2 - x1) * (double) s / steps, y = y1 + (y2 - y1) * (double) s / steps;
            if (x > left && x < right && y > top && y < bottom) return true;
        }
        return false;
    }

    /** Per node, the pixels inside it (3 px in from its frame) drawn in the arrows' colour on the screen. */
    private static Map<String, Integer> edgeInk(GraphViewer g, Control canvas) {
        ImageData shot = shown(canvas);
        RGB edge = g.edgeColour();
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String k : NODES) {
            int[] b = g.shownBounds(k);
            int n = 0;
            for (int y = Math.max(0, b[1] + 3); y < Math.min(shot.height, b[1] + b[3] - 3); y++) {
                for (int x = Math.max(0, b[0] + 3); x < Math.min(shot.width, b[0] + b[2] - 3); x++) {
                    if (shot.palette.getRGB(shot.getPixel(x, y)).equals(edge)) n++;
                }
            }
            out.put(k, n);
        }
        return out;
    }

    private static ImageData shown(Control c) { return ScreenPixels.of(c); }
}
