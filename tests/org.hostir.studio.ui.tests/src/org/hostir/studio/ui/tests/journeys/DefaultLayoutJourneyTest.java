package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, Major 7 ("the default layout clips"), as the Host IR perspective opens at 1280 x 800 and 1600 x 1000: the
 * graph's canvas at least 300 px high, the palette a narrow column beside it, every node whole as the editor opens
 * and after a click on Fit (tv2 was cut at the canvas's right edge), and every action of the Lowering view's toolbar whole in its tab
 * row ("Hide unchanged Lower" ran into the chevron); a person then clicks the toolbar's Hide unchanged.
 */
public class DefaultLayoutJourneyTest {
    /** The canvas's least height at 1280 x 800 (it was 274 px). */
    static final int MIN_CANVAS_HEIGHT = 300;
    /** The palette's largest share of the graph page's width, in percent (its two columns took 260 px of 701). */
    static final int MAX_PALETTE_PERCENT = 20;
    /** The tab row's toolbar's largest share of the row, in percent, so that the tab titles keep their room. */
    static final int MAX_TOOLBAR_PERCENT = 45;

    @Test
    public void nothingIsClippedAt1280x800() throws Exception { check(1280, 800); }

    @Test
    public void nothingIsClippedAt1600x1000() throws Exception { check(1600, 1000); }

    private static void check(int width, int height) throws Exception {
        Journey journey = Journey.inResetStudio(width, height);
        IWorkbenchPage page = journey.page();
        Shell shell = journey.shell();
        Person person = journey.person();
        String size = width + "x" + height;
        FusionEditor editor = journey.openSeedWithLowering("default-layout");
        LoweringView lowering = journey.show(LoweringView.ID);
        person.settle(500);
        try {
            GraphViewer graph = ShownGraph.of(editor);
            Control canvas = graph.getControl();
            Composite graphPage = ShownGraph.page(editor);
            Control palette = paletteOf(editor);
            System.out.println(size + ": canvas " + canvas.getSize() + ", palette " + palette.getSize() + " of "
                    + graphPage.getSize());
            assertTrue(canvas.getSize().y >= MIN_CANVAS_HEIGHT, size + ": the canvas is " + canvas.getSize().y
                    + " px high");
            assertTrue(palette.getSize().x * 100 <= MAX_PALETTE_PERCENT * graphPage.getSize().x, size
                    + ": the palette is " + palette.getSize().x + " px of the page's " + graphPage.getSize().x);
            assertPaletteButtonsWhole(editor, palette, size);

            // as opened, before any click: every node whole (issue 35: at 1280 x 800 tv2 was cut at the canvas's
            // edge until Fit was clicked), at a zoom no larger than 100%, the palette's label saying it
            assertTrue(graph.zoom() <= 1, size + ": opened at " + graph.zoom());
            assertEveryNodeWhole(graph, size + " as opened");
            assertTrue(ShownGraph.zoomLabel(editor).equals("Zoom: " + Math.round(graph.zoom() * 100) + "%"),
                    size + ": the label says " + ShownGraph.zoomLabel(editor) + " at " + graph.zoom());
            ViewTestSupport.screenshot(shell, "default-layout-opened-" + size + ".png");

            // a person clicks Fit: every node shows whole on the canvas
            person.clickCenter(ShownGraph.button(editor, "Fit"));
            person.settle(400);
            assertEveryNodeWhole(graph, size + " after Fit");

            assertLoweringToolbarWhole(lowering, size);
            // the toolbar's actions are reachable: a click on Hide unchanged hides the passes that changed nothing
            int before = passCount(lowering);
            clickItem(person, toolItem(lowering, "Hide unchanged"));
            person.settle(400);
            int after = passCount(lowering);
            assertTrue(after < before, size + ": Hide unchanged left " + after + " of " + before + " passes");
            clickItem(person, toolItem(lowering, "Hide unchanged"));
            person.settle(400);
            assertTrue(passCount(lowering) == before, size + ": the second click shows"
                    + " every pass again");
            assertTrue(person.restAway(shell), size + ": a tooltip stays over the window");
            ViewTestSupport.screenshot(shell, "default-layout-" + size + ".png");
        } finally {
            page.closeAllEditors(false);
        }
    }

    /** The palette: the scrolled column left of the canvas on the graph page. */
    private static Control paletteOf(FusionEditor editor) {
        Control canvas = ShownGraph.of(editor).getControl();
        for (Control c : ShownGraph.page(editor).getChildren()) {
            if (c != canvas && c.getVisible() && c.getBounds().x < canvas.getBounds().x
                    && c.getBounds().height >= canvas.getBounds().height / 2) return c;
        }
        throw new AssertionError("no palette left of the canvas");
    }

    /** Each palette button shows its label whole and lies within the palette's width (nothing to scroll sideways). */
    private static void assertPaletteButtonsWhole(FusionEditor editor, Control palette, String size) {
        Rectangle area = ((Composite) palette).getClientArea();
        for (Button b : ViewTestSupport.descendants(palette, Button.class)) {
            if (!b.isVisible()) continue;   // in a closed drawer (View, Arrange): laid out when it opens
            var at = b.getDisplay().map(b.getParent(), palette, b.getBounds());
            assertTrue(at.x >= 0 && at.x + at.width <= area.width, size + ": the palette's \"" + b.getText() + "\" at "
                    + at + " outside its " + area);
            assertTrue(b.getSize().x >= b.computeSize(SWT.DEFAULT, SWT.DEFAULT).x, size + ": \"" + b.getText()
                    + "\" squeezed to " + b.getSize().x + " px");
        }
    }

    /** Every node's bounds lie within the canvas's client area (a cut node's edge runs past it). */
    private static void assertEveryNodeWhole(GraphViewer graph, String when) {
        Rectangle area = ((org.eclipse.swt.widgets.Canvas) graph.getControl()).getClientArea();
        List<String> cut = new ArrayList<>();
        for (String key : graph.keys()) {
            if (!graph.visible(key)) continue;
            int[] b = graph.shownBounds(key);
            if (b[0] < 0 || b[1] < 0 || b[0] + b[2] > area.width || b[1] + b[3] > area.height) {
                cut.add(key + " at [" + b[0] + ", " + b[1] + ", " + b[2] + ", " + b[3] + "]");
            }
        }
        System.out.println(when + ": zoom " + graph.zoom() + ", canvas area " + area + ", cut " + cut);
        assertTrue(cut.isEmpty(), when + ": nodes cut by the canvas " + area + ": " + cut);
    }

    /** The tab folder that holds the Lowering view (its tab row carries the view's toolbar). */
    private static CTabFolder folderOf(LoweringView lowering) {
        for (Control c = ShownLowering.top(lowering); c != null; c = c.getParent()) {
            if (c instanceof CTabFolder f) return f;
        }
        throw new AssertionError("the Lowering view is in no tab folder");
    }

    /** The view's toolbars in the tab row (the folder's top right), shown. */
    private static List<ToolBar> tabRowBars(LoweringView lowering) {
        CTabFolder folder = folderOf(lowering);
        Control topRight = folder.getTopRight();
        assertTrue(topRight != null, "the Lowering view's tab row has no toolbar");
        return ViewTestSupport.descendants(topRight, ToolBar.class).stream().filter(Control::isVisible).toList();
    }

    /**
     * Every item of the toolbar in the tab row lies whole within the folder and each control that holds it, clear of
     * the tabs and of the folder's chevron, its label whole; the view menu lies in the row too.
     */
    private static void assertLoweringToolbarWhole(LoweringView lowering, String size) {
        CTabFolder folder = folderOf(lowering);
        Rectangle folderAt = folder.getDisplay().map(folder.getParent(), null, folder.getBounds());
        int items = 0;
        for (ToolBar bar : tabRowBars(lowering)) {
            for (ToolItem item : bar.getItems()) {
                if ((item.getStyle() & SWT.SEPARATOR) != 0) continue;
                items++;
                String what = size + ": the Lowering toolbar's \"" + label(item) + "\"";
                Rectangle at = bar.getDisplay().map(bar, null, item.getBounds());
                for (Control a = bar; a != folder; a = a.getParent()) {
                    Rectangle shown = a.getDisplay().map(a.getParent(), null, a.getBounds());
                    assertTrue(shown.contains(at.x, at.y) && shown.contains(at.x + at.width - 1, at.y + at.height - 1),
                            what + " at " + at + " cut by " + a + " " + shown);
                }
                assertTrue(folderAt.contains(at.x, at.y) && folderAt.contains(at.x + at.width - 1, at.y + at.height
                        - 1), what + " at " + at + " outside its folder " + folderAt);
                for (var tab : folder.getItems()) {
                    if (!tab.isShowing()) continue;
                    Rectangle t = folder.getDisplay().map(folder, null, tab.getBounds());
                    assertTrue(!t.intersects(at), what + " at " + at + " over the tab " + tab.getText() + " " + t);
                }
                if (item.getText() != null && !item.getText().isEmpty()) {
                    GC gc = new GC(bar);
                    int need = gc.textExtent(item.getText()).x;
                    gc.dispose();
                    assertTrue(item.getBounds().width >= need, what + " is " + item.getBounds().width
                            + " px wide, its label " + need);
                }
            }
        }
        assertTrue(items >= 5, size + ": the Lowering toolbar shows " + items + " actions");
        int toolbar = folder.getTopRight().getSize().x;
        System.out.println(size + ": the Lowering tab row's toolbar " + toolbar + " px of " + folder.getSize().x);
        assertTrue(toolbar * 100 <= MAX_TOOLBAR_PERCENT * folder.getSize().x, size + ": the tab row's toolbar takes "
                + toolbar + " px of " + folder.getSize().x);
    }

    private static int passCount(LoweringView lowering) {
        return ((org.eclipse.swt.widgets.Table) ShownLowering.of(lowering).passList()).getItemCount();
    }

    private static void clickItem(Person person, ToolItem item) {
        Rectangle b = item.getBounds();
        person.click(item.getParent(), b.x + b.width / 2, b.y + b.height / 2);
    }

    private static String label(ToolItem item) {
        return item.getText() == null || item.getText().isEmpty() ? item.getToolTipText() : item.getText();
    }

    /** The toolbar item of the tab row whose label or tooltip starts with {@code text}. */
    private static ToolItem toolItem(LoweringView lowering, String text) {
        for (ToolBar bar : tabRowBars(lowering)) {
            for (ToolItem item : bar.getItems()) {
                String l = label(item);
                if (l != null && l.startsWith(text)) return item;
            }
        }
        throw new AssertionError("no \"" + text + "\" in the Lowering view's toolbar");
    }
}
