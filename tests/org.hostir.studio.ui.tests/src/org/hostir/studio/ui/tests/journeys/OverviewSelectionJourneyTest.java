package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Scrollable;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.ui.IPageLayout;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.FusionOutlinePage;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, round 18's hand drive: "the Outline thumbnail framed one of two selected tensors". The overview shows
 * what the graph shows: each selected node drawn selected, read from the screen (each tensor's place in the overview
 * changes from the picture with nothing selected); that passed without a change, the graph's own Ctrl+click not
 * being the failing case. The failing case was a selection made in the Outline's tree: the graph scrolled for one
 * selected node only, so a second one outside the view stayed out of the overview's frame.
 */
public class OverviewSelectionJourneyTest extends JourneyTest {

    @Test
    public void theOverviewShowsBothTensorsOfACtrlClickSelection() throws Exception {
        FusionEditor e = journey.openSeedBesideOutline("overview-selection", "ag_matmul_p2p", "selection.fusion");
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
    public void twoTensorsSelectedInTheTreeAreBothInTheViewAndTheOverviewsFrame() throws Exception {
        journey.show(IPageLayout.ID_OUTLINE);
        IFile f = ViewTestSupport.copyToWorkspace("overview-selection", "examples/moe/moe_layer.fusion", "moe.fusion");
        FusionEditor e = journey.open(f);
        page.activate(e);
        GraphViewer g = ShownGraph.of(e);
        person.settle(800);
        zoomInUntilLargerThanTheView(g);
        FusionOutlinePage outline = ShownGraph.outlinePage(e);
        Tree tree = outline.tree();
        List<String> tensors = e.model().tensors().stream().map(t -> t.name()).toList();
        // the rightmost tensor in view, and one outside the view that fits in it beside that one
        String a = tensors.stream().filter(t -> inView(g, t)).max((p, q) -> g.shownBounds(p)[0] - g.shownBounds(q)[0])
                .orElseThrow();
        String b = tensors.stream().filter(t -> !t.equals(a) && !inView(g, t) && fitTogether(g, a, t)).findFirst()
                .orElseThrow(() -> new AssertionError("no tensor outside the view that fits in it beside " + a));
        TreeRows.click(person, tree, TreeRows.child(tree, a + " :"), 0);
        person.settle(500);
        assertEquals(List.of(a), g.selectedKeys(), "the click on " + a + "'s row selected it on the graph");
        ViewTestSupport.screenshot(journey.shell(), "overview-selection-tree-first.png");
        assertFalse(inView(g, b), "clicking " + a + ", in view, left " + b + " " + Arrays.toString(g.shownBounds(b))
                + " outside the view " + view(g));
        TreeRows.click(person, tree, TreeRows.child(tree, b + " :"), SWT.CTRL);
        person.settle(800);   // the overview is drawn again once the graph rests
        assertEquals(Set.of(a, b), Set.copyOf(g.selectedKeys()), "the click and the Ctrl+click in the tree selected both");
        ViewTestSupport.screenshot(journey.shell(), "overview-selection-tree.png");
        assertShownSelected(g, a, b);
        assertInTheFrame(outline, a, b);
    }

    /** Ctrl+wheel over the graph until it is larger than its view (it is at 1280 x 800 already). */
    private void zoomInUntilLargerThanTheView(GraphViewer g) {
        Control canvas = g.getControl();
        for (int i = 0; i < 6 && g.keys().stream().allMatch(k -> inView(g, k)); i++) {
            person.wheel(canvas, canvas.getSize().x / 2, canvas.getSize().y / 2, 2, SWT.CTRL);
            person.settle(400);
        }
        System.out.println("zoom " + g.zoom() + ", view " + view(g));
    }

    /** Each node whole in the graph's view, and drawn there with the selection's frame (read from the screen). */
    private static void assertShownSelected(GraphViewer g, String... keys) {
        ImageData shown = ScreenPixels.of(g.getControl());
        RGB selected = ThemeColors.get("org.hostir.studio.ui.graph.selection", SWT.COLOR_BLUE).getRGB();
        for (String k : keys) {
            int[] r = g.shownBounds(k);
            assertTrue(inView(g, k), "the graph shows " + k + " " + Arrays.toString(r) + " whole in its view "
                    + view(g));
            long ink = near(shown, r, selected, 6);
            System.out.println(k + " at " + Arrays.toString(r) + ": " + ink + " pixels of the selection's colour");
            assertTrue(ink > 100, "the graph draws " + k + " selected at " + Arrays.toString(r) + ": " + ink
                    + " pixels of " + selected);
        }
    }

    /**
     * Each node's place in the overview inside its frame, the frame as the screen shows it: the bounds of the long
     * runs of the frame's colour (Draw2d's, the list selection's) in a picture of the overview, which must be where
     * the thumbnail has its frame.
     */
    private void assertInTheFrame(FusionOutlinePage outline, String... keys) {
        Control overview = outline.overview();
        RGB colour = overview.getDisplay().getSystemColor(SWT.COLOR_LIST_SELECTION).getRGB();
        person.until(3000, () -> close(OverviewFrame.drawn(ScreenPixels.of(overview), colour), outline.viewportBox()));
        int[] drawn = OverviewFrame.drawn(ScreenPixels.of(overview), colour), frame = outline.viewportBox();
        System.out.println("overview frame " + Arrays.toString(frame) + ", drawn " + Arrays.toString(drawn));
        assertTrue(close(drawn, frame), "the overview draws its frame " + Arrays.toString(frame) + " where the "
                + "thumbnail has it: " + Arrays.toString(drawn));
        for (String k : keys) {
            int[] box = outline.overviewBox(k);
            System.out.println("overview " + k + " at " + Arrays.toString(box));
            assertTrue(box[0] >= drawn[0] - 2 && box[1] >= drawn[1] - 2 && box[0] + box[2] <= drawn[0] + drawn[2] + 2
                    && box[1] + box[3] <= drawn[1] + drawn[3] + 2, "the overview's frame " + Arrays.toString(drawn)
                    + " holds " + k + " " + Arrays.toString(box));
        }
    }

    /** Whether two boxes {x, y, width, height} are the same within 3 pixels a side. */
    private static boolean close(int[] p, int[] q) {
        if (p == null || q == null) return false;
        for (int i = 0; i < 4; i++) if (Math.abs(p[i] - q[i]) > 3) return false;
        return true;
    }

    /** The graph's view: its canvas less the scroll bars. */
    private static Rectangle view(GraphViewer g) { return ((Scrollable) g.getControl()).getClientArea(); }

    /** Whether the node is whole in the graph's view. */
    private static boolean inView(GraphViewer g, String key) {
        int[] r = g.shownBounds(key);
        var area = view(g);
        return r[0] >= 0 && r[1] >= 0 && r[0] + r[2] <= area.width && r[1] + r[3] <= area.height;
    }

    /** Whether two nodes fit in the view together, with a margin. */
    private static boolean fitTogether(GraphViewer g, String a, String b) {
        int[] p = g.shownBounds(a), q = g.shownBounds(b);
        int w = Math.max(p[0] + p[2], q[0] + q[2]) - Math.min(p[0], q[0]);
        int h = Math.max(p[1] + p[3], q[1] + q[3]) - Math.min(p[1], q[1]);
        var area = view(g);
        return w + 60 <= area.width && h + 60 <= area.height;
    }

    /** Pixels within {x, y, width, height} of the picture whose colour is {@code rgb} within {@code slack} a channel. */
    private static long near(ImageData d, int[] box, RGB rgb, int slack) {
        long n = 0;
        for (int y = Math.max(0, box[1]); y < Math.min(d.height, box[1] + box[3]); y++) {
            for (int x = Math.max(0, box[0]); x < Math.min(d.width, box[0] + box[2]); x++) {
                RGB c = d.palette.getRGB(d.getPixel(x, y));
                if (Math.abs(c.red - rgb.red) <= slack && Math.abs(c.green - rgb.green) <= slack
                        && Math.abs(c.blue - rgb.blue) <= slack) n++;
            }
        }
        return n;
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
