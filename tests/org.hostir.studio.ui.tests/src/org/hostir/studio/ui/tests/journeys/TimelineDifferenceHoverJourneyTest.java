package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.analysis.TraceComparison.BarPair;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineView;
import org.hostir.studio.ui.timeline.model.DifferenceTrack;
import org.junit.jupiter.api.Test;

/**
 * Issue 35 (drive 17): a difference track's hover took the time at the pointer's pixel's left edge, then the
 * shortest pair within 2 pixels of it: over the last pixel of a wide bar, a sub-pixel copy just after it won, so
 * the hover named the copy. The rows got a column hit test last round (Row.at); the difference track now uses the
 * same rule. A person hovers the wide bar's last painted pixel: the hover and its tooltip name the wide bar.
 */
public class TimelineDifferenceHoverJourneyTest {
    private static final long US = 1000, MS = 1000 * US;

    private static TimelineEvent bar(EventKind kind, String name, long startNs, long endNs) {
        return new TimelineEvent(0, 0, kind, name, -1, 0, startNs, endNs, 0, 0, -1, -1);
    }

    @Test
    public void hoveringAWideBarsLastPixelNamesIt() throws Exception {
        Journey journey = Journey.start(1280, 800);
        Person person = journey.person();
        IWorkbenchPage page = journey.page();
        long at = 70 * MS + 37 * US;
        TimelineEvent wide = bar(EventKind.MATMUL, "wide matmul", at, at + 30 * MS);
        TimelineEvent copy = bar(EventKind.COPY, "next copy", wide.endNs() + 8 * US, wide.endNs() + 48 * US);
        Timeline run = new Timeline(List.of(bar(EventKind.MATMUL, "before", 0, 70 * MS), wide, copy,
                bar(EventKind.MATMUL, "after", 120 * MS, 150 * MS)), Map.of());
        TimelineView view = TimelineView.show(run, "difference hover");
        person.settle(300);
        page.activate(view);
        view.fit();
        person.settle(200);
        var canvas = view.canvas();
        BarPair widePair = new BarPair("wide matmul (node 7)", wide, bar(EventKind.MATMUL, "wide matmul", at, at + 36 * MS));
        BarPair copyPair = new BarPair("next copy (node 8)", copy, bar(EventKind.COPY, "next copy", 0, 20 * US));
        canvas.setDifferences(List.of(new DifferenceTrack(0, List.of(widePair, copyPair), 6 * MS)));
        person.settle(200);
        double npp = canvas.nsPerPixel();
        assertTrue(npp > 48 * US, "the copy is under a pixel wide at fit: " + npp + " ns a pixel");
        int[] end = canvas.differencePoint(0, wide.endNs());
        int x = end[0] - 1; // the wide bar's last painted column; the copy is painted in the next one
        assertTrue(canvas.control().getClientArea().contains(x, end[1]), "the track is on screen at " + x + "," + end[1]);
        person.moveTo(canvas.control(), x - 3, end[1]);
        person.moveTo(canvas.control(), x, end[1]);
        person.settle(1200);
        assertEquals(widePair, canvas.differenceAt(x, end[1]), "the pair under the pointer is the wide bar's");
        String hover = canvas.hoverText(x, end[1]);
        assertNotNull(hover);
        assertTrue(hover.startsWith("wide matmul (node 7)\n"), hover);
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-difference-hover.png");
        assertTrue(TraceAnalysisJourneyTest.shownInTooltip(view.getSite().getShell(), hover), "the tooltip shows: " + hover);
    }
}
