package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Hand drive 18: a sim launch of ag_matmul_p2p at 64 devices showed a Timeline mostly red, and the legend's only red
 * is p2p; the figures said otherwise (rank 0: communication 1.19 ms of a 3.42 ms span, its host busy all of it). The
 * red was the critical path's outline, 672 short hops drawn in a red near p2p's, which the legend did not name. A
 * person scrolls a run's rows down to the legend: it names the critical path beside an outlined swatch of its colour.
 */
public class TimelineLegendJourneyTest extends JourneyTest {
    @Test
    public void theLegendNamesTheCriticalPathsOutline() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("timeline-legend", "examples/seeds/ag_matmul_p2p.fusion",
                "legend.fusion");
        TimelineView view = journey.runInTimeline("ag_matmul_p2p", 2, file);
        TimelineCanvas canvas = view.canvas();
        person.until(20_000, () -> !canvas.criticalPath().isEmpty());
        assertFalse(canvas.criticalPath().isEmpty(), "the run's critical path is outlined");
        var c = canvas.control();
        int line = 2 * c.getFont().getFontData()[0].getHeight();   // the legend's line, with room to spare
        for (int i = 0; i < 40 && canvas.legendTop() + line > c.getClientArea().height; i++) {
            person.wheel(c, c.getSize().x / 2, c.getSize().y / 2, -1, 0);
        }
        assertTrue(canvas.legendTop() + line <= c.getClientArea().height, "the wheel brought the legend into sight: at "
                + canvas.legendTop() + " of " + c.getClientArea());
        person.restAway(journey.shell());
        person.settle(200);
        assertEquals(TimelineCanvas.CRITICAL_PATH, canvas.legendEntries().getLast(), "the legend's entries: "
                + canvas.legendEntries());
        ImageData shown = ScreenPixels.of(c, new Rectangle(0, canvas.legendTop(), c.getSize().x, line));
        RGB path = view.palette().criticalPath().getRGB();
        int ink = 0;
        for (int y = 0; y < shown.height; y++) {
            for (int x = 0; x < shown.width; x++) if (shown.palette.getRGB(shown.getPixel(x, y)).equals(path)) ink++;
        }
        ViewTestSupport.screenshot(journey.shell(), "timeline-legend-critical-path.png");
        // the swatch's outline: 2 px around 14 x (font height - 4); the path's own outlines lie above the legend
        assertTrue(ink >= 30, "pixels of the critical path's colour " + path + " on the legend's line: " + ink);
    }
}
