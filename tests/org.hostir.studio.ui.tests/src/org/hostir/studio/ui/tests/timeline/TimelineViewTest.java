package org.hostir.studio.ui.tests.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.core.resources.IFile;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.handlers.IHandlerService;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.trace.ChromeTraceReader;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.HostIrNodeElement;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.model.EventDetails;
import org.hostir.studio.ui.timeline.model.TimeRuler;
import org.hostir.studio.ui.timeline.model.TimelineRows;
import org.hostir.studio.ui.timeline.model.TimelineSummary;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * The timeline view in a real workbench on a CPU run of seed 000's AG+matmul (P2P allgather): rows for both
 * ranks and their streams, matmul and communication bars, hover details, the overlap summary, export.
 */
public class TimelineViewTest {

    private static Timeline cpuRun() throws Exception {
        String source = Files.readString(ViewTestSupport.repoFile("examples/seeds/ag_matmul_p2p.fusion"));
        CpuRun.Outcome outcome = CpuRun.run(source, "ag_matmul_p2p.fusion", 2, LoweringOptions.DEFAULTS, s -> { });
        return assertInstanceOf(CpuRun.Outcome.Ran.class, outcome, outcome.toString()).result().timeline();
    }

    @Test
    public void showsRowsForBothRanksWithMatmulAndCommunicationBars() throws Exception {
        Timeline timeline = cpuRun();
        IWorkbenchPage page = ViewTestSupport.page();
        page.getWorkbenchWindow().getShell().setSize(1280, 960);
        TimelineView view = TimelineView.show(timeline, "ag_matmul_p2p: CPU run on 2 devices");
        assertNotNull(view, "the view opens");
        TimelineRows rows = view.canvas().rows();
        for (int rank : List.of(0, 1)) {
            List<TimelineRows.Row> mine = rows.rows().stream().filter(r -> r.rank() == rank).toList();
            assertTrue(mine.stream().filter(r -> r.stream() >= 0).count() >= 2,
                    "rank " + rank + " has rows for its streams: " + mine.stream().map(TimelineRows.Row::label).toList());
            Set<EventKind> kinds = mine.stream().flatMap(r -> java.util.Arrays.stream(r.events()))
                    .map(TimelineEvent::kind).collect(Collectors.toSet());
            assertTrue(kinds.contains(EventKind.MATMUL), "rank " + rank + " matmul bars: " + kinds);
            assertTrue(kinds.contains(EventKind.P2P) || kinds.contains(EventKind.COMMUNICATION),
                    "rank " + rank + " communication bars: " + kinds);
        }
        assertTrue(rows.rows().stream().allMatch(r -> r.label().startsWith("rank ")));
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        assertTrue(view.summaryText().startsWith(TimelineSummary.of(timeline)), "the view shows the model's summary");
        assertTrue(view.summaryText().contains("\ncritical path: "), "then the run's analyses: " + view.summaryText());
        assertTrue(!view.canvas().criticalPath().isEmpty(), "and outlines the critical path");

        TimelineEvent matmul = timeline.events().stream().filter(e -> e.kind() == EventKind.MATMUL).findFirst()
                .orElseThrow();
        String details = EventDetails.of(matmul);
        assertTrue(details.contains("duration") && details.contains("rank " + matmul.rank()), details);

        page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
        ViewTestSupport.spin(Display.getCurrent(), 500);
        view.fit();
        ViewTestSupport.spin(Display.getCurrent(), 800);
        // the bar found under the middle of a matmul's row is a real event
        Rectangle area = view.canvas().control().getClientArea();
        assertTrue(area.width > 400, "the canvas is laid out: " + area);
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-view.png");
        page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_RESTORED);
    }

    /**
     * A bar's node goes out through the selection service as a {@link HostIrNodeElement}; the lowering view follows
     * it: on its own file at once, and from another file by switching to the bar's file and lowering it first.
     */
    @Test
    public void selectingABarRevealsItsHostIrNodeInTheLoweringView() throws Exception {
        IWorkbenchPage page = ViewTestSupport.page();
        IFile file = ViewTestSupport.copyToWorkspace("timeline", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        IFile other = ViewTestSupport.copyToWorkspace("timeline", "examples/seeds/ag_matmul_p2p.fusion",
                "other.fusion");
        LoweringView lowering = (LoweringView) page.showView(LoweringView.ID);
        Timeline timeline = cpuRun();
        List<TimelineEvent> matmuls = timeline.events().stream()
                .filter(e -> e.kind() == EventKind.MATMUL && e.nodeId() >= 0).toList();
        TimelineEvent first = matmuls.getFirst();
        TimelineEvent last = matmuls.getLast();
        for (IFile shown : List.of(file, other)) {
            lowering.setFile(shown);
            ViewTestSupport.join(LoweringView.JOB_FAMILY);
            TimelineView view = TimelineView.show(timeline, "reveal", file);
            TimelineEvent bar = shown == file ? first : last;
            view.canvas().select(bar);
            var published = (IStructuredSelection) page.getWorkbenchWindow().getSelectionService()
                    .getSelection(TimelineView.ID);
            assertEquals(new HostIrNodeElement(file.getFullPath().toString(), bar.rank(), bar.nodeId()),
                    published.getFirstElement(), "the selection service has the bar's node");
            ViewTestSupport.spin(Display.getCurrent(), 800); // post-selection listeners run after a delay
            ViewTestSupport.join(LoweringView.JOB_FAMILY);
            assertEquals(file, lowering.file(), "the lowering view shows the bar's file");
            assertRevealed(lowering, bar);
        }
    }

    private static void assertRevealed(LoweringView lowering, TimelineEvent bar) {
        PassRow row = assertInstanceOf(PassRow.class, ShownLowering.of(lowering).tree().getStructuredSelection().getFirstElement(),
                "the bar's node is selected in the lowering view");
        assertEquals(bar.nodeId(), row.node().id());
        assertEquals(bar.rank(), Integer.parseInt(lowering.getContentDescription().replaceAll(".*rank (\\d+).*",
                "$1")));
    }

    @Test
    public void toolbarCommandsHaveKeysThatWork() throws Exception {
        IWorkbenchPage page = ViewTestSupport.page();
        TimelineView view = TimelineView.show(cpuRun(), "keys");
        page.activate(view);
        ViewTestSupport.spin(Display.getCurrent(), 300);
        String p = "org.hostir.studio.ui.timeline.";
        assertEquals(p + "zoomIn", ViewTestSupport.boundCommand("M1+="));
        assertEquals(p + "zoomOut", ViewTestSupport.boundCommand("M1+-"));
        assertEquals(p + "fit", ViewTestSupport.boundCommand("M1+0"));
        assertEquals(p + "exportJson", ViewTestSupport.boundCommand("M1+M2+J"));
        assertEquals(p + "exportPng", ViewTestSupport.boundCommand("M1+M2+P"));

        IHandlerService handlers = view.getSite().getService(IHandlerService.class);
        view.fit();
        double fitted = view.canvas().nsPerPixel();
        handlers.executeCommand(p + "zoomIn", null);
        assertEquals(fitted / 2, view.canvas().nsPerPixel(), fitted * 1e-9, "Ctrl+= zooms in twice");
        handlers.executeCommand(p + "zoomOut", null);
        handlers.executeCommand(p + "zoomOut", null);
        assertEquals(fitted * 2, view.canvas().nsPerPixel(), fitted * 1e-9, "Ctrl+- zooms out");
        handlers.executeCommand(p + "fit", null);
        assertEquals(fitted, view.canvas().nsPerPixel(), fitted * 1e-9, "Ctrl+0 shows the whole run again");
    }

    @Test
    public void hoverDetailsNameEveryFigure() {
        // 2 MB in 1 ms and 4 GFLOP in 1 ms: 2.00 GB/s and 4.000 TFLOP/s
        TimelineEvent e = new TimelineEvent(1, 2, EventKind.MATMUL, "matmul T2", 17, 3, 5_000_000, 6_000_000,
                2_000_000, 4_000_000_000L, -1, 0);
        String details = EventDetails.of(e);
        for (String part : List.of("matmul T2", "(matmul)", "rank 1, stream 2", "duration 1.000 ms",
                "bytes 2,000,000, 2.00 GB/s", "flops 4,000,000,000, 4.000 TFLOP/s", "loop iteration 3",
                "Host IR node 17")) {
            assertTrue(details.contains(part), "'" + part + "' in:\n" + details);
        }
        TimelineEvent send = new TimelineEvent(0, -1, EventKind.P2P, "send", -1, -1, 0, 500, 0, 0, 1, 4);
        String plain = EventDetails.of(send);
        assertTrue(plain.contains("rank 0, host") && plain.contains("duration 500 ns") && plain.contains("peer rank 1"),
                plain);
        assertTrue(!plain.contains("GB/s") && !plain.contains("TFLOP/s") && !plain.contains("iteration")
                && !plain.contains("Host IR node"), "no figures the event does not have: " + plain);
    }

    @Test
    public void rulerLabelsCountFromTheRunsStart() {
        assertEquals("0 ms", TimeRuler.label(-1e-7, 5e6), "not -0");
        assertEquals("5 ms", TimeRuler.label(5e6, 5e6));
        assertEquals("2.5 ms", TimeRuler.label(2.5e6, 5e5));
        assertEquals("500 ns", TimeRuler.label(500, 50));
        assertEquals(5e6, TimeRuler.step(3e6), 0, "steps are 1, 2 or 5 times a power of ten");
        assertEquals(2e3, TimeRuler.step(1001), 0);
        assertEquals(1e2, TimeRuler.step(100), 0);
    }

    @Test
    public void theSummaryCountsEveryRanksEventsByKind() throws Exception {
        Timeline timeline = cpuRun();
        String summary = TimelineSummary.of(timeline);
        for (int rank : List.of(0, 1)) {
            long matmuls = timeline.events().stream().filter(e -> e.rank() == rank && e.kind() == EventKind.MATMUL)
                    .count();
            assertTrue(summary.contains("rank " + rank + " events:") && summary.matches("(?s).*rank " + rank
                    + " events:[^\\n]* matmul " + matmuls + "\\b.*"), summary);
        }
        assertTrue(summary.contains("overlap") && summary.contains("exposed communication"), summary);
        assertTrue(summary.endsWith(TimelineSummary.HINT), summary);
    }

    @Test
    public void exportsChromeTraceAndPng() throws Exception {
        Timeline timeline = cpuRun();
        TimelineView view = TimelineView.show(timeline, "export");
        ViewTestSupport.spin(Display.getCurrent(), 300);
        Path dir = Files.createTempDirectory("timeline");
        view.exportJson(dir.resolve("trace.json"));
        assertEquals(timeline.events().size(), ChromeTraceReader.read(dir.resolve("trace.json")).events().size());
        view.exportPng(dir.resolve("timeline.png"));
        assertTrue(Files.size(dir.resolve("timeline.png")) > 1000);
    }

    @Test
    public void selectingABarFindsItUnderThePointer() throws Exception {
        Timeline timeline = cpuRun();
        TimelineView view = TimelineView.show(timeline, "hit test");
        ViewTestSupport.spin(Display.getCurrent(), 300);
        view.fit();
        TimelineRows rows = view.canvas().rows();
        TimelineRows.Row row = rows.rows().stream().filter(r -> r.events().length > 0 && r.stream() >= 0)
                .findFirst().orElseThrow();
        TimelineEvent longest = java.util.Arrays.stream(row.events())
                .max(java.util.Comparator.comparingLong(TimelineEvent::durationNs)).orElseThrow();
        long mid = (longest.startNs() + longest.endNs()) / 2;
        assertEquals(longest, row.at(mid, mid + 1, 0, -1));
        view.canvas().select(longest);
        assertEquals(longest, view.canvas().selected());
    }
}
