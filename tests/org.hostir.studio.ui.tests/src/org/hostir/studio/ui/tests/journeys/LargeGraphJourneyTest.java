package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IPageLayout;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.editor.EditorBenchmarkTest;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, defect 7 and Deliver 3: a generated 200-op fusion (402 nodes) in the editor with the Outline open. The
 * graph is painted all over (its 400 layers were one 84,000-pixel row, whose long edges left a grey block) and the
 * Outline's thumbnail is usable (it was a strip one pixel high); dragging the Outline's viewport rectangle scrolls
 * the graph; the wheel scrolls it, Ctrl+wheel zooms.
 */
public class LargeGraphJourneyTest extends JourneyTest {

    private FusionEditor openLarge(String name) throws Exception {
        IFile f = ViewTestSupport.workspaceFile("large-graph", name, FusionWriter.write(EditorBenchmarkTest.generated(200)));
        FusionEditor e = journey.open(f);
        journey.show(IPageLayout.ID_OUTLINE);
        journey.page().activate(e);
        person.settle(500);
        assertEquals(402, ShownGraph.of(e).keys().size());
        assertNotNull(ShownGraph.outline(e), "the Outline shows the editor's page");
        return e;
    }

    @Test
    public void theLargeGraphIsPaintedAndItsOutlineIsUsable() throws Exception {
        FusionEditor e = openLarge("painted.fusion");
        Control outline = ShownGraph.outline(e);
        int[] thumb = ShownGraph.outlinePage(e).thumbnailSize();
        var box = outline.getSize();
        assertTrue(thumb[0] >= box.x / 3 && thumb[1] >= box.y / 4, "the thumbnail " + thumb[0] + " x " + thumb[1]
                + " fills a good part of the Outline's " + box);
        person.moveTo(journey.shell(), 2, 2);   // no node's tooltip in the picture
        var shell = journey.shell();
        File shot = ViewTestSupport.screenshot(shell, "editor-large-200.png");
        if (shot == null) return;
        Control graph = ShownGraph.of(e).getControl();
        var at = Screens.inShot(shell, graph);
        double block = Screens.largestFlatBlockOtherThan(shot, at.x, at.y, graph.getSize().x, graph.getSize().y,
                graph.getBackground().getRGB());
        assertTrue(block < 0.01, "an unpainted block of " + block + " of the graph");
        var o = Screens.inShot(shell, outline);
        double blank = Screens.largestFlatBlock(shot, o.x, o.y, box.x, box.y, graph.getBackground().getRGB());
        double bare = Screens.largestFlatBlock(shot, o.x, o.y, box.x, box.y, outline.getBackground().getRGB());
        assertTrue(Math.max(blank, bare) < 0.5, "the Outline shows the graph: blank " + blank + ", bare " + bare);
    }

    @Test
    public void draggingTheOutlinesViewportRectangleScrollsTheGraph() throws Exception {
        FusionEditor e = openLarge("outline.fusion");
        int[] rect = ShownGraph.outlinePage(e).viewportBox();
        assertNotNull(rect, "the Outline shows the viewport rectangle");
        int[] before = ShownGraph.of(e).viewLocation();
        int x = rect[0] + rect[2] / 2, y = rect[1] + rect[3] / 2;
        person.drag(ShownGraph.outline(e), x, y, x + 40, y + 30);
        int[] after = ShownGraph.of(e).viewLocation();
        assertTrue(after[0] > before[0] + 100, "the graph scrolled right: " + before[0] + " -> " + after[0]);
        assertTrue(after[1] > before[1] + 100, "and down: " + before[1] + " -> " + after[1]);
        int[] moved = ShownGraph.outlinePage(e).viewportBox();
        assertTrue(moved[0] > rect[0] && moved[1] > rect[1], "the rectangle followed the pointer");
    }

    @Test
    public void theWheelScrollsTheGraphAndCtrlWheelZooms() throws Exception {
        FusionEditor e = openLarge("wheel.fusion");
        Control c = ShownGraph.of(e).getControl();
        int x = c.getSize().x / 2, y = c.getSize().y / 2;
        int[] before = ShownGraph.of(e).viewLocation();
        person.wheel(c, x, y, -3, 0);
        int[] down = ShownGraph.of(e).viewLocation();
        assertTrue(down[1] > before[1], "the wheel down scrolled the graph: " + before[1] + " -> " + down[1]);
        assertEquals(1.0, ShownGraph.of(e).zoom(), "the plain wheel does not zoom");
        person.wheel(c, x, y, 2, 0);
        assertTrue(ShownGraph.of(e).viewLocation()[1] < down[1], "the wheel up scrolls back");
        person.wheel(c, x, y, 1, SWT.CTRL);
        assertEquals("Zoom: 125%", ShownGraph.zoomLabel(e), "Ctrl+wheel up zooms in");
        person.wheel(c, x, y, -1, SWT.CTRL);
        assertEquals("Zoom: 100%", ShownGraph.zoomLabel(e), "Ctrl+wheel down zooms out");
    }
}
