package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.graphics.GC;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.trace.Counter;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the Timeline's label column clips long labels ("rank 0 memory in \u2026", "rank 0 communicat\u2026")
 * and nothing showed the rest: the hover gave nothing left of the bars. A saved two-rank run (with memory and
 * communication counters) opens at 1280 x 800, the view maximized; a person rests the pointer on each counter
 * track's label, and a tooltip beside it shows the track's whole label.
 */
public class TimelineRowLabelJourneyTest {
    @Test
    public void eachClippedCounterLabelShowsWholeInItsTooltip() throws Exception {
        Journey journey = Journey.start(1280, 800);
        Person person = journey.person();
        IWorkbenchPage page = journey.page();
        TimelineView view = (TimelineView) page.showView(TimelineView.ID);
        try {
            view.openTrace(List.of(ViewTestSupport.repoFile(TimelineSummaryJourneyTest.TRACE)));
            ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
            page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
            person.settle(500);
            view.fit();
            person.settle(200);
            var canvas = view.canvas();
            List<Counter> counters = canvas.shownCounters();
            assertFalse(counters.isEmpty(), "the saved run has counter tracks");
            List<String> failures = new ArrayList<>();
            int clipped = 0;
            for (int i = 0; i < counters.size(); i++) {
                Counter c = counters.get(i);
                String name = "rank " + c.rank() + " " + c.name();
                int y = canvas.counterPoint(i, canvas.viewStartNs())[1];
                assertTrue(y < canvas.control().getClientArea().height, name + "'s track on screen at y " + y);
                if (wider(canvas.control(), name)) clipped++;
                person.moveTo(canvas.control(), 50, y - 2);
                person.moveTo(canvas.control(), 54, y);
                String shown = canvas.labelAt(y);
                boolean seen = person.until(2500, () -> TraceAnalysisJourneyTest.shownInTooltip(
                        view.getSite().getShell(), shown));
                if (i == 0) ViewTestSupport.screenshot(journey.shell(), "timeline-row-label-tooltip.png");
                System.out.println("TimelineRowLabelJourneyTest: " + name + " at y " + y + ": hover \"" + shown
                        + "\", tooltip " + (seen ? "shown" : "not shown"));
                if (shown == null || !shown.startsWith(name + "\n") || !seen) {
                    failures.add(name + ": the hover over its label gave \"" + shown + "\", tooltip "
                            + (seen ? "shown" : "not shown"));
                }
            }
            assertTrue(clipped > 0, "some counter label is wider than the column (else this proves nothing)");
            assertEquals(List.of(), failures);
        } finally {
            person.moveTo(view.canvas().control(), 300, 5);
            page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_RESTORED);
            person.settle(200);
        }
    }

    /** Whether the label column clips {@code text}: as it paints, 150 px less the triangle's 16 and 6 of margins. */
    private static boolean wider(org.eclipse.swt.widgets.Control canvas, String text) {
        GC gc = new GC(canvas);
        try {
            gc.setFont(canvas.getFont());
            double charWidth = Math.max(1, gc.getFontMetrics().getAverageCharacterWidth());
            return text.length() > (int) ((150 - 16 - 6) / charWidth);
        } finally {
            gc.dispose();
        }
    }
}
