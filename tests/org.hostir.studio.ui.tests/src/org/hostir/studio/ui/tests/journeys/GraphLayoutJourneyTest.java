package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.editor.model.Groups;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.editor.EditorBenchmarkTest;
import org.hostir.studio.ui.tests.editor.ElkLayoutTest;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, Deliver 4 and 5: the graph laid out by ELK Layered in a background job. The 200-op fusion at fit zoom:
 * its arrows follow the layout's orthogonal routes and none crosses another (counted on the drawn routes), its two
 * shared inputs drawn as stubs at their 200 readers; a palette drop or a new op leaves hand-placed nodes where they
 * are; the find bar selects and reveals a node by name; a group collapses into one box and expands again.
 */
public class GraphLayoutJourneyTest extends JourneyTest {

    private FusionEditor open(String name, int ops) throws Exception {
        IFile f = ViewTestSupport.workspaceFile("graph-layout", name, FusionWriter.write(EditorBenchmarkTest.generated(ops)));
        FusionEditor e = journey.open(f);
        page.activate(e);
        person.settle(200);
        assertEquals(2 * ops + 2, ShownGraph.of(e).keys().size(), "a node per tensor and op");
        return e;
    }

    @Test
    public void theLargeGraphIsLaidOutWithoutCrossingsAndFitsTheCanvas() throws Exception {
        FusionEditor e = open("fit200.fusion", 200);
        GraphViewer g = ShownGraph.of(e);
        assertEquals(201, g.stubEdges(), "tv0 and tv1, read by 100 and 101 ops, are stubs at their readers");
        List<int[]> arrows = g.drawnArrows();
        assertEquals(399, arrows.size(), "the chain's other operand and output arrows are drawn in full");
        assertEquals(399, g.routedEdges(), "every full arrow follows the layout engine's route");
        for (int[] a : arrows) assertTrue(orthogonal(a), "an orthogonal route: " + java.util.Arrays.toString(a));
        assertEquals(0, ElkLayoutTest.crossings(arrows), "no two arrows cross");

        person.clickCenter(ShownGraph.button(e, "Fit"));
        person.settle(100);
        Control canvas = g.getControl();
        double zoom = g.zoom();
        assertTrue(zoom < 1, "Fit zoomed out: " + zoom);
        int right = 0, bottom = 0;
        for (String k : g.keys()) {
            int[] b = g.bounds(k);
            right = Math.max(right, b[0] + b[2]);
            bottom = Math.max(bottom, b[1] + b[3]);
        }
        var size = canvas.getSize();
        assertTrue(right * zoom <= size.x && bottom * zoom <= size.y, "the whole graph fits: " + right + " x " + bottom
                + " at " + zoom + " in " + size);
        assertTrue(right * zoom >= 0.8 * size.x || bottom * zoom >= 0.8 * size.y, "and fills the canvas one way");
        person.moveTo(journey.shell(), 2, 2);
        File shot = ViewTestSupport.screenshot(journey.shell(), "graph-200-fit.png");
        if (shot != null) {
            var at = Screens.inShot(journey.shell(), canvas);
            double ink = painted(shot, at.x, at.y, size.x, size.y, canvas.getBackground().getRGB());
            assertTrue(ink > 0.05 && ink < 0.6, "the fitted graph is drawn over the canvas, not a blot: " + ink);
        }
        person.clickCenter(ShownGraph.button(e, "Zoom 100%"));   // the view as found
    }

