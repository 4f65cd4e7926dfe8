package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;

import org.eclipse.swt.SWT;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, Deliver 3: the marquee, a drag on the empty canvas, selects exactly the nodes wholly inside it (GEF's
 * default); a node it only cuts stays out; Ctrl+marquee adds to the selection.
 */
public class EditorMarqueeJourneyTest extends JourneyTest {

    /** A node's bounds as drawn on the canvas {left, top, right, bottom}, at the zoom the editor opened at. */
    private static int[] box(FusionEditor e, String key) {
        int[] b = ShownGraph.of(e).shownBounds(key);
        return new int[] { b[0], b[1], b[0] + b[2], b[1] + b[3] };
    }

    @Test
    public void aMarqueeSelectsExactlyTheNodesInsideIt() throws Exception {
        FusionEditor e = journey.openSeed("journeys", "ag_matmul_p2p", "marquee.fusion");
        assertEquals(List.of(0, 0), List.of(ShownGraph.of(e).viewLocation()[0], ShownGraph.of(e).viewLocation()[1]));
        var canvas = ShownGraph.of(e).getControl();
        int[] tv0 = box(e, "tv0"), tv1 = box(e, "tv1"), op = box(e, "op:tv2"), tv2 = box(e, "tv2");

        // around both inputs, from above the top left of tv0 (empty canvas) to below the bottom right of tv1
        int left = Math.min(tv0[0], tv1[0]) - 10, top = Math.min(tv0[1], tv1[1]) - 10;
        int right = Math.max(tv0[2], tv1[2]) + 10, bottom = Math.max(tv0[3], tv1[3]) + 10;
        person.drag(canvas, left, top, right, bottom);
        assertEquals(Set.of("tv0", "tv1"), Set.copyOf(ShownGraph.of(e).selectedKeys()), "both inputs, nothing else");

        // from below the right of tv2 up to the middle of the matmul: tv2 is inside, the matmul only cut
        int opMiddle = (op[0] + op[2]) / 2;
        person.drag(canvas, tv2[2] + 15, Math.max(tv2[3], op[3]) + 15, opMiddle, Math.min(tv2[1], op[1]) - 15);
        assertEquals(List.of("tv2"), ShownGraph.of(e).selectedKeys(), "the matmul it cuts stays out, the inputs are deselected");

        // Ctrl+marquee around the matmul adds it
        person.drag(canvas, op[0] - 8, op[1] - 8, op[2] + 8, op[3] + 8, SWT.CTRL);
        assertEquals(Set.of("tv2", "op:tv2"), Set.copyOf(ShownGraph.of(e).selectedKeys()), "Ctrl adds the matmul");

        // a click on the empty canvas clears it
        person.click(canvas, left, top);
        assertEquals(List.of(), ShownGraph.of(e).selectedKeys());
    }
}
