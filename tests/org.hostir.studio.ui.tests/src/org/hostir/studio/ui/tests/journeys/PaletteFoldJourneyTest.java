package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.editor.model.Layout;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.Test;

/**
 * Issue 35 (the default layout clips; GEF's editing basics): at 1600 x 1000 the graph palette ended at "Align right",
 * every op entry below the fold and reachable only with the wheel (GTK's overlay scrollbar shows on hover only). In
 * the default Studio layout at 1600 x 1000 and 1280 x 800, as the seed opens: the first op entry lies whole inside
 * the palette's visible area (its bounds, and its label's pixels on the screen), a person drags it onto the graph and
 * the op is added; the Arrange drawer opens with a click on its header and closes with Space.
 */
public class PaletteFoldJourneyTest {
    /** The least pixels of the op entry's label that differ from the entry's background (a 3-letter label has 60+). */
    static final int MIN_LABEL_PIXELS = 15;

    @Test
    public void theOpEntriesShowAt1600x1000() throws Exception { check(1600, 1000); }

    @Test
    public void theOpEntriesShowAt1280x800() throws Exception { check(1280, 800); }

    private static void check(int width, int height) throws Exception {
        Journey journey = Journey.inResetStudio(width, height);
        IWorkbenchPage page = journey.page();
        Person person = journey.person();
        String size = width + "x" + height;
        FusionEditor editor = journey.openSeedWithLowering("palette-fold");
        person.settle(500);
        try {
            String first = OpKind.values()[0].fileName();
            Button op = entry(editor, first);
            ScrolledComposite palette = scroller(op);
            Rectangle area = palette.getClientArea();
            Rectangle at = op.getDisplay().map(op.getParent(), palette, op.getBounds());
            ViewTestSupport.screenshot(journey.shell(), "palette-fold-" + size + ".png");
            System.out.println(size + ": the palette's " + first + " at " + at + " in its visible " + area);
            assertTrue(at.y >= 0 && at.y + at.height <= area.height && at.x >= 0 && at.x + at.width <= area.width,
                    size + ": the first op entry " + first + " at " + at + " is not inside the palette's visible " + area);
            int label = labelPixels(palette, at);
            assertTrue(label >= MIN_LABEL_PIXELS, size + ": the screen shows " + label + " pixels of " + first
                    + "'s label inside the palette");

            // a person drags the entry onto an empty place of the graph, below the seed's nodes (200 px from the left:
            // the operands it brings go 200 px left of it)
            GraphViewer graph = ShownGraph.of(editor);
            Control canvas = graph.getControl();
            List<String> before = graph.keys();
            String written = "\"op\": \"" + first + "\"";
            int ops = count(ShownGraph.source(editor).get(), written);
            person.dragTo(op, op.getSize().x / 2, op.getSize().y / 2, canvas, 260, canvas.getSize().y * 2 / 3);
            graph = ShownGraph.of(editor);
            List<String> added = new ArrayList<>(graph.keys());
            added.removeAll(before);
            // nothing selected: the op comes with its output and the operands it needs (as nvFuser's tests define them)
            assertEquals(1, added.stream().filter(k -> k.startsWith(Layout.opKey(""))).count(), size + ": the drop added "
                    + added + ", not one op");
            assertTrue(added.size() >= 2, size + ": the drop added " + added + ", no output");
            for (String key : added) assertTrue(graph.visible(key), size + ": " + key + " is shown");
            String made = added.stream().filter(k -> k.startsWith(Layout.opKey(""))).findFirst().orElseThrow();
            int[] b = graph.shownBounds(made);
            Rectangle drawn = ((org.eclipse.swt.widgets.Canvas) canvas).getClientArea();
            assertTrue(drawn.contains(b[0], b[1]) && drawn.contains(b[0] + b[2] - 1, b[1] + b[3] - 1), size + ": the "
                    + first + " op at [" + b[0] + ", " + b[1] + ", " + b[2] + ", " + b[3] + "] is cut by the canvas " + drawn);
            assertEquals(ops + 1, count(ShownGraph.source(editor).get(), written), size + ": the source's " + written);
            ViewTestSupport.screenshot(journey.shell(), "palette-fold-dropped-" + size + ".png");

            // the Arrange drawer: closed as opened, a click on its header opens it, Space on the header closes it
            Button align = entry(editor, "Align left");
            assertFalse(align.isVisible(), size + ": Align left shows before its drawer is opened");
            Button header = ShownGraph.drawerHeader(align);
            person.clickCenter(header);
            assertTrue(person.until(2000, align::isVisible), size + ": a click on " + header.getText()
                    + " left Align left hidden");
            person.press(0, ' ');
            assertTrue(person.until(2000, () -> !align.isVisible()), size + ": Space on " + header.getText()
                    + " left the drawer open");
        } finally {
            page.closeAllEditors(false);
        }
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) n++;
        return n;
    }

    /** The palette's entry with this text, as it is (no wheel turned, no drawer opened). */
    private static Button entry(FusionEditor editor, String text) {
        return ViewTestSupport.descendants(ShownGraph.page(editor), Button.class).stream()
                .filter(b -> b.getText().equals(text)).findFirst()
                .orElseThrow(() -> new AssertionError("the palette has no " + text));
    }

    private static ScrolledComposite scroller(Control c) {
        for (Control p = c.getParent(); p != null; p = p.getParent()) if (p instanceof ScrolledComposite s) return s;
        throw new AssertionError(c + " is in no scroller");
    }

    /**
     * The pixels on the screen inside both the palette's visible area and the entry's bounds ({@code at}, in the
     * palette's coordinates) that differ clearly from the region's commonest colour (the button's face): its label.
     */
    private static int labelPixels(ScrolledComposite palette, Rectangle at) {
        Rectangle shown = at.intersection(palette.getClientArea());
        if (shown.isEmpty()) return 0;
        ImageData data = ScreenPixels.of(palette, shown);
        Map<Integer, Integer> counts = new HashMap<>();
        for (int y = 0; y < data.height; y++) for (int x = 0; x < data.width; x++) counts.merge(data.getPixel(x, y), 1, Integer::sum);
        var face = data.palette.getRGB(counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey());
        int differ = 0;
        for (int y = 0; y < data.height; y++) {
            for (int x = 0; x < data.width; x++) {
                var rgb = data.palette.getRGB(data.getPixel(x, y));
                int d = Math.abs(rgb.red - face.red) + Math.abs(rgb.green - face.green) + Math.abs(rgb.blue - face.blue);
                if (d > 200) differ++;
            }
        }
        return differ;
    }
}
