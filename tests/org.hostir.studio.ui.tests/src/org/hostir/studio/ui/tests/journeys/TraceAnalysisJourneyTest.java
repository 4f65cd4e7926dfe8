package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.trace.Counter;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimeText;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.CriticalPath;
import org.hostir.studio.trace.analysis.KernelTable;
import org.hostir.studio.trace.analysis.TraceAnalysis;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.trace.imported.KinetoReader;
import org.hostir.studio.trace.imported.TraceFiles;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.CounterPainter;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.TimelineView;
import org.hostir.studio.ui.timeline.model.DifferenceTrack;
import org.junit.jupiter.api.Test;

/**
 * Issue 36: a PyTorch profiler trace of the async-TP baseline on 2 x H200 (both ranks' files) opens in the
 * Timeline with its critical path outlined and its analyses in the summary; a click on a bar of the path selects
 * it; the Kernels tab sorts by a click on a header and outlines a kernel's bars; the memory counters are drawn
 * under the rows with their value on hover; the Critical path tab lists the segments with their shares and
 * reveals one's bar; Compare With the Studio's own CUDA run of the same shape lists the ops of both and draws
 * difference tracks; the SVG
 * export writes the window with the path in the theme's colour; then the Studio's run opens the same way.
 */
public class TraceAnalysisJourneyTest {
    private static final List<String> ASYNC_TP = List.of(
            "examples/traces/kineto_async_tp_bf16_8192x4096x4096_rank0.json",
            "examples/traces/kineto_async_tp_bf16_8192x4096x4096_rank1.json");
    private static final String STUDIO_RUN = "examples/traces/studio_ag_matmul_p2p_bf16_8192x4096x4096_cuda.json";

    @Test
    public void aProfilerTraceShowsItsCriticalPathAndKernelTable() throws Exception {
        Journey journey = Journey.start();
        IWorkbenchPage page = journey.page();
        Person person = journey.person();
        TimelineView view = (TimelineView) page.showView(TimelineView.ID);
        List<Path> files = ASYNC_TP.stream().map(ViewTestSupport::repoFile).toList();
        view.openTrace(files);
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        person.settle(300);
        assertEquals(List.of(0, 1), view.timeline().ranks());
        String summary = view.summaryText();
        assertTrue(summary.contains("\ncritical path: "), summary);
        assertTrue(summary.contains("top device ops by total time"), summary);
        assertTrue(summary.contains("c10d::symmetric_memory::barrier_kernel"), "the barriers are communications: " + summary);
        TimelineCanvas canvas = view.canvas();
        List<TimelineEvent> path = canvas.criticalPath();
        assertTrue(!path.isEmpty(), "the critical path is outlined");

        page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
        try {
            person.settle(400);
            view.fit();
            person.settle(200);
            TimelineEvent longest = path.stream().filter(e -> e.stream() >= 0)
                    .max((a, b) -> Long.compare(a.durationNs(), b.durationNs())).orElseThrow();
            int[] at = canvas.centerOf(longest);
            assertNotNull(at, "the path's longest device bar is shown");
            person.click(canvas.control(), at, 0);
            assertEquals(longest, canvas.selected(), "the click selected the bar on the path");
            assertTrue(view.detailsText().contains(longest.name()), view.detailsText());
            ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-kineto-critical-path.png");

            TraceAnalysis expected = TraceAnalysis.of(TraceFiles.open(files).run());
            kernelTable(view, person, expected.kernels());
            counters(view, person, expected.counters());
            criticalPath(view, person, expected.criticalPath().orElseThrow());
            compare(view, person, files);
            exportSvg(view);
        } finally {
            person.clickTab(view.analysisTabs().getItem(0), 1);
            page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_RESTORED);
        }

