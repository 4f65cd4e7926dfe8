package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio by hand: Ctrl+V twice after one Ctrl+C (or Ctrl+D on a node pasted before) put
 * the second copy exactly on the first, which then could not be seen or clicked. Repeated copies cascade, as GEF's
 * do: each lands where no node is yet.
 */
public class RepeatedPasteJourneyTest extends JourneyTest {

    @Test
    public void aSecondPasteAndADuplicateLandBesideTheFirstCopyNotOnIt() throws Exception {
        FusionEditor e = journey.openSeed("repeated-paste", "ag_matmul_p2p", "paste-twice.fusion");
        page.activate(e);
        person.settle(150);
        GraphViewer g = ShownGraph.of(e);
        Control canvas = g.getControl();
        person.click(canvas, g.center("tv1"), 0);
        person.press(SWT.CTRL, 'c').press(SWT.CTRL, 'v');
        String first = only(g.selectedKeys());
        person.press(SWT.CTRL, 'v');
        String second = only(g.selectedKeys());
        assertNotEquals(first, second, "two pastes, two copies");
        person.click(canvas, g.center("tv1"), 0);
        person.press(SWT.CTRL, 'd');
        String third = only(g.selectedKeys());
        FusionDocument d = e.model();
        assertTrue(d.tensor(first).isPresent() && d.tensor(second).isPresent() && d.tensor(third).isPresent(),
                "the copies are in the fusion: " + List.of(first, second, third));
        ViewTestSupport.screenshot(journey.shell(), "repeated-paste.png");
        List<String> nodes = List.of("tv1", first, second, third);
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = i + 1; j < nodes.size(); j++) {
                int[] a = g.bounds(nodes.get(i)), b = g.bounds(nodes.get(j));
                assertTrue(a[0] != b[0] || a[1] != b[1], nodes.get(i) + " and " + nodes.get(j) + " lie on one another at "
                        + a[0] + "," + a[1]);
            }
        }
        assertEquals(g.bounds("tv1")[0] + 40, g.bounds(first)[0], "the first copy lands beside the original");
    }

    private static String only(List<String> keys) {
        assertEquals(1, keys.size(), "one node selected: " + keys);
        return keys.get(0);
    }
}
