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
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: at fit zoom a 112 us matmul is under a pixel wide (a 150 ms run over about a thousand pixels) and a
 * 40 us copy follows it 8 us later; a click on the pixel where the matmul is painted selected another bar: the hit
 * test took the time at the pixel's left edge, then a bar holding it (the long bar before, whose end falls in that
 * pixel but is not painted there: so it went at 349 us a pixel, 1280 x 800) or else the shortest within 2 pixels
 * (the copy). A person clicks that pixel: the matmul is selected, its details show and its outline is drawn there.
 */
public class TimelineSubPixelClickJourneyTest {
    private static final long US = 1000, MS = 1000 * US;

    private static TimelineEvent bar(EventKind kind, String name, long startNs, long endNs) {
        return new TimelineEvent(0, 0, kind, name, -1, 0, startNs, endNs, 0, 0, -1, -1);
    }

    @Test
    public void aClickOnASubPixelMatmulSelectsIt() throws Exception {
        Journey journey = Journey.start(1280, 800);
        Person person = journey.person();
        IWorkbenchPage page = journey.page();
        // fixed times: the matmul starts 37 us into a millisecond, so no pixel edge at fit falls on its start
        long at = 70 * MS + 37 * US;
        TimelineEvent matmul = bar(EventKind.MATMUL, "sub-pixel matmul", at, at + 112 * US);
        TimelineEvent copy = bar(EventKind.COPY, "next copy", at + 120 * US, at + 160 * US);
        Timeline run = new Timeline(List.of(bar(EventKind.MATMUL, "before", 0, 70 * MS), matmul, copy,
                bar(EventKind.MATMUL, "after", 71 * MS, 150 * MS)), Map.of());
        TimelineView view = TimelineView.show(run, "sub-pixel bars");
        person.settle(300);
        page.activate(view);
        view.fit();
        person.settle(200);
        var canvas = view.canvas();
        double npp = canvas.nsPerPixel();
        assertTrue(npp > 112 * US, "the matmul is under a pixel wide at fit: " + npp + " ns a pixel");
        int[] mid = canvas.centerOf(matmul);
        assertNotNull(mid, "the matmul's row is shown");
        // the pixel its start falls in, which the painter paints in the matmul's colour
        double vs = canvas.viewStartNs();
        int x = mid[0] - (int) (((matmul.startNs() + matmul.endNs()) / 2.0 - vs) / npp)
                + (int) ((matmul.startNs() - vs) / npp);
        System.out.println("TimelineSubPixelClickJourneyTest: " + npp + " ns a pixel, click at " + x + "," + mid[1]);
        person.click(canvas.control(), x, mid[1]);
        person.settle(200);
        assertEquals(matmul, canvas.selected(), "the click on the matmul's pixel selected it");
        assertTrue(view.detailsText().contains("sub-pixel matmul"), "its details show: " + view.detailsText());
        int[] outline = canvas.selectionOutline();
        assertNotNull(outline, "the selection outline is drawn");
        assertEquals(x, outline[0], "the outline is drawn at the pixel clicked");
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-sub-pixel-click.png");
    }
}
