package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Comparator;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.Breakdown;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.passes.LoweringResult;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.TimelineView;
import org.hostir.studio.ui.timeline.model.BreakdownTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The user guide's "Mixture of experts" (issue 39, Deliver 4 and 5), as a person reads it: examples/moe/moe_layer
 * in the editor; a click on the second expert GEMM (its output's F is DIDx-reduced: partial products) reveals its
 * Allreduce in the Lowering view; in the Timeline of a CPU run at 2 devices, a click on a grouped_mm bar shows the rows of each expert; the
 * dispatch/combine trace (examples/moe/dispatch_combine_skewed.trace.json, 4 ranks, MoeExchangeTraceTest's skewed
 * routing) opened, a click on a send of the dispatch shows the rank x rank bytes with the busiest link shaded.
 */
public class MoeGuideJourneyTest extends JourneyTest {
    /** DetailsPanel's shade of the hot cell. */
    private static final RGB HOT = new RGB(255, 196, 120);

    @AfterEach
    public void restore() {
        var ref = page.findViewReference(TimelineView.ID);
        if (ref != null) page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
        ref = page.findViewReference(LoweringView.ID);
        if (ref != null) page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
        journey.hide(LoweringView.ID);
        person.settle(100);
    }

    @Test
    public void theLayerInTheEditorAndItsAllreduceInTheLowering() throws Exception {
        LoweringView lowering = journey.show(LoweringView.ID);
        IFile file = ViewTestSupport.copyToWorkspace("moe-guide", "examples/moe/moe_layer.fusion", "moe_layer.fusion");
        FusionEditor e = journey.open(file);
        GraphViewer graph = ShownGraph.of(e);
        Control canvas = graph.getControl();
        assertEquals(List.of(), e.problems(), "the guide's layer is valid");
        assertEquals(17, e.model().ops().size(), "router, softmax, topk, gather, experts, Allreduce's set, scatter");
        var editor = page.getReference(e);
        page.setPartState(editor, IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(400);
        person.clickCenter(ShownGraph.button(e, "Fit"));   // the whole layer in view
        person.settle(400);
        ViewTestSupport.screenshot(journey.shell(), "moe-graph.png");
        page.setPartState(editor, IWorkbenchPage.STATE_RESTORED);
        person.settle(400);
        person.clickCenter(ShownGraph.button(e, "Fit"));
        person.settle(400);

        journey.waitForLowering();
        assertInstanceOf(LoweringResult.Lowered.class, lowering.result(), ShownLowering.message(lowering));
        journey.show(LoweringView.ID);
        page.activate(e);
        person.click(canvas, graph.center("op:y_partial"), 0);
        person.settle(800);   // post-selection listeners run after the workbench's delay
        List<CommunicationType> revealed = ShownLowering.of(lowering).tree().getStructuredSelection().toList()
                .stream().map(o -> ((PassRow) o).node()).filter(n -> n instanceof Communication)
                .map(n -> ((Communication) n).type()).toList();
        assertEquals(List.of(CommunicationType.ALLREDUCE), revealed, "the experts' partial products summed");
        page.setPartState(page.findViewReference(LoweringView.ID), IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(800);
        ViewTestSupport.screenshot(journey.shell(), "moe-lowering.png");
    }

    @Test
    public void aGroupedMmBarShowsTheRowsOfEachExpert() throws Exception {
        String source = Files.readString(ViewTestSupport.repoFile("examples/moe/moe_layer.fusion"));
        var ran = (CpuRun.Outcome.Ran) CpuRun.run(source, "moe_layer.fusion", 2, LoweringOptions.DEFAULTS, s -> { });
        TimelineView view = TimelineView.show(ran.result().timeline(), "moe_layer", null);
        maximize();
        TimelineEvent bar = view.timeline().of(0).stream().filter(x -> x.name().equals("grouped_mm"))
                .max(Comparator.comparingLong(TimelineEvent::durationNs)).orElseThrow();
        click(view, bar, bar::equals);
        BreakdownTable shown = view.detailsBreakdown();
        assertNotNull(shown, "a table under the grouped_mm");
        List<Long> rows = bar.breakdown().orElseThrow().counts();
        Table table = view.detailsTable();
        assertTrue(table.isVisible(), "the table shows");
        assertEquals(rows.size(), table.getItemCount(), "one row per expert");
        long busiest = rows.stream().mapToLong(Long::longValue).max().orElseThrow();
        for (int g = 0; g < rows.size(); g++) {
            TableItem item = table.getItem(g);
            assertEquals("expert " + g, item.getText(0));
            assertEquals(String.format("%,d", rows.get(g)), item.getText(1), "rows of expert " + g);
            boolean hot = HOT.equals(item.getBackground(1).getRGB());
            assertEquals(g == rows.indexOf(busiest), hot, "only the busiest expert is shaded: " + g);
        }
        assertEquals(16, rows.stream().mapToLong(Long::longValue).sum(), "the N = 16 routed rows");
        ViewTestSupport.screenshot(journey.shell(), "moe-timeline-experts.png");
    }

    @Test
    public void aDispatchSendShowsTheBytesEachRankSendsToEachRank() throws Exception {
        TimelineView view = journey.show(TimelineView.ID);
        view.openTrace(List.of(ViewTestSupport.repoFile("examples/moe/dispatch_combine_skewed.trace.json")));
        person.settle(300);
        maximize();
        TimelineEvent send = view.timeline().of(1).stream().filter(x -> x.name().equals("send to 0")
                && x.breakdown().map(Breakdown::exchange).filter(n -> n.matches("Dispatch \\d+ x")).isPresent())
                .findFirst().orElseThrow();
        // the group's sends and receives share their start, so the bar on top may be another of the exchange's
        click(view, send, x -> x.rank() == 1 && x.breakdown().equals(send.breakdown()));
        Table table = view.detailsTable();
        assertTrue(table.isVisible(), "the matrix shows");
        assertEquals(List.of("from \\ to", "rank 0", "rank 1", "rank 2", "rank 3", "sent"),
                List.of(table.getColumns()).stream().map(c -> c.getText()).toList());
        assertEquals(5, table.getItemCount(), "four senders and the received totals");
        // MoeExchangeTraceTest's routing: rank r sends 5 + |{t in 5..7: (t + 2r) mod 8 < 2}| tokens of 16 B to 0
        String[] toRank0 = {"80 B", "112 B", "96 B", "80 B"};
        for (int from = 0; from < 4; from++) {
            assertEquals("rank " + from, table.getItem(from).getText(0));
            assertEquals(toRank0[from], table.getItem(from).getText(1), "rank " + from + " to rank 0");
            assertEquals("128 B", table.getItem(from).getText(5), "each rank sends its 8 tokens of 16 B");
        }
        assertEquals("368 B", table.getItem(4).getText(1), "rank 0 receives the most");
        assertEquals("512 B", table.getItem(4).getText(5));
        assertEquals(HOT, table.getItem(1).getBackground(1).getRGB(), "the busiest link, rank 1 -> rank 0, shaded");
        assertTrue(view.detailsBreakdown().note().contains("busiest link: rank 1 -> rank 0, 112 B"),
                view.detailsBreakdown().note());
        ViewTestSupport.screenshot(journey.shell(), "moe-exchange-matrix.png");
    }

    private void maximize() {
        page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(400);
    }

    /**
     * Fits the run, zooms in around the bar until it is wide enough to hit, clicks it, checks that what the click
     * selected is {@code expected}, and moves the pointer off the bars (no tooltip over the picture).
     */
    private void click(TimelineView view, TimelineEvent bar, java.util.function.Predicate<TimelineEvent> expected) {
        view.fit();
        person.settle(200);
        TimelineCanvas canvas = view.canvas();
        canvas.reveal(bar);
        for (int i = 0; i < 40 && bar.durationNs() / canvas.nsPerPixel() < 24; i++) {
            canvas.zoom(0.5, canvas.centerOf(bar)[0]);
        }
        canvas.reveal(bar);
        person.settle(200);
        int[] at = canvas.centerOf(bar);
        assertNotNull(at);
        person.click(canvas.control(), at, 0);
        person.settle(300);
        assertNotNull(canvas.selected(), "the click selected a bar");
        assertTrue(expected.test(canvas.selected()), "the click selected " + canvas.selected());
        person.moveTo(canvas.control(), canvas.control().getSize().x / 2, canvas.control().getSize().y - 5);
        person.settle(300);
    }
}
