package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 36: a PyTorch profiler trace of the async-TP baseline on 2 x H200 (both ranks' files) opens in the
 * Timeline with its critical path outlined and its analyses in the summary; a click on a bar of the path selects
 * it; the SVG export writes the window with the path; then the Studio's own CUDA run of the same shape opens the
 * same way.
 */
public class TraceAnalysisJourneyTest {
    @Test
    public void aProfilerTraceShowsItsCriticalPathAndKernelTable() throws Exception {
        Journey journey = Journey.start();
        IWorkbenchPage page = journey.page();
        Person person = journey.person();
        TimelineView view = (TimelineView) page.showView(TimelineView.ID);
        view.openTrace(List.of(ViewTestSupport.repoFile("examples/traces/kineto_async_tp_bf16_8192x4096x4096_rank0.json"),
                ViewTestSupport.repoFile("examples/traces/kineto_async_tp_bf16_8192x4096x4096_rank1.json")));
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

        Path svg = Files.createTempFile("timeline", ".svg");
        view.exportSvg(svg);
        String text = Files.readString(svg);
        assertTrue(text.startsWith("<svg ") && text.contains("stroke=\"#e00000\""), "the SVG outlines the path");
        Files.delete(svg);

        view.openTrace(List.of(ViewTestSupport.repoFile("examples/traces/studio_ag_matmul_p2p_bf16_8192x4096x4096_cuda.json")));
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        person.settle(300);
        assertTrue(view.timeline().events().stream().anyMatch(e -> e.kind() == EventKind.P2P), "the Studio's run");
        assertTrue(view.summaryText().contains("\ncritical path: "), view.summaryText());
        assertTrue(!canvas.criticalPath().isEmpty());
    }
}