    @Test
    public void aDropAndANewOpLeaveHandPlacedNodesWhereTheyAre() throws Exception {
        FusionEditor e = open("incremental.fusion", 6);
        GraphViewer g = ShownGraph.of(e);
        Control canvas = g.getControl();
        person.clickCenter(ShownGraph.button(e, "Fit"));   // every node in view
        int[] c = g.center("tv3");
        person.drag(canvas, c[0], c[1], c[0] + 40, c[1] + 60);
        Map<String, List<Integer>> before = where(g);
        assertNotNull(e.model().layout(), "the drag stored the positions");

        // a new op from a palette click (no place given): the layout places it, nothing else moves
        Map<String, List<Integer>> placed = where(g);
        person.click(canvas, g.center("tv7"), 0);
        assertEquals(List.of("tv7"), g.selectedKeys());
        // the palette's set clicked as a hand clicks, press and release at once: Person.click lets the press in
        // before it posts the release, and the button's drag source, detecting a drag on that press, waits for the
        // release until its timeout and starts a drag instead (so "a click adds nothing under Xvfb")
        org.eclipse.swt.widgets.Button set = ShownGraph.button(e, "set");
        person.clickUnreported(set, set.getSize().x / 2, set.getSize().y / 2);
        g = ShownGraph.of(e);
        assertEquals(placed.size() + 2, g.keys().size(), "set and its output were added (" + e.commands().lastError() + ")");
        Map<String, List<Integer>> after = where(g);
        for (var b : placed.entrySet()) assertEquals(b.getValue(), after.get(b.getKey()), b.getKey() + " stayed");
        List<String> added = new ArrayList<>(after.keySet());
        added.removeAll(placed.keySet());
        for (String n : added) {
            assertTrue(g.visible(n), n + " is shown");
            for (var b : after.entrySet()) {
                if (!b.getKey().equals(n)) assertFalse(overlap(after.get(n), b.getValue()), n + " overlaps " + b.getKey());
            }
        }
        assertTrue(after.get(added.get(0)).get(0) > placed.get("tv7").get(0), "placed right of the tensor it reads");

        // a neg op dropped from the palette onto an empty place below the graph
        before = where(g);
        int bottom = before.values().stream().mapToInt(b -> b.get(1) + b.get(3)).max().orElseThrow();
        assertTrue(bottom * g.zoom() < canvas.getSize().y - 100, "room below the graph");
        // the new set op is selected now (as a dropped op is): tv7 clicked again, so that neg reads it
        person.click(canvas, g.center("tv7"), 0);
        assertEquals(List.of("tv7"), g.selectedKeys());
        person.dragTo(ShownGraph.button(e, "neg"), 10, 10, canvas, 60, canvas.getSize().y - 60);
        g = ShownGraph.of(e);
        assertEquals(before.size() + 2, g.keys().size(), "the drop added an op and its output");
        for (var b : before.entrySet()) assertEquals(b.getValue(), where(g).get(b.getKey()), b.getKey() + " stayed");

        person.clickCenter(ShownGraph.button(e, "Zoom 100%"));
    }

    @Test
    public void theFindBarSelectsAndRevealsANodeByName() throws Exception {
        FusionEditor e = open("find200.fusion", 200);
        GraphViewer g = ShownGraph.of(e);
        person.clickCenter(ShownGraph.button(e, "Find..."));
        person.settle(100);
        Text field = ShownGraph.findField(e);
        assertNotNull(field, "the find bar opened");
        assertEquals(field, person.focus(), "with the keyboard in its field");
        person.type("tv150", 20);
        person.settle(100);
        assertEquals(List.of("tv150"), g.selectedKeys(), "the tensor named is selected");
        assertTrue(inView(g, "tv150"), "and scrolled into view");
        assertEquals("1 of 2", ShownGraph.findCount(e), "its op, named by its output, matches too");
        person.press(SWT.CR);
        assertEquals(List.of("op:tv150"), g.selectedKeys(), "Enter: the next match");

        person.press(SWT.CTRL, 'a');
        person.type("mul", 20);
        person.settle(100);
        assertEquals(List.of("op:tv3"), g.selectedKeys(), "an op by its kind: the first mul");
        assertEquals("1 of 100", ShownGraph.findCount(e));
        person.press(SWT.ESC);
        assertNull(ShownGraph.findField(e), "Esc closed the bar");
        assertEquals(g.getControl(), person.focus(), "and gave the keyboard back to the graph");
        assertEquals(List.of("op:tv3"), g.selectedKeys(), "the found node stays selected");

        person.press(SWT.CTRL, 'f');
        person.settle(100);
        assertNotNull(ShownGraph.findField(e), "Ctrl+F on the graph opens the bar again");
        person.press(SWT.ESC);
    }

