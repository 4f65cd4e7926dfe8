package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.eclipse.core.resources.IFile;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IPageLayout;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.FusionOutlinePage;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, round 18's hand drive: with two tensors selected by a click and a Ctrl+click on the graph, the Outline's
 * overview framed only one of them. The overview shows what the graph shows: each selected node drawn selected.
 * Read from the screen: each tensor's place in the overview changes from the picture with nothing selected.
 */
public class OverviewSelectionJourneyTest extends JourneyTest {

    @Test
    public void theOverviewShowsBothTensorsOfACtrlClickSelection() throws Exception {
        journey.show(IPageLayout.ID_OUTLINE);
        FusionEditor e = journey.openSeed("overview-selection", "ag_matmul_p2p", "selection.fusion");
        page.activate(e);
        GraphViewer g = ShownGraph.of(e);
        Control canvas = g.getControl();
        person.settle(800);
        assertEquals(List.of(), g.selectedKeys(), "nothing selected at the opening");
        Control overview = ShownGraph.outline(e);
        assertNotNull(overview, "the Outline shows the graph's overview");
        ImageData none = ScreenPixels.of(overview);

        person.click(canvas, g.center("tv0"), 0);
        person.settle(150);
        person.click(canvas, g.center("tv1"), SWT.CTRL);
        person.settle(800);   // the overview is drawn again once the graph rests (250 ms)
        assertEquals(List.of("tv0", "tv1"), g.selectedKeys(), "the click and the Ctrl+click selected both");
        ImageData both = ScreenPixels.of(overview);
        ViewTestSupport.screenshot(journey.shell(), "overview-selection.png");
        FusionOutlinePage outline = ShownGraph.outlinePage(e);
        for (String tensor : List.of("tv0", "tv1")) {
            int[] box = outline.overviewBox(tensor);
            long changed = differing(none, both, box);
            System.out.println("overview " + tensor + " at " + java.util.Arrays.toString(box) + ": " + changed
                    + " pixels changed by the selection");
            assertTrue(changed > 10, "the overview shows " + tensor + " selected: " + changed + " pixels of its box "
                    + java.util.Arrays.toString(box) + " changed");
        }
    }

    /**
     * The hand drive's case: two tensors of the MoE layer selected in the Outline's tree, a click then a Ctrl+click.
     * The second lay outside the graph's view and the graph did not scroll to it, so the overview's frame (the part
     * the editor shows) held only the first. Now the view shows both, and the frame holds both.
     */
    @Test
    public void twoTensorsSelectedInTheTreeAreBothInTheOverviewsFrame() throws Exception {
        journey.show(IPageLayout.ID_OUTLINE);
        IFile f = ViewTestSupport.copyToWorkspace("overview-selection", "examples/moe/moe_layer.fusion", "moe.fusion");
        FusionEditor e = journey.open(f);
        page.activate(e);
        GraphViewer g = ShownGraph.of(e);
        person.settle(800);
        // zoomed in (Ctrl+wheel over the graph) until the graph is larger than its view, as at 1280 x 800
        var canvas = g.getControl();
        for (int i = 0; i < 6 && g.keys().stream().allMatch(k -> inView(g, k)); i++) {
            person.wheel(canvas, canvas.getSize().x / 2, canvas.getSize().y / 2, 2, SWT.CTRL);
            person.settle(400);
        }
        System.out.println("zoom " + g.zoom() + ", view " + canvas.getSize());
        FusionOutlinePage outline = ShownGraph.outlinePage(e);
        Tree tree = outline.tree();
        List<String> tensors = e.model().tensors().stream().map(t -> t.name()).toList();
        // the rightmost tensor in view, and one to the right of the view that fits in it beside that one
        String a = tensors.stream().filter(t -> inView(g, t)).max((p, q) -> g.shownBounds(p)[0] - g.shownBounds(q)[0])
                .orElseThrow();
        String b = tensors.stream().filter(t -> !t.equals(a) && !inView(g, t) && fitTogether(g, a, t)).findFirst()
                .orElseThrow(() -> new AssertionError("no tensor outside the view that fits in it beside " + a));
        clickRow(tree, a, 0);
        person.settle(500);
        ViewTestSupport.screenshot(journey.shell(), "overview-selection-tree-first.png");
        assertTrue(!inView(g, b), "clicking " + a + ", in view, left " + b + " outside it");
        System.out.println("before the Ctrl+click: " + b + " at " + Arrays.toString(g.shownBounds(b))
                + ", outside the view " + canvas.getSize());
        clickRow(tree, b, SWT.CTRL);
        person.settle(800);   // the overview is drawn again once the graph rests
        assertEquals(java.util.Set.of(a, b), java.util.Set.copyOf(g.selectedKeys()),
                "the click and the Ctrl+click in the tree selected both");
        ViewTestSupport.screenshot(journey.shell(), "overview-selection-tree.png");
        assertTrue(inView(g, a) && inView(g, b), "the graph shows both " + a + " " + Arrays.toString(g.shownBounds(a))
                + " and " + b + " " + Arrays.toString(g.shownBounds(b)) + " in " + g.getControl().getSize());
        int[] frame = outline.viewportBox();
        for (String t : List.of(a, b)) {
            int[] box = outline.overviewBox(t);
            System.out.println("overview frame " + Arrays.toString(frame) + ", " + t + " at " + Arrays.toString(box));
            assertTrue(box[0] >= frame[0] - 2 && box[1] >= frame[1] - 2 && box[0] + box[2] <= frame[0] + frame[2] + 2
                    && box[1] + box[3] <= frame[1] + frame[3] + 2, "the overview's frame " + Arrays.toString(frame)
                    + " holds " + t + " " + Arrays.toString(box));
        }
    }

