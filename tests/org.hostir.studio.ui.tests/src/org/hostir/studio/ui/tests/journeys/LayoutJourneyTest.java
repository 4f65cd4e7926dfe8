package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, defect 6 and Deliver 4: the Host IR perspective as it opens, at 1280 x 800 and 1600 x 1000, nothing
 * maximized: pass names whole, each pane of the side-by-side diff at least a third of the Lowering view's width,
 * the timeline's rows clear of its summary and the whole run fitted again after the window is resized and the
 * view maximized and restored, no toolbar label cut, no large unpainted region in the graph; a screenshot of each.
 */
public class LayoutJourneyTest {
    @Test
    public void theDefaultLayoutWorksAt1280x800() throws Exception { check(1280, 800); }

    @Test
    public void theDefaultLayoutWorksAt1600x1000() throws Exception { check(1600, 1000); }

    private static void check(int width, int height) throws Exception {
        Journey journey = Journey.inResetStudio(width, height);
        IWorkbenchPage page = journey.page();
        Shell shell = journey.shell();
        Person person = journey.person();
        FusionEditor editor = journey.openSeedWithLowering("layout");
        IFile file = editor.getEditorInput().getAdapter(IFile.class);
        LoweringView lowering = journey.show(LoweringView.ID);
        ShownLowering.of(lowering).selectPass("StreamParallelType");
        person.settle(500);
        String size = width + "x" + height;

        // pass names whole: the name column holds the longest, and the list shows the column
        Table passes = (Table) ShownLowering.of(lowering).passList();
        GC gc = new GC(passes);
        int longest = gc.textExtent("\u25cf ConvertToCommunication").x;
        gc.dispose();
        assertTrue(passes.getColumn(0).getWidth() >= longest, size + ": name column " + passes.getColumn(0).getWidth()
                + " < " + longest);
        assertTrue(passes.getClientArea().width >= passes.getColumn(0).getWidth(), size + ": the list shows the"
                + " names: " + passes.getClientArea().width);
        int viewWidth = ShownLowering.of(lowering).passList().getParent().getSize().x;
        int diffWidth = ShownLowering.of(lowering).diffControl().getSize().x;
        assertTrue(diffWidth * 3 >= viewWidth, size + ": diff " + diffWidth + " of " + viewWidth);
        // each of the side-by-side panes (BEFORE, AFTER) a third of the view's width (Deliver 4)
        var panes = ViewTestSupport.descendants(ShownLowering.of(lowering).diffControl(), StyledText.class).stream()
                .filter(t -> t.isVisible() && t.getSize().x > 20).toList();
        assertTrue(panes.size() >= 2, size + ": the diff shows two panes: " + panes.size());
        // a pane is its text and its ruler (the source viewer's control), as an editor is: the AFTER pane's
        // breakpoint ruler (issue 37) takes 32 px of its text, which at 1280 x 800 is 328 px of 1014 beside it
        for (StyledText pane : panes) {
            int paneWidth = pane.getParent().getSize().x;
            assertTrue(paneWidth * 3 >= viewWidth, size + ": a diff pane " + paneWidth + " px of " + viewWidth
                    + " (texts " + panes.stream().map(t -> t.getSize().x).toList() + ", panes " + panes.stream()
                            .map(t -> t.getParent().getSize().x).toList() + ", pass list " + passes.getSize().x
                    + ", diff " + diffWidth + ")");
            assertTrue(pane.getSize().x * 100 >= 30 * viewWidth, size + ": a pane's text " + pane.getSize().x + " px");
        }
        assertToolbarsWhole(shell, size);
        // issue 35: the graph editor at 1280 x 800 was 150 px high under the Lowering view
        Control canvas = ShownGraph.of(editor).getControl();
        System.out.println(size + ": canvas " + canvas.getSize() + ", lowering view " + ShownLowering.top(lowering)
                .getSize() + ", pass list " + passes.getSize() + ", tree " + ShownLowering.of(lowering).tree().getTree()
                        .getSize() + ", diff " + ShownLowering.of(lowering).diffControl().getSize() + ", columns "
                + passes.getColumn(0).getWidth() + "+" + passes.getColumn(1).getWidth() + " in " + passes.getClientArea()
                        .width + ", panes " + panes.stream().map(t -> t.getParent().getSize() + "/" + t.getClientArea()
                                .height / t.getLineHeight() + " lines").toList() + ", tree rows " + ShownLowering.of(lowering)
                                        .tree().getTree().getClientArea().height / ShownLowering.of(lowering).tree()
                                                .getTree().getItemHeight());
        assertColumnsReadable(passes, size);
        assertTimesKeepTheirWidth(passes, size);
        assertTrue(canvas.getSize().y >= MIN_CANVAS_HEIGHT, size + ": the graph's canvas is " + canvas.getSize().y
                + " px high");
        assertOptionsBehindToggle(person, lowering, size);
        assertLoweringFieldsWhole(lowering, size);
        // the picture shows the window, not the help of the control the pointer rests on (the Allgather option's
        // tooltip covered the Lowering view's options in the guide's studio-1280x800.png)
        assertTrue(person.restAway(shell), size + ": a tooltip stays over the window");
        File shot = ViewTestSupport.screenshot(shell, "studio-" + size + ".png");
        // issue 35, defect 7: every pass row in sight (the last one was hidden at 1280 x 800), the tree more than
        // a glance (it showed 3 rows), tab titles whole (they read "Pr..." and "Ou...")
        Rectangle lastPass = passes.getItem(passes.getItemCount() - 1).getBounds();
        assertTrue(passes.getTopIndex() == 0 && lastPass.y + lastPass.height <= passes.getClientArea().height,
                size + ": the last pass row " + lastPass + " within the list's " + passes.getClientArea());
        var tree = ShownLowering.of(lowering).tree().getTree();
        int rows = tree.getClientArea().height / tree.getItemHeight();
        // at 1280 x 800 the editor's canvas has the height of the fifth row and line (it was 150 px high, issue 35)
        int least = width < 1600 ? 4 : 5;
        assertTrue(rows >= least, size + ": the tree shows " + rows + " rows");
        var diffPanes = ViewTestSupport.descendants(ShownLowering.of(lowering).diffControl(), StyledText.class).stream()
                .filter(t -> t.isVisible() && t.getSize().x > 20).toList();
        for (StyledText pane : diffPanes) {
            int lines = pane.getClientArea().height / pane.getLineHeight();
            assertTrue(lines >= least, size + ": a diff pane shows " + lines + " lines");
        }
        assertTabsWhole(shell, size);
        if (shot != null) {
            Control graph = ShownGraph.of(editor).getControl();
            var at = Screens.inShot(shell, graph);
            double flat = Screens.largestFlatBlock(shot, at.x, at.y, graph.getSize().x, graph.getSize().y,
                    shell.getDisplay().getSystemColor(SWT.COLOR_WIDGET_BACKGROUND).getRGB());
            assertTrue(flat < 0.1, size + ": an unpainted block of " + flat + " of the graph");
        }

        // the timeline's rows clear of its summary
        String source = Files.readString(ViewTestSupport.repoFile("examples/seeds/ag_matmul_p2p.fusion"));
        var ran = (CpuRun.Outcome.Ran) CpuRun.run(source, "ag_matmul_p2p.fusion", 2, LoweringOptions.DEFAULTS, s -> { });
        TimelineView timeline = TimelineView.show(ran.result().timeline(), "ag_matmul_p2p", file);
        person.settle(500);
        int canvasHeight = timeline.canvas().control().getSize().y;
        // the rows get the height they need; where the view is lower than that (1280 x 800 since the editor's canvas
        // takes 300 px, issue 35: rows 223 px for 266) they get all of its height below the find box, the details
        // and summary beside them taking none
        var rowsAndDetails = timeline.canvas().control().getParent();
        boolean beside = ((org.eclipse.swt.custom.SashForm) rowsAndDetails).getOrientation() == SWT.HORIZONTAL;
        int wanted = timeline.canvas().preferredHeight() - 24;
        int room = beside ? rowsAndDetails.getSize().y : wanted;
        assertTrue(canvasHeight >= Math.min(wanted, room), size + ": rows " + canvasHeight + " px high for "
                + timeline.canvas().preferredHeight() + " (the view has " + rowsAndDetails.getSize().y + ")");
        assertWholeRun(timeline, size + " as opened");
        assertMemoryTracksInSight(person, timeline, size);
        assertToolbarsWhole(shell, size);
        clickABar(person, timeline);
        ViewTestSupport.screenshot(shell, "studio-timeline-" + size + ".png");
        assertDetailsAndSummaryWhole(person, timeline, size);

        // the timeline refits when the window is resized and when the view is maximized and restored
        shell.setBounds(0, 0, width - 160, height - 100);
        person.settle(400);
        assertWholeRun(timeline, size + " shrunk by 160 x 100");
        shell.setBounds(0, 0, width, height);
        person.settle(400);
        assertWholeRun(timeline, size + " back");
        var ref = page.findViewReference(TimelineView.ID);
        page.setPartState(ref, IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(400);
        assertWholeRun(timeline, size + " maximized");
        page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
        person.settle(400);
        assertWholeRun(timeline, size + " restored");
        page.closeAllEditors(false);
    }

    /** The graph's canvas at least this high at either size (issue 35: 157, then 274 px at 1280 x 800). */
    private static final int MIN_CANVAS_HEIGHT = DefaultLayoutJourneyTest.MIN_CANVAS_HEIGHT;

    /**
     * Issue 35: the options' rows took the height of the Lowering view's lists at 1280 x 800; there they are behind
     * the Options toggle. A person clicks it: every field shows, within the view; clicks again: they hide, and the
     * pass list shows every pass again. Where the view is tall enough they show without a click.
     */
    private static void assertOptionsBehindToggle(Person person, LoweringView lowering, String size) throws Exception {
        var toggle = ShownLowering.optionsToggle(lowering);
        boolean shown = ShownLowering.optionsShown(lowering);
        if (size.equals("1280x800")) assertTrue(!shown, size + ": the options hide behind their toggle");
        assertTrue(toggle.isVisible() && toggle.getSize().x >= toggle.computeSize(SWT.DEFAULT, SWT.DEFAULT).x,
                size + ": the Options toggle whole: " + toggle.getSize());
        assertEquals(shown, toggle.getSelection(), size + ": the toggle says whether the options show");
        person.clickCenter(toggle);
        person.settle(300);
        assertEquals(!shown, ShownLowering.optionsShown(lowering), size + ": the click showed or hid the options");
        if (!shown) {
            assertLoweringFieldsWhole(lowering, size + " options shown");
            person.clickCenter(toggle);
            person.settle(300);
            assertTrue(!ShownLowering.optionsShown(lowering), size + ": the second click hid them");
        } else {
            person.clickCenter(toggle);
            person.settle(300);
            assertTrue(ShownLowering.optionsShown(lowering), size + ": the second click showed them again");
        }
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        person.settle(200);
    }

    /**
     * Issue 35: the pass list's time column was cut at 1280 x 800 ("1252" of 12527 \u00b5s). What a person sees: each
     * cell's text whole, within its column and within the list's visible width, at the side its column's alignment
     * puts it. Measured against the text each cell shows, not against a fixed total: the \u00b5s figures are what
     * this machine measured, a digit wider under load (the columns' sum then passed the list's width by 3 px while
     * every figure still showed whole, and a check of the sum failed).
     */
    static void assertColumnsReadable(Table passes, String size) {
        Rectangle list = passes.getClientArea();
        GC gc = new GC(passes);
        try {
            for (var item : passes.getItems()) {
                for (int c = 0; c < passes.getColumnCount(); c++) {
                    String text = item.getText(c);
                    int need = gc.textExtent(text).x;
                    int width = passes.getColumn(c).getWidth();
                    int left = item.getBounds(c).x;
                    assertTrue(need + CELL_PAD <= width, size + ": \"" + text + "\" needs " + need
                            + " px in a column of " + width);
                    boolean right = (passes.getColumn(c).getAlignment() & SWT.RIGHT) != 0;
                    int from = right ? left + width - CELL_PAD - need : left + CELL_PAD;
                    assertTrue(from >= list.x && from + need <= list.x + list.width, size + ": \"" + text
                            + "\" is drawn at x " + from + ".." + (from + need) + ", outside the list's visible "
                            + list.x + ".." + (list.x + list.width) + " (column " + c + " at " + left + ", " + width
                            + " px wide)");
                }
            }
        } finally {
            gc.dispose();
        }
    }

    /**
     * Drive 17: a cold start's six-digit \u00b5s (Validate 115704) widened the time column and the list by 8 px, and the
     * AFTER pane fell below a third at 1280 x 800 (344 of 1039 px). The times read in ms with four digits at most, and
     * the column already holds the widest ({@code 9999}), so no time measured below ten seconds widens it.
     */
    private static void assertTimesKeepTheirWidth(Table passes, String size) {
        GC gc = new GC(passes);
        int widest = gc.textExtent("9999").x;
        gc.dispose();
        for (var item : passes.getItems()) {
            String t = item.getText(1);
            assertTrue(t.matches("\\d+(\\.\\d+)?") && t.replace(".", "").length() <= 4, size + ": the time \""
                    + t + "\" of " + item.getText(0).strip() + " is not ms with four digits at most");
        }
        assertTrue(passes.getColumn(1).getWidth() >= widest + 2 * CELL_PAD, size + ": the time column "
                + passes.getColumn(1).getWidth() + " px holds \"9999\" (" + widest + " px)");
    }

    /**
     * Pixels between a cell's edge and its text on the side of its alignment: GTK 3's text renderer's xpad (2) and
     * half of GtkTreeView's horizontal-separator (4); a theme only adds to it, so the check errs on the strict side.
     */
    private static final int CELL_PAD = 4;

    /** The timeline's window holds the whole run and the run spans most of it (fitted to the canvas's width). */
    private static void assertWholeRun(TimelineView timeline, String when) {
        var canvas = timeline.canvas();
        int bars = canvas.control().getClientArea().width - 150;
        double from = canvas.viewStartNs(), to = from + bars * canvas.nsPerPixel();
        long start = canvas.rows().startNs(), end = canvas.rows().endNs();
        assertTrue(from <= start && to >= end, when + ": the whole run [" + start + ", " + end + "] in the window ["
                + from + ", " + to + "]");
        assertTrue((end - start) >= 0.9 * (to - from), when + ": the run fills the window's width: " + (end - start)
                + " of " + (to - from) + " ns");
    }

    /**
     * Issue 35: at 1280 x 800 a 2-rank run's memory tracks lay below the rows' window (a wheel notch to see them):
     * every row and counter track lies within the canvas, unscrolled, and the tracks are painted there.
     */
    private static void assertMemoryTracksInSight(Person person, TimelineView timeline, String size) {
        var canvas = timeline.canvas();
        // each rank's memory and bytes-in-flight tracks, from the run's analysis
        assertTrue(person.until(20_000, () -> canvas.shownCounters().size() >= 2), size + ": counter tracks: "
                + canvas.shownCounters().size());
        person.settle(300);
        var c = canvas.control();
        int height = c.getClientArea().height;
        long at = canvas.rows().startNs();
        int last = canvas.shownCounters().size() - 1;
        int middle = canvas.counterPoint(last, at)[1];
        int track = middle - canvas.counterPoint(last - 1, at)[1];
        System.out.println(size + ": timeline canvas " + c.getSize() + ", wants " + canvas.preferredHeight()
                + ", last track's middle at " + middle + " (tracks " + track + " px), scroll " + canvas.verticalScroll());
        assertEquals(0, canvas.verticalScroll(), size + ": the rows open unscrolled");
        assertTrue(middle + track / 2 <= height, size + ": rank 1's last track ends at " + (middle + track / 2)
                + " px, below the canvas's " + height);
        // on the screen, the pointer away (a bar's tooltip could cover the tracks), looked at until painted: the
        // last track's top line drawn across the canvas, and the counters' colour in the tracks' bands (a track's
        // steps are where its run has samples: rank 1's bytes in flight may be a short spike)
        person.restAway(c.getShell());
        int top = middle - track / 2, first = canvas.counterPoint(0, at)[1] - track / 2;
        int across = c.getClientArea().width - 150;
        var grid = timeline.palette().grid().getRGB();
        var counter = timeline.palette().counter().getRGB();
        int[] seen = new int[2];
        person.until(5_000, () -> {
            seen[0] = pixels(timeline, grid, top - 1, top + 2);
            seen[1] = pixels(timeline, counter, first, middle + track / 2);
            return seen[0] >= across / 2 && seen[1] > 20;
        });
        assertTrue(seen[0] >= across / 2, size + ": rank 1's last track's top line drawn: " + seen[0] + " pixels");
        assertTrue(seen[1] > 20, size + ": the counters painted in their tracks: " + seen[1] + " pixels");
    }

    /** The pixels of {@code colour} right of the labels between canvas rows {@code top} and {@code bottom}. */
    private static int pixels(TimelineView timeline, org.eclipse.swt.graphics.RGB colour, int top, int bottom) {
        var c = timeline.canvas().control();
        var shot = new org.eclipse.swt.graphics.Image(c.getDisplay(), c.getSize().x, c.getSize().y);
        GC gc = new GC(c);
        gc.copyArea(shot, 0, 0);
        gc.dispose();
        var data = shot.getImageData();
        shot.dispose();
        int painted = 0;
        for (int y = Math.max(0, top); y < Math.min(data.height, bottom); y++) {
            for (int x = 150; x < data.width; x++) if (data.palette.getRGB(data.getPixel(x, y)).equals(colour)) painted++;
        }
        return painted;
    }

    /** A click on the first bar found on the canvas (its details and the node link then show). */
    private static void clickABar(Person person, TimelineView timeline) {
        var canvas = timeline.canvas();
        var area = canvas.control().getClientArea();
        for (int y = 30; y < area.height; y += 4) {
            for (int x = 160; x < area.width; x += 6) {
                if (canvas.eventAt(x, y) != null && canvas.eventAt(x, y).nodeId() >= 0) {
                    person.click(canvas.control(), x, y);
                    person.settle(200);
                    assertTrue(timeline.detailsText().contains("rank"), "a bar's details: " + timeline.detailsText());
                    return;
                }
            }
        }
        throw new AssertionError("no bar with a Host IR node on the timeline's canvas");
    }

    /**
     * Issue 35, defect 7: the Timeline's details and summary were cut off on the right with no scrollbar: each
     * line of both fits its pane (or the pane wraps it), and the node link is whole.
     */
    private static void assertDetailsAndSummaryWhole(Person person, TimelineView timeline, String size) {
        // the details shown by the click on a bar; then the summary, a tab beside them (issue 35, round 18)
        int styled = assertShownTextsWhole(timeline, size);
        SummaryReading.clickTab(person, timeline, "Summary");
        styled += assertShownTextsWhole(timeline, size);
        assertTrue(styled >= 2, size + ": the details and the summary shown, found " + styled + " texts");
    }

    /** The visible text panes' lines within their width, and the node link whole; the count of wrapped texts seen. */
    private static int assertShownTextsWhole(TimelineView timeline, String size) {
        Control root = timeline.canvas().control().getParent().getParent();
        for (org.eclipse.swt.widgets.Text t : ViewTestSupport.descendants(root, org.eclipse.swt.widgets.Text.class)) {
            if (!t.isVisible() || (t.getStyle() & SWT.MULTI) == 0) continue;
            if ((t.getStyle() & SWT.WRAP) != 0) continue; // wrapped: nothing runs past the right edge
            GC gc = new GC(t);
            try {
                for (String line : t.getText().split("\\R")) {
                    assertTrue(gc.textExtent(line).x <= t.getClientArea().width, size + ": \"" + line + "\" is "
                            + gc.textExtent(line).x + " px in a pane of " + t.getClientArea().width);
                }
            } finally {
                gc.dispose();
            }
        }
        // the details and the summary are wrapped StyledTexts: each character's place within the pane's width
        // (GTK's wrapped Text kept the widest width it was given and wrapped past the edge, issue 35)
        int styled = 0;
        for (var t : ViewTestSupport.descendants(root, org.eclipse.swt.custom.StyledText.class)) {
            if (!t.isVisible() || t.getCharCount() == 0) continue;
            styled++;
            int width = t.getClientArea().width;
            for (int o = 0; o < t.getCharCount(); o++) {
                int x = t.getLocationAtOffset(o).x;
                assertTrue(x >= 0 && x < width, size + ": character " + o + " of \"" + firstLine(t.getText())
                        + "...\" at x " + x + " in a pane of " + width);
            }
        }
        for (org.eclipse.swt.widgets.Link link : ViewTestSupport.descendants(root, org.eclipse.swt.widgets.Link.class)) {
            if (!link.isVisible() || link.getText().isEmpty()) continue;
            int wanted = link.computeSize(SWT.DEFAULT, SWT.DEFAULT).x;
            assertTrue(wanted <= link.getSize().x + 1, size + ": the link \"" + link.getText() + "\" needs " + wanted
                    + " px, has " + link.getSize().x);
        }
        return styled;
    }

    private static String firstLine(String text) { return text.lines().findFirst().orElse(""); }

    /** Every tab of a visible view stack shows its whole title (CTabFolder shortens a title that does not fit). */
    private static void assertTabsWhole(Shell shell, String size) {
        for (var folder : ViewTestSupport.descendants(shell, org.eclipse.swt.custom.CTabFolder.class)) {
            if (!folder.isVisible() || folder.getSize().x < 10) continue;
            GC gc = new GC(folder);
            try {
                for (var item : folder.getItems()) {
                    if (!item.isShowing() || item.getText().isEmpty()) continue;
                    int need = gc.textExtent(item.getText()).x + (item.getImage() == null ? 0
                            : item.getImage().getBounds().width);
                    assertTrue(item.getBounds().width >= need, size + ": the tab \"" + item.getText() + "\" is "
                            + item.getBounds().width + " px wide, its title and icon " + need);
                }
            } finally {
                gc.dispose();
            }
        }
    }

    /** Every visible toolbar with text items lies inside its parent, and so does each of its items. */
    private static void assertToolbarsWhole(Shell shell, String size) {
        for (ToolBar bar : ViewTestSupport.descendants(shell, ToolBar.class)) {
            if (!bar.isVisible() || bar.getItemCount() == 0) continue;
            Rectangle area = bar.getClientArea();
            for (ToolItem item : bar.getItems()) {
                if (item.getText() == null || item.getText().isBlank()) continue;
                Rectangle b = item.getBounds();
                assertTrue(b.x + b.width <= area.width + 1, size + ": \"" + item.getText() + "\" cut by its toolbar");
                var p = bar.toDisplay(b.x + b.width - 1, b.y);
                Rectangle parent = bar.getParent().getBounds();
                var parentAt = bar.getParent().getParent() == null ? new org.eclipse.swt.graphics.Point(0, 0)
                        : bar.getParent().getParent().toDisplay(parent.x, parent.y);
                assertTrue(p.x < parentAt.x + parent.width + 1, size + ": \"" + item.getText() + "\" outside "
                        + bar.getParent());
                assertNotNull(item.getText());
            }
        }
    }

    /**
     * Issue 35: every field above the Lowering view's lists lies inside the view's client area and inside each
     * composite that holds it, and no check box or button is narrower than its text (at 1280 x 800 the option row
     * ran past the view: "Forward local shard", "nvFuser" and "host_ir_lowering" were cut).
     */
    private static void assertLoweringFieldsWhole(LoweringView lowering, String size) {
        var top = ShownLowering.top(lowering);
        Rectangle view = top.getClientArea();
        var fields = ViewTestSupport.descendants(ShownLowering.fields(lowering), Control.class).stream()
                .filter(c -> !(c instanceof org.eclipse.swt.widgets.Composite) || c instanceof org.eclipse.swt.widgets.Combo
                        || c instanceof org.eclipse.swt.widgets.Spinner)
                .filter(c -> ShownLowering.optionsShown(lowering) || !hiddenOption(c))
                .toList();
        int wanted = ShownLowering.optionsShown(lowering) ? 2 * LoweringOptions.DECLARED.size() : 10;
        assertTrue(fields.size() >= wanted, size + ": fields " + fields.size());
        for (Control c : fields) {
            String what = size + ": " + c.getClass().getSimpleName() + " " + describe(c);
            Rectangle at = c.getDisplay().map(c.getParent(), top, c.getBounds());
            assertTrue(view.contains(at.x, at.y) && view.contains(at.x + at.width - 1, at.y + at.height - 1),
                    what + " at " + at + " outside the view's client area " + view);
            for (var a = c.getParent(); a != top; a = a.getParent()) {
                Rectangle in = c.getDisplay().map(c.getParent(), a, c.getBounds());
                Rectangle area = a.getClientArea();
                assertTrue(area.contains(in.x, in.y) && area.contains(in.x + in.width - 1, in.y + in.height - 1),
                        what + " at " + in + " cut by its holder's area " + area);
            }
            if (c instanceof org.eclipse.swt.widgets.Button b) {
                assertTrue(b.getSize().x >= b.computeSize(SWT.DEFAULT, SWT.DEFAULT).x, what + " squeezed to "
                        + b.getSize().x + " px");
            }
        }
    }

    /** Whether {@code c} is in a hidden part of the fields (the options' rows behind their toggle). */
    private static boolean hiddenOption(Control c) {
        for (Control a = c; a != null; a = a.getParent()) if (!a.getVisible()) return true;
        return false;
    }

    private static String describe(Control c) {
        return switch (c) {
            case org.eclipse.swt.widgets.Button b -> '"' + b.getText() + '"';
            case org.eclipse.swt.widgets.Label l -> '"' + l.getText() + '"';
            default -> c.getToolTipText() == null ? "" : c.getToolTipText();
        };
    }
}