    @Test
    public void aGroupCollapsesIntoOneBoxAndExpandsAgain() throws Exception {
        FusionEditor e = open("group.fusion", 6);
        GraphViewer g = ShownGraph.of(e);
        Control canvas = g.getControl();
        person.clickCenter(ShownGraph.button(e, "Fit"));   // every node in view
        Map<String, List<Integer>> before = where(g);
        person.click(canvas, g.center("tv3"), 0);
        person.click(canvas, g.center("op:tv4"), SWT.CTRL);
        person.click(canvas, g.center("tv4"), SWT.CTRL);
        person.press(SWT.CTRL, 'g');
        g = ShownGraph.of(e);
        assertEquals(Map.of("group:group1", false), g.groups(), "Ctrl+G grouped the selection");
        assertEquals(List.of("tv3", "op:tv4", "tv4"),
                Groups.of(e.model().layout(), java.util.Set.copyOf(g.keys())).get("group1").nodes(), "stored in the file");
        for (String k : List.of("tv3", "op:tv4", "tv4")) assertEquals(before.get(k), where(g).get(k), k + " stayed");

        person.click(canvas, g.groupHeader("group:group1"), 0);
        g = ShownGraph.of(e);
        assertEquals(Map.of("group:group1", true), g.groups(), "a click on the header collapsed it");
        for (String k : List.of("tv3", "op:tv4", "tv4")) assertFalse(g.visible(k), k + " is inside the box");
        assertTrue(g.visible("op:tv5") && g.visible("op:tv3"), "its neighbours are shown");
        assertTrue(g.edgeShown("tv4", "op:tv5"), "the arrow out of the group is drawn (from its box)");
        assertFalse(g.edgeShown("op:tv4", "tv4"), "an arrow inside it is not");

        person.click(canvas, g.groupHeader("group:group1"), 0);
        g = ShownGraph.of(e);
        assertEquals(Map.of("group:group1", false), g.groups(), "a second click expanded it");
        for (String k : List.of("tv3", "op:tv4", "tv4")) {
            assertTrue(g.visible(k), k + " is shown again");
            assertEquals(before.get(k), where(g).get(k), k + " where it was");
        }
        assertTrue(g.edgeShown("op:tv4", "tv4"), "the arrows inside are drawn again");
        person.clickCenter(ShownGraph.button(e, "Zoom 100%"));
    }

    // ---- what is drawn, measured

    private static Map<String, List<Integer>> where(GraphViewer g) {
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        for (String k : g.keys()) {
            int[] b = g.bounds(k);
            out.put(k, List.of(b[0], b[1], b[2], b[3]));
        }
        return out;
    }

    /** The share of a rectangle's pixels (every other one each way) that differ from the canvas background. */
    private static double painted(File png, int x, int y, int w, int h, org.eclipse.swt.graphics.RGB background) {
        var d = Screens.read(png);
        long ink = 0, all = 0;
        for (int j = Math.max(0, y); j < Math.min(d.height, y + h); j += 2) {
            for (int i = Math.max(0, x); i < Math.min(d.width, x + w); i += 2) {
                all++;
                if (!d.palette.getRGB(d.getPixel(i, j)).equals(background)) ink++;
            }
        }
        return all == 0 ? 0 : (double) ink / all;
    }

    private static boolean overlap(List<Integer> a, List<Integer> b) {
        return a.get(0) < b.get(0) + b.get(2) && b.get(0) < a.get(0) + a.get(2) && a.get(1) < b.get(1) + b.get(3)
                && b.get(1) < a.get(1) + a.get(3);
    }

    private static boolean inView(GraphViewer g, String key) {
        int[] c = g.center(key);
        var size = g.getControl().getSize();
        return c[0] >= 0 && c[1] >= 0 && c[0] < size.x && c[1] < size.y;
    }

    /** Every segment horizontal or vertical, the first and last aside (they meet an op's round outline). */
    static boolean orthogonal(int[] p) {
        for (int i = 2; i + 3 < p.length - 2; i += 2) {
            if (p[i] != p[i + 2] && p[i + 1] != p[i + 3]) return false;
        }
        return true;
    }
}