    /** Clicks the Outline's row of {@code tensor} (scrolled into the tree's sight first, as a person scrolls it). */
    private void clickRow(Tree tree, String tensor, int modifiers) {
        for (TreeItem group : tree.getItems()) {
            for (TreeItem row : group.getItems()) {
                if (!row.getText().startsWith(tensor + " :")) continue;
                tree.setTopItem(row);   // its whole row in sight: at the bottom the overview's sash cut it
                person.settle(100);
                var r = row.getBounds();
                person.click(tree, r.x + Math.min(r.width / 2, 40), r.y + r.height / 2, 1, modifiers);
                return;
            }
        }
        throw new AssertionError("no row for " + tensor + " in the Outline");
    }

    /** Whether the node is whole in the graph's view. */
    private static boolean inView(GraphViewer g, String key) {
        int[] r = g.shownBounds(key);
        var size = g.getControl().getSize();
        return r[0] >= 0 && r[1] >= 0 && r[0] + r[2] <= size.x && r[1] + r[3] <= size.y;
    }

    /** Whether two nodes fit in the view together, with a margin. */
    private static boolean fitTogether(GraphViewer g, String a, String b) {
        int[] p = g.shownBounds(a), q = g.shownBounds(b);
        int w = Math.max(p[0] + p[2], q[0] + q[2]) - Math.min(p[0], q[0]);
        int h = Math.max(p[1] + p[3], q[1] + q[3]) - Math.min(p[1], q[1]);
        var size = g.getControl().getSize();
        return w + 60 <= size.x && h + 60 <= size.y;
    }

    /** Pixels that differ between two pictures of the same control within {x, y, width, height} (a border of 2 more). */
    private static long differing(ImageData a, ImageData b, int[] box) {
        long n = 0;
        for (int y = Math.max(0, box[1] - 2); y < Math.min(Math.min(a.height, b.height), box[1] + box[3] + 2); y++) {
            for (int x = Math.max(0, box[0] - 2); x < Math.min(Math.min(a.width, b.width), box[0] + box[2] + 2); x++) {
                if (!a.palette.getRGB(a.getPixel(x, y)).equals(b.palette.getRGB(b.getPixel(x, y)))) n++;
            }
        }
        return n;
    }
}