        view.openTrace(List.of(ViewTestSupport.repoFile(STUDIO_RUN)));
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        person.settle(300);
        assertTrue(view.timeline().events().stream().anyMatch(e -> e.kind() == EventKind.P2P), "the Studio's run");
        assertTrue(view.summaryText().contains("\ncritical path: "), view.summaryText());
        assertTrue(!canvas.criticalPath().isEmpty());
        assertTrue(canvas.highlighted().isEmpty(), "a new run outlines no table row's bars");
        assertTrue(view.compareRows().isEmpty(), "nor keeps the last run's comparison");
    }

    /**
     * The Kernels tab: the engine's table by total; a click on Count's header sorts by count, the largest first,
     * a second click the other way; a click on a row outlines that kernel's bars and reveals the first.
     */
    private static void kernelTable(TimelineView view, Person person, KernelTable expected) throws Exception {
        clickTab(view, person, "Kernels");
        Table table = view.kernelTable();
        assertEquals(expected.rows(), view.kernelRows(), "the engine's kernel table, the largest total first");
        assertEquals(expected.rows().size(), table.getItemCount());
        assertEquals(expected.rows().getFirst().name(), table.getItem(0).getText(0), "what the table shows");
        clickHeader(person, table, "Count");
        assertEquals(expected.sorted(KernelTable.Column.COUNT, false).rows(), view.kernelRows(), "by count");
        assertEquals("Count", table.getSortColumn().getText());
        assertEquals(SWT.DOWN, table.getSortDirection());
        clickHeader(person, table, "Count");
        assertEquals(expected.sorted(KernelTable.Column.COUNT, true).rows(), view.kernelRows(), "fewest first");
        assertEquals(SWT.UP, table.getSortDirection());
        clickHeader(person, table, "Total");
        assertEquals(expected.sorted(KernelTable.Column.TOTAL, false).rows(), view.kernelRows(), "by total");

        KernelTable.Row gemm = view.kernelRows().getFirst();
        person.click(table, center(table.getItem(0).getBounds(0)), 0);
        List<TimelineEvent> bars = KernelTable.barsOf(view.timeline(), gemm);
        assertEquals(bars, view.canvas().highlighted(), "the row outlines its kernel's bars");
        assertEquals(gemm.count(), bars.size());
        int[] first = view.canvas().centerOf(bars.getFirst());
        Rectangle area = view.canvas().control().getClientArea();
        assertTrue(first != null && area.contains(first[0], first[1]), "the first bar is revealed: " + gemm.name());
        RGB outline = view.palette().highlight().getRGB();
        assertTrue(paintedNear(view.canvas(), first, outline), "its outline is painted in the theme's colour");
        ViewTestSupport.screenshot(view.getSite().getShell(), "timeline-kernel-table.png");
    }

    /**
     * The run's counters drawn under the rows, rank by rank; hovering the widest step of the profiler's memory on
     * rank 0 shows its value, as the model has it.
     */
    private static void counters(TimelineView view, Person person, List<Counter> expected) throws Exception {
        TimelineCanvas canvas = view.canvas();
        assertEquals(expected.stream().sorted(Comparator.comparingInt(Counter::rank)).toList(), canvas.counters(),
                "the run's counters are the tracks, each rank's together");
        int track = 0;
        while (!canvas.counters().get(track).name().equals(KinetoReader.PROFILER_MEMORY)) track++;
        Counter c = canvas.counters().get(track);
        assertEquals(0, c.rank());
        // the step that is widest on screen and holds memory, so that the pointer lands on it and on no neighbour
        List<Counter.Sample> s = c.samples();
        assertTrue(s.size() >= 2, "samples of " + c.name());
        int widest = -1;
        for (int i = 0; i + 1 < s.size(); i++) {
            long width = s.get(i + 1).timeNs() - s.get(i).timeNs();
            if (s.get(i).value() > 0 && (widest < 0 || width > s.get(widest + 1).timeNs() - s.get(widest).timeNs())) {
                widest = i;
            }
        }
        Counter.Sample step = s.get(widest);
        int[] at = canvas.counterPoint(track, (step.timeNs() + s.get(widest + 1).timeNs()) / 2.0);
        Rectangle area = canvas.control().getClientArea();
        assertTrue(area.contains(at[0], at[1]), "the counter track is on screen at " + at[0] + "," + at[1]);
        assertTrue(paintedNear(canvas, new int[] { at[0], at[1] }, view.palette().counter().getRGB(), 20),
                "the track is painted in the theme's counter colour");
        person.moveTo(canvas.control(), at[0] - 3, at[1]);
        person.moveTo(canvas.control(), at[0], at[1]);
        person.settle(1200);
        String hover = canvas.hoverText(at[0], at[1]);
        assertNotNull(hover);
        assertTrue(hover.startsWith("rank " + c.rank() + " " + c.name() + "\n"
                + CounterPainter.format(step.value(), c.unit()) + " from "), hover);
        assertTrue(shownInTooltip(view.getSite().getShell(), hover), "the tooltip shows: " + hover);
        ViewTestSupport.screenshot(view.getSite().getShell(), "timeline-counter-hover.png");
        person.moveTo(canvas.control(), 5, 5);
    }

    /** The Critical path tab: each timed segment with its share, in path order; a row selects and reveals its bar. */
    private static void criticalPath(TimelineView view, Person person, CriticalPath expected) throws Exception {
        clickTab(view, person, "Critical path");
        List<CriticalPath.Segment> timed = expected.segments().stream().filter(s -> s.durationNs() > 0).toList();
        assertEquals(timed, view.pathRows(), "the path's timed segments in path order");
        Table table = view.pathTable();
        double shares = timed.stream().mapToDouble(expected::share).sum();
        assertEquals(1.0, shares, 1e-9, "the segments' shares add up to the path");
        // the longest segment first: a click on Duration's header
        clickHeader(person, table, "Duration");
        List<CriticalPath.Segment> byDuration = timed.stream()
                .sorted(Comparator.comparingLong(CriticalPath.Segment::durationNs).reversed()).toList();
        assertEquals(byDuration, view.pathRows(), "the longest segments first (ties in path order)");
        CriticalPath.Segment longest = byDuration.getFirst();
        assertEquals(TimeText.percent(expected.share(longest)), table.getItem(0).getText(3), "its share is shown");
        person.click(table, center(table.getItem(0).getBounds(0)), 0);
        assertEquals(longest.event(), view.canvas().selected(), "the row selects its bar");
        int[] at = view.canvas().centerOf(longest.event());
        assertTrue(at != null && view.canvas().control().getClientArea().contains(at[0], at[1]), "and reveals it");
        assertEquals("Critical path", view.analysisTabs().getSelection().getText(), "the tab stays in front");
        assertTrue(view.detailsText().contains(longest.event().name()), view.detailsText());
        ViewTestSupport.screenshot(view.getSite().getShell(), "timeline-critical-path-tab.png");
    }

    /** Compare With the Studio's CUDA run of the same shape: the engine's diff rows; a row outlines A's bars. */
    private static void compare(TimelineView view, Person person, List<Path> files) throws Exception {
        Path studio = ViewTestSupport.repoFile(STUDIO_RUN);
        view.compareWith(List.of(studio));
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        person.settle(200);
        TraceRun a = TraceFiles.open(files).run(), b = TraceFiles.open(List.of(studio)).run();
        TraceComparison expected = TraceComparison.of(a, b);
        assertFalse(expected.byNode(), "a profile names no Host IR node: aligned by name");
        assertEquals(expected.rows(), view.compareRows(), "the engine's diff, the largest difference first");
        assertEquals("Compare", view.analysisTabs().getSelection().getText(), "the Compare tab comes to the front");
        Table table = view.compareTable();
        assertEquals(expected.rows().getFirst().key(), table.getItem(0).getText(0));
        // the op A runs most often first: a click on Count A's header
        clickHeader(person, table, "Count A");
        TraceComparison.Row op = view.compareRows().getFirst();
        assertEquals(expected.rows().stream().sorted(Comparator.comparingInt(TraceComparison.Row::countA).reversed()
                .thenComparing(TraceComparison.Row::key)).toList(), view.compareRows(), "by A's count");
        person.click(table, center(table.getItem(0).getBounds(0)), 0);
        List<TimelineEvent> bars = view.timeline().events().stream()
                .filter(e -> e.stream() >= 0 && e.name().equals(op.key())).toList();
        assertEquals(op.countA(), bars.size());
        assertEquals(bars, view.canvas().highlighted(), "the row outlines the op's bars in A");
        // the difference tracks under the rows: each of A's bars paired by name with B's, B - A
        assertEquals(DifferenceTrack.of(expected), view.canvas().differences());
        assertEquals(List.of(0, 1), view.canvas().shownDifferences().stream().map(DifferenceTrack::rank).toList());
        ViewTestSupport.screenshot(view.getSite().getShell(), "timeline-compare.png");
    }

    private static void exportSvg(TimelineView view) throws Exception {
        Path svg = Files.createTempFile("timeline", ".svg");
        view.exportSvg(svg);
        String text = Files.readString(svg);
        RGB path = view.palette().criticalPath().getRGB();
        String stroke = String.format("stroke=\"#%02x%02x%02x\"", path.red, path.green, path.blue);
        assertTrue(text.startsWith("<svg ") && text.contains(stroke), "the SVG outlines the path in the theme's colour");
        Files.delete(svg);
    }

    // ---- helpers ----

    private static void clickTab(TimelineView view, Person person, String title) {
        CTabItem tab = Arrays.stream(view.analysisTabs().getItems()).filter(i -> i.getText().equals(title))
                .findFirst().orElseThrow();
        person.clickTab(tab, 1);
        assertSame(tab, view.analysisTabs().getSelection(), "the click brought " + title + " to the front");
    }

    /**
     * Clicks a column's header. It is placed from the table's bounds in its parent: GTK keeps the header above the
     * rows' window, which the table's own coordinates may start at.
     */
    private static void clickHeader(Person person, Table table, String title) {
        int x = 0;
        for (var column : table.getColumns()) {
            if (column.getText().equals(title)) {
                var at = table.getLocation();
                person.clickUnreported(table.getParent(), at.x + x + column.getWidth() / 2,
                        at.y + table.getHeaderHeight() / 2 + 1);
                return;
            }
            x += column.getWidth();
        }
        throw new AssertionError("no column " + title);
    }

    private static int[] center(Rectangle r) {
        return new int[] { r.x + Math.min(r.width / 2, 60), r.y + r.height / 2 };
    }

    private static boolean paintedNear(TimelineCanvas canvas, int[] at, RGB colour) {
        return paintedNear(canvas, at, colour, 14);
    }

    /** Whether a pixel of {@code colour} is painted within {@code reach} pixels of {@code at}. */
    static boolean paintedNear(TimelineCanvas canvas, int[] at, RGB colour, int reach) {
        ImageData image = ViewTestSupport.painted(canvas);
        for (int y = Math.max(0, at[1] - reach); y < Math.min(image.height, at[1] + reach); y++) {
            for (int x = Math.max(0, at[0] - reach); x < Math.min(image.width, at[0] + reach); x++) {
                if (image.palette.getRGB(image.getPixel(x, y)).equals(colour)) return true;
            }
        }
        return false;
    }

    /** Whether a tooltip window on screen shows {@code text}. */
    static boolean shownInTooltip(Shell owner, String text) {
        for (Shell top : owner.getDisplay().getShells()) {
            for (Shell s : top.getShells()) {
                if (!s.isVisible()) continue;
                for (CLabel l : ViewTestSupport.descendants(s, CLabel.class)) {
                    if (text.equals(l.getText())) return true;
                }
            }
        }
        return false;
    }
}
