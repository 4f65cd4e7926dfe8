package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Rectangle;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Drive 17, finding 12: the nvFuser Dump view opened with no dump showed, in each empty compare pane, the editors'
 * current-line band across the pane's first line (light blue in Light, grey in Dark), as if a line were there. A
 * person opens the view and clicks into each empty pane (the caret's line is the band's): the pane's first line
 * reads on the screen as the rows below it, the pane's own background.
 */
public class DumpEmptyPaneJourneyTest {
    private Journey journey;

    @AfterEach
    public void close() { journey.hide(DumpView.ID); }

    @Test
    public void anEmptyPaneShowsNoCurrentLineBand() throws Exception {
        journey = Journey.start();
        var person = journey.person();
        HostIrPreferences.setDumpFile(null);   // nothing to reopen: the view starts empty
        DumpView view = journey.show(DumpView.ID);
        person.settle(400);
        assertEquals(null, view.snapshots(), "no dump is shown");
        List<StyledText> panes = panes(DumpViewButtons.button(journey, "Open Dump..."));
        assertEquals(2, panes.size(), "the two compare panes");
        for (StyledText pane : panes) {
            assertEquals("", pane.getText(), "the pane is empty");
            person.click(pane, pane.getClientArea().width / 2, pane.getLineHeight() / 2);
            person.settle(300);
            ViewTestSupport.screenshot(journey.shell(), "dump-empty-pane.png");
            int first = rowColour(pane, pane.getLineHeight() / 2);
            int below = rowColour(pane, pane.getLineHeight() * 3 + pane.getLineHeight() / 2);
            assertEquals(Integer.toHexString(below), Integer.toHexString(first), "the empty pane's first line on the"
                    + " screen is its background, as the rows below it (a band there reads as a line)");
        }
    }

    /** The view's compare panes: below the view's control that holds its Open Dump... button and two panes. */
    private static List<StyledText> panes(org.eclipse.swt.widgets.Control inView) {
        for (var c = inView.getParent(); c != null; c = c.getParent()) {
            List<StyledText> found = ViewTestSupport.descendants(c, StyledText.class).stream()
                    .filter(t -> t.isVisible() && !t.getEditable() && t.getSize().x > 60 && t.getSize().y > 60)
                    .toList();
            if (!found.isEmpty()) return found;
        }
        return List.of();
    }

    /** The colour most of the pixels of the pane's row {@code y} show (the caret's pixel column aside). */
    static int rowColour(StyledText pane, int y) {
        Rectangle area = pane.getClientArea();
        ImageData row = ScreenPixels.of(pane, new Rectangle(area.x, area.y + y, area.width, 1));
        var counts = new java.util.HashMap<Integer, Integer>();
        for (int x = 0; x < row.width; x++) counts.merge(row.getPixel(x, 0), 1, Integer::sum);
        int best = counts.entrySet().stream().max(java.util.Map.Entry.comparingByValue()).orElseThrow().getKey();
        assertTrue(counts.get(best) > row.width / 2, "one colour fills the row: " + counts);
        return best;
    }
}
