package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.graphics.ImageData;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.TimelineView;
import org.hostir.studio.ui.timeline.model.TimelineRows;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, Deliver 3: the Timeline's rank groups fold and unfold as Perfetto's process groups do (a click on the
 * triangle of a rank's first row, or C on a selected bar), and the plain wheel scrolls the rows; checked on the
 * rows shown and on what is painted.
 */
public class TimelineGroupsJourneyTest extends JourneyTest {
    private TimelineView view;

    private TimelineView run(int devices) throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("timeline-groups", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        view = journey.runInTimeline("ag_matmul_p2p", devices, file);
        view.fit();
        person.settle(200);
        return view;
    }

    /**
     * A saved two-rank run of the same seed (fixed durations): what is painted over rank 1's rows, the
     * send-to-receive arrows among them, depends on nothing but the file, so the painted comparison below is the
     * same on every run (on a fresh CPU run the arrows moved with its timing, and once 0.89 of rank 1's row was
     * the same).
     */
    private TimelineView saved() throws Exception {
        view = (TimelineView) page.showView(TimelineView.ID);
        view.openTrace(List.of(ViewTestSupport.repoFile(TimelineSummaryJourneyTest.TRACE)));
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        view.fit();
        person.settle(200);
        return view;
    }

    private static TimelineEvent widest(TimelineRows.Row row) {
        return Arrays.stream(row.events()).max(Comparator.comparingLong(TimelineEvent::durationNs)).orElseThrow();
    }

    @Test
    public void aRankFoldsToItsFirstRowWithTheTriangleAndWithC() throws Exception {
        TimelineCanvas canvas = saved().canvas();
        List<TimelineRows.Row> rows = canvas.rows().rows();
        int firstOfRank1 = 0;
        while (rows.get(firstOfRank1).rank() == 0) firstOfRank1++;
        assertTrue(firstOfRank1 >= 2, "rank 0 has a host row and streams: " + firstOfRank1 + " rows");
        TimelineEvent rank1Bar = widest(rows.get(firstOfRank1));
        TimelineEvent folded = widest(rows.get(1));
        int[] before = canvas.centerOf(rank1Bar);
        ImageData paintedBefore = ViewTestSupport.painted(canvas);

        person.click(canvas.control(), canvas.rankToggle(0), 0);
        assertTrue(canvas.collapsed(0), "the triangle folded rank 0");
        assertTrue(canvas.rowShown(0), "its first row stays");
        for (int r = 1; r < firstOfRank1; r++) assertFalse(canvas.rowShown(r), "row " + r + " of rank 0 is hidden");
        for (int r = firstOfRank1; r < rows.size(); r++) assertTrue(canvas.rowShown(r), "rank 1's row " + r + " shows");
        assertNull(canvas.centerOf(folded), "a bar of a folded row is not on screen");
        int[] after = canvas.centerOf(rank1Bar);
        assertTrue(after[1] < before[1], "rank 1 moved up: " + before[1] + " -> " + after[1]);

        // painted: rank 1's first row is drawn where it now is, the same pixels as before the fold
        ImageData paintedAfter = ViewTestSupport.painted(canvas);
        double same = sameStrip(paintedBefore, before[1], paintedAfter, after[1]);
        System.out.println("TimelineGroupsJourneyTest: rank 1's row painted at its new place: " + same
                + " of its pixels; " + sameStrip(paintedBefore, after[1], paintedAfter, after[1]) + " of the old");
        assertTrue(same > 0.9, "rank 1's row painted at its new place: " + same + " of its pixels");
        assertTrue(sameStrip(paintedBefore, after[1], paintedAfter, after[1]) < same,
                "what was painted there before (rank 0's rows) is gone");
        ViewTestSupport.screenshot(journey.shell(), "timeline-rank-folded.png");

        // C on a selected bar of rank 0 unfolds it, C again folds it
        person.click(canvas.control(), canvas.centerOf(widest(rows.get(0))), 0);
        assertNotNull(canvas.selected());
        assertEquals(0, canvas.selected().rank());
        person.press(0, 'c');
        assertFalse(canvas.collapsed(0), "C unfolded the selected bar's rank");
        for (int r = 0; r < rows.size(); r++) assertTrue(canvas.rowShown(r));
        assertArrayEquals(before, canvas.centerOf(rank1Bar), "rank 1 back in its place");
        person.press(0, 'c');
        assertTrue(canvas.collapsed(0), "C folds it again");
    }

    /** Issue 18, Deliver 3: the plain wheel scrolls the rows (8 ranks do not fit), it neither zooms nor pans. */
    @Test
    public void theWheelScrollsTheRows() throws Exception {
        TimelineCanvas canvas = run(8).canvas();
        var c = canvas.control();
        assertTrue(c.getVerticalBar().getVisible(), "8 ranks' rows need a scroll bar at " + c.getSize());
        double scale = canvas.nsPerPixel(), start = canvas.viewStartNs();
        assertEquals(0, canvas.verticalScroll());
        person.wheel(c, c.getSize().x / 2, c.getSize().y / 2, -2, 0);
        int down = canvas.verticalScroll();
        assertTrue(down > 0, "the wheel down scrolled the rows: " + down);
        assertEquals(scale, canvas.nsPerPixel(), "and did not zoom");
        assertEquals(start, canvas.viewStartNs(), "nor pan");
        person.wheel(c, c.getSize().x / 2, c.getSize().y / 2, 1, 0);
        assertTrue(canvas.verticalScroll() < down, "the wheel up scrolls back");
    }

    /** The share of equal pixels of two 12-pixel-high strips of the bars' area (right of the labels). */
    private static double sameStrip(ImageData a, int ya, ImageData b, int yb) {
        int equal = 0, all = 0;
        for (int dy = -6; dy < 6; dy++) {
            for (int x = 160; x < Math.min(a.width, b.width); x += 2) {
                all++;
                if (a.getPixel(x, ya + dy) == b.getPixel(x, yb + dy)) equal++;
            }
        }
        return (double) equal / all;
    }
}
