package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.TimelineView;
import org.hostir.studio.ui.timeline.model.EventDetails;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Timeline after a CPU run of ag_matmul_p2p, driven with the mouse: a click on a matmul bar of the maximized
 * timeline selects it with an outline that shows on the blue bar and leaves the timeline in front; hovering a bar
 * shows its tooltip beside the pointer with the start on the ruler's origin.
 */
public class TimelineJourneyTest {
    private Journey journey;
    private IWorkbenchPage page;
    private Person person;
    private TimelineView view;

    @BeforeEach
    public void run() throws Exception {
        journey = Journey.start();
        page = journey.page();
        person = journey.person();
        IFile file = ViewTestSupport.copyToWorkspace("timeline-journey", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        page.showView(LoweringView.ID);
        view = journey.runInTimeline("ag_matmul_p2p", 2, file);
    }

    @AfterEach
    public void restore() {
        var ref = page.findViewReference(TimelineView.ID);
        if (ref != null) page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
        person.settle(100);
    }

    private TimelineEvent widestMatmul() {
        return view.timeline().events().stream().filter(e -> e.kind() == EventKind.MATMUL && e.nodeId() >= 0)
                .max(Comparator.comparingLong(TimelineEvent::durationNs)).orElseThrow();
    }

    /** Issue 18, defect 8: selection on a matmul in the maximized timeline. */
    @Test
    public void clickingAMatmulInTheMaximizedTimelineOutlinesItAndKeepsTheTimelineInFront() throws Exception {
        page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(400);
        view.fit();
        person.settle(200);
        TimelineCanvas canvas = view.canvas();
        TimelineEvent matmul = widestMatmul();
        int[] at = canvas.centerOf(matmul);
        assertNotNull(at);
        person.click(canvas.control(), at, 0);
        assertEquals(matmul, canvas.selected(), "the click selected the matmul");
        assertEquals(IWorkbenchPage.STATE_MAXIMIZED, page.getPartState(page.findViewReference(TimelineView.ID)),
                "the timeline stays maximized");
        IViewPart lowering = page.findView(LoweringView.ID);
        assertTrue(lowering == null || !page.isPartVisible(lowering), "no Lowering view over the timeline");

        // the outline's pixels stand out from the matmul's blue (contrast 3 or more), on what is painted
        ImageData data = ViewTestSupport.painted(canvas);
        int[] o = canvas.selectionOutline();
        RGB bar = view.palette().bar(EventKind.MATMUL).getRGB();
        RGB top = data.palette.getRGB(data.getPixel(o[0] + o[2] / 2, o[1]));
        RGB left = data.palette.getRGB(data.getPixel(o[0], o[1] + o[3] / 2));
        assertTrue(contrast(top, bar) >= 3, "the outline's top " + top + " on the bar " + bar);
        assertTrue(contrast(left, bar) >= 3, "the outline's left side " + left + " on the bar " + bar);
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-selected-matmul.png");
    }

    /** Issue 18, defect 8: the tooltip comes beside the pointer and counts the start from the ruler's 0. */
    @Test
    public void theTooltipIsBesideThePointerWithTheRulersTimes() throws Exception {
        view.fit();
        person.settle(200);
        TimelineCanvas canvas = view.canvas();
        TimelineEvent matmul = widestMatmul();
        int[] at = canvas.centerOf(matmul);
        person.moveTo(canvas.control(), at[0] - 3, at[1]);
        person.moveTo(canvas.control(), at[0], at[1]);
        person.settle(1200);
        Shell tip = tooltipShell();
        assertNotNull(tip, "a tooltip shows over the bar");
        String text = ViewTestSupport.descendants(tip, CLabel.class).stream().map(CLabel::getText)
                .filter(t -> t != null).findFirst().orElse("");
        assertEquals(EventDetails.of(matmul, canvas.rows().startNs()), text, "the start on the ruler's origin");
        var pointer = canvas.control().toDisplay(at[0], at[1]);
        var where = tip.getLocation();
        assertTrue(Math.abs(where.x - pointer.x) < 60 && Math.abs(where.y - pointer.y) < 60,
                "beside the pointer " + pointer + ": " + where);
    }

    /**
     * Issue 18, Deliver 3: Ctrl+wheel zooms, Shift+wheel pans, W/A/S/D zoom and pan as in Perfetto, and a click
     * shows the bar in the details panel with its times on the ruler's origin.
     */
    @Test
    public void wheelKeysAndTheDetailsPanel() throws Exception {
        view.fit();
        person.settle(200);
        TimelineCanvas canvas = view.canvas();
        TimelineEvent matmul = widestMatmul();
        int[] at = canvas.centerOf(matmul);
        double scale = canvas.nsPerPixel();
        person.wheel(canvas.control(), at[0], at[1], 1, SWT.CTRL);
        assertTrue(canvas.nsPerPixel() < scale, "Ctrl+wheel up zooms in");
        double start = canvas.viewStartNs();
        person.wheel(canvas.control(), at[0], at[1], -1, SWT.SHIFT);
        assertTrue(canvas.viewStartNs() > start, "Shift+wheel down pans later");
        person.click(canvas.control(), canvas.centerOf(matmul), 0);
        assertEquals(matmul, canvas.selected());
        assertEquals(EventDetails.of(matmul, canvas.rows().startNs()), view.detailsText(), "the details panel");
        scale = canvas.nsPerPixel();
        person.press(0, 'w');
        assertTrue(canvas.nsPerPixel() < scale, "W zooms in");
        scale = canvas.nsPerPixel();
        person.press(0, 's');
        assertTrue(canvas.nsPerPixel() > scale, "S zooms out");
        start = canvas.viewStartNs();
        person.press(0, 'd');
        assertTrue(canvas.viewStartNs() > start, "D pans later");
        start = canvas.viewStartNs();
        person.press(0, 'a');
        assertTrue(canvas.viewStartNs() < start, "A pans earlier");
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-details.png");
    }

    /**
     * Issue 18, Deliver 3: Shift+drag chooses a time range and the details panel shows its figures (bytes moved,
     * busy time per stream, overlap); the figures of a range that holds the whole run are the run's.
     */
    @Test
    public void shiftDragChoosesARangeWithItsFigures() throws Exception {
        view.fit();
        person.settle(200);
        TimelineCanvas canvas = view.canvas();
        var c = canvas.control();
        int y = c.getSize().y / 3;
        person.drag(c, 200, y, c.getSize().x - 40, y, SWT.SHIFT);
        long[] range = canvas.range();
        assertNotNull(range, "Shift+drag chose a range");
        assertTrue(range[1] > range[0]);
        String text = view.detailsText();
        assertTrue(text.startsWith("range "), text);
        assertTrue(text.contains("bytes moved"), text);
        assertTrue(text.contains("busy"), "busy time per stream: " + text);
        var t = view.timeline();
        long start = t.events().stream().mapToLong(TimelineEvent::startNs).min().orElseThrow();
        long end = t.events().stream().mapToLong(TimelineEvent::endNs).max().orElseThrow();
        assertEquals(org.hostir.studio.trace.OverlapFigures.of(t).format(), org.hostir.studio.trace.OverlapFigures
                .of(org.hostir.studio.ui.timeline.model.RangeFigures.cut(t, start, end)).format(),
                "the whole run's range has the run's figures");
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-range.png");
    }

    /**
     * Issue 35, "Fit drops the range figures": a range chosen with Shift+drag while zoomed in stays chosen, with its
     * figures in the details panel, after Fit (the 0 key and Ctrl+0, the view's Fit command).
     */
    @Test
    public void fitKeepsTheRangeAndItsFigures() throws Exception {
        view.fit();
        person.settle(200);
        TimelineCanvas canvas = view.canvas();
        var c = canvas.control();
        person.click(c, 5, 5);
        for (int i = 0; i < 3; i++) person.press(0, '+');
        int y = c.getSize().y / 3;
        person.drag(c, 300, y, c.getSize().x - 200, y, SWT.SHIFT);
        long[] range = canvas.range();
        assertNotNull(range, "Shift+drag chose a range");
        String figures = view.detailsText();
        assertTrue(figures.startsWith("range "), figures);
        double zoomed = canvas.nsPerPixel();
        person.press(0, '0');
        assertTrue(canvas.nsPerPixel() > zoomed, "0 fitted the run: " + canvas.nsPerPixel() + " vs " + zoomed);
        assertArrayEquals(range, canvas.range(), "the range after the 0 key");
        assertEquals(figures, view.detailsText(), "the range's figures after the 0 key");
        for (int i = 0; i < 3; i++) person.press(0, '+');
        person.press(SWT.CTRL, '0');
        assertArrayEquals(range, canvas.range(), "the range after Ctrl+0");
        assertEquals(figures, view.detailsText(), "the range's figures after Ctrl+0");
        // and the view's toolbar item, clicked
        for (int i = 0; i < 3; i++) person.press(0, '+');
        zoomed = canvas.nsPerPixel();
        org.eclipse.swt.widgets.ToolItem fit = java.util.Arrays.stream(ViewTestSupport.descendants(
                page.getWorkbenchWindow().getShell(), org.eclipse.swt.widgets.ToolBar.class).stream()
                .flatMap(b -> java.util.Arrays.stream(b.getItems())).toArray(org.eclipse.swt.widgets.ToolItem[]::new))
                .filter(item -> "Fit".equals(item.getText()) && item.getParent().isVisible()).findFirst()
                .orElseThrow(() -> new AssertionError("no Fit in the view's toolbar"));
        var box = fit.getBounds();
        person.click(fit.getParent(), box.x + box.width / 2, box.y + box.height / 2);
        assertTrue(canvas.nsPerPixel() > zoomed, "the toolbar's Fit fitted the run");
        assertArrayEquals(range, canvas.range(), "the range after the toolbar's Fit");
        assertEquals(figures, view.detailsText(), "the range's figures after the toolbar's Fit");
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-range-fit.png");
        person.click(c, 300, y, 1, SWT.SHIFT);   // a Shift+click clears the range for the next test
    }

        /** Issue 18, Deliver 3: the event search box finds events by name, selects and reveals them, Enter goes on. */
    @Test
    public void theSearchBoxFindsEvents() throws Exception {
        view.fit();
        person.settle(200);
        long recvs = view.timeline().events().stream().filter(e -> e.name().toLowerCase().contains("recv")).count();
        assertTrue(recvs >= 2, "the run has receives: " + recvs);
        person.focusByClick(view.searchField());
        person.type("recv", 30);
        person.settle(400);
        assertEquals("recv", view.searchField().getText());
        TimelineEvent first = view.canvas().selected();
        assertNotNull(first, "the first match is selected");
        assertTrue(first.name().toLowerCase().contains("recv"), first.name());
        assertEquals("1 of " + recvs, view.searchCount());
        person.press(SWT.CR);
        assertEquals("2 of " + recvs, view.searchCount());
        assertTrue(view.canvas().selected() != first && view.canvas().selected().name().toLowerCase().contains("recv"));

        // another run in the view: the box starts empty (issue 35: the find text carried over to the next run)
        view = journey.runInTimeline("ag_matmul_p2p", 2, null);
        person.settle(400);
        assertEquals("", view.searchField().getText(), "the find box after another run");
        assertEquals("", view.searchCount());
    }

        private static Shell tooltipShell() {
        Display d = Display.getCurrent();
        List<Shell> shells = List.of(d.getShells());
        for (Shell s : shells) {
            for (Shell child : s.getShells()) {
                if (child.isVisible() && !ViewTestSupport.descendants(child, CLabel.class).isEmpty()) return child;
            }
        }
        return null;
    }

    private static double contrast(RGB a, RGB b) {
        double la = Screens.luminance(a), lb = Screens.luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }
}
