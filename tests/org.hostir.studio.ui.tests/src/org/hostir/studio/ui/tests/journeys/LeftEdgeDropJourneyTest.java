package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio by hand: a palette op dropped near the canvas's left edge got its new operands
 * at x = 0, under the op's own circle (they go 200 px left of the op and were clamped), and near the top edge two
 * operands overlapped each other. The op and its output now move right (and down) by what the operands lack, and
 * none of the new nodes covers another.
 */
public class LeftEdgeDropJourneyTest extends JourneyTest {

    @Test
    public void anOpDroppedNearTheTopLeftCornerKeepsItsNewOperandsClearOfIt() throws Exception {
        FusionEditor e = journey.openSeed("left-drop", "ag_matmul_p2p", "left-drop.fusion");
        page.activate(e);
        person.settle(150);
        GraphViewer g = ShownGraph.of(e);
        Control canvas = g.getControl();
        person.click(canvas, canvas.getSize().x - 40, canvas.getSize().y - 30);
        assertEquals(List.of(), g.selectedKeys(), "nothing selected: the op gets new operands");
        Button add = EditorJourneyTest.button(ShownGraph.page(e), "add");
        ((ScrolledComposite) add.getParent().getParent()).showControl(add);
        person.settle(100);
        FusionDocument before = e.model();
        person.dragTo(add, add.getSize().x / 2, add.getSize().y / 2, canvas, 40, 25);
        person.until(5000, () -> !g.layoutPending());
        person.settle(300);
        assertEquals(before.ops().size() + 1, e.model().ops().size(), "the add was dropped");
        OpSpec op = e.model().ops().get(e.model().ops().size() - 1);
        assertEquals(2, op.inputs().size(), "with two new operands: " + op.inputs());
        List<String> made = new ArrayList<>(op.inputs());
        made.add("op:" + op.output());
        made.add(op.output());
        ViewTestSupport.screenshot(journey.shell(), "left-edge-drop.png");
        for (int i = 0; i < made.size(); i++) {
            for (int j = i + 1; j < made.size(); j++) {
                int[] a = g.bounds(made.get(i)), b = g.bounds(made.get(j));
                assertTrue(!overlap(a, b), made.get(i) + " " + List.of(a[0], a[1], a[2], a[3]) + " and " + made.get(j)
                        + " " + List.of(b[0], b[1], b[2], b[3]) + " overlap");
            }
        }
        int opLeft = g.bounds("op:" + op.output())[0];
        for (String in : op.inputs()) {
            int[] b = g.bounds(in);
            assertTrue(b[0] >= 0 && b[0] + b[2] <= opLeft, in + " lies left of the op, on the canvas: " + b[0] + "+" + b[2]
                    + " against the op at " + opLeft);
        }
    }

    private static boolean overlap(int[] a, int[] b) {
        return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
    }
}
