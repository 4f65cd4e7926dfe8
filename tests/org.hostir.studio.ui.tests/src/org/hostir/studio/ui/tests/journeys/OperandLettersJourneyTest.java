package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: the examples' transpose_add, {@code c = add(at, b)}. Its two arrows end a few pixels
 * apart at the add, and their letters A and B were drawn over each other. A person opens it and then drags b below
 * at (the arrows swap their order at the add): each time each letter stands apart, by its own arrow's head.
 */
public class OperandLettersJourneyTest extends JourneyTest {
    private static final String OP = "op:c";

    @Test
    public void theLettersOfTwoArrowsEndingCloseTogetherStandApart() throws Exception {
        IFile f = ViewTestSupport.copyToWorkspace("operand-letters", "examples/transpose_add.fusion",
                "transpose_add.fusion");
        FusionEditor e = journey.open(f);
        page.activate(e);
        GraphViewer g = ShownGraph.of(e);
        OpSpec add = e.model().ops().stream().filter(o -> o.output().equals("c")).findFirst().orElseThrow();
        assertEquals(List.of("at", "b"), add.inputs(), "A is at, B is b");
        int[] a = ends(g, "at"), b = ends(g, "b");
        assertTrue(Math.abs(a[1] - b[1]) < 20, "the arrows end close together: " + a[1] + " and " + b[1]);
        ViewTestSupport.screenshot(journey.shell(), "operand-letters-transpose-add.png");
        assertLegible(g, "as opened");

        // b dragged below at: b's arrow now arrives from below
        Control canvas = g.getControl();
        int[] bc = g.center("b"), at = g.shownBounds("at");
        person.drag(canvas, bc[0], bc[1], bc[0], at[1] + at[3] + 60);
        g = ShownGraph.of(e);
        assertNotNull(e.model().layout(), "the drag is in the file");
        assertTrue(g.bounds("b")[1] > g.bounds("at")[1], "b is below at now");
        ViewTestSupport.screenshot(journey.shell(), "operand-letters-b-below.png");
        assertLegible(g, "after b was dragged below at");
    }

    /** A and B do not overlap, and each is nearer its own arrow's head than the other arrow's. */
    private static void assertLegible(GraphViewer g, String when) {
        Map<String, int[]> letters = g.operandLetters(OP);
        assertEquals(List.of("A", "B"), List.copyOf(letters.keySet()), when + ": both letters drawn");
        int[] a = letters.get("A"), b = letters.get("B");
        assertTrue(a[2] > 0 && b[2] > 0, when + ": laid out");
        boolean overlap = a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
        assertFalse(overlap, when + ": A at " + Arrays.toString(a) + " and B at " + Arrays.toString(b) + " apart");
        int[] endA = ends(g, "at"), endB = ends(g, "b");
        assertTrue(distance(a, endA) < distance(a, endB), when + ": A " + Arrays.toString(a) + " by at's arrow's head "
                + Arrays.toString(endA) + ", not b's " + Arrays.toString(endB));
        assertTrue(distance(b, endB) < distance(b, endA), when + ": B " + Arrays.toString(b) + " by b's arrow's head "
                + Arrays.toString(endB) + ", not at's " + Arrays.toString(endA));
    }

    /** The head {x, y} of the arrow drawn from tensor {@code from} into the add (figure coordinates). */
    private static int[] ends(GraphViewer g, String from) {
        int[] box = g.bounds(from), op = g.bounds(OP);
        for (int[] p : g.drawnArrows()) {
            int n = p.length;
            boolean starts = inside(p[0], p[1], box), arrives = inside(p[n - 2], p[n - 1], op);
            if (starts && arrives) return new int[] {p[n - 2], p[n - 1]};
        }
        throw new AssertionError("no arrow drawn from " + from + " into the add");
    }

    private static boolean inside(int x, int y, int[] r) {
        return x >= r[0] - 2 && x <= r[0] + r[2] + 2 && y >= r[1] - 2 && y <= r[1] + r[3] + 2;
    }

    private static double distance(int[] box, int[] p) {
        return Math.hypot(box[0] + box[2] / 2.0 - p[0], box[1] + box[3] / 2.0 - p[1]);
    }
}
