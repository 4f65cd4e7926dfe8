package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.passes.DumpViewTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, item 7 ("the default layout clips"): in the Host IR perspective at 1280 x 800 the nvFuser Dump view
 * sits in the bottom folder, and its header (the dump's line, a row of buttons and fields wrapped to two, the
 * verdict) and the tree above the compare panes left the panes two or three lines of text. A person opens the
 * view, pastes a log, clicks its second program and compares it with a fusion: each compare pane shows at least
 * {@value #LEAST_AT_1280} whole lines at 1280 x 800, and at least {@value #LEAST_AT_1600} at 1600 x 1000.
 */
public class DumpPaneLinesJourneyTest {
    /** Whole text lines a compare pane shows at 1280 x 800 (main e593a69a: 2). */
    private static final int LEAST_AT_1280 = 8;
    /** At 1600 x 1000, where the bottom folder is taller (main e593a69a: 6). */
    private static final int LEAST_AT_1600 = 10;
    private Journey journey;

    @AfterEach
    public void close() {
        journey.hide(DumpView.ID);
        HostIrPreferences.setDumpFile(null);
        journey.shell().setBounds(0, 0, 1600, 1000);   // the later journeys' size
    }

    @Test
    public void theComparePanesShowEightLinesAt1280x800() throws Exception {
        journey = Journey.inResetStudio(1280, 800);   // the Host IR perspective: the view in the bottom folder
        var person = journey.person();
        ViewTestSupport.copyToWorkspace("dumplines", "examples/seeds/ag_matmul_p2p.fusion", "dumplinesseed.fusion");
        DumpView view = journey.show(DumpView.ID);
        person.settle(400);
        DumpViewButtons.paste(journey, person, DumpViewTest.log(DumpViewTest.seed000Dumps()));
        assertNotNull(view.snapshots(), view.messageText());
        org.eclipse.swt.widgets.List list = ViewTestSupport.descendants(journey.shell(),
                org.eclipse.swt.widgets.List.class).stream().filter(Control::isVisible).findFirst().orElseThrow();
        person.click(list, 20, list.getItemHeight() + list.getItemHeight() / 2);
        person.settle(300);
        assertEquals(1, view.selected(), "the click selected the second program");
        int before = leastLines(view, "1280x800 before/after");

        Typist.after(1500).type("dumplinesseed", 30).then(1500).keys("Return").start();
        person.clickCenter(DumpViewButtons.button(journey, "Compare with Studio lowering..."));
        person.settle(500);
        person.lookAt(journey.shell());
        assertNotNull(view.comparison(), "compared: " + view.messageText());
        ViewTestSupport.screenshot(journey.shell(), "dump-pane-lines-1280x800.png");
        int compared = leastLines(view, "1280x800 compared");

        journey.shell().setBounds(0, 0, 1600, 1000);
        person.settle(500);
        ViewTestSupport.screenshot(journey.shell(), "dump-pane-lines-1600x1000.png");
        int large = leastLines(view, "1600x1000 compared");
        assertTrue(before >= LEAST_AT_1280 && compared >= LEAST_AT_1280, "at 1280 x 800 each compare pane shows at"
                + " least " + LEAST_AT_1280 + " lines: " + before + " before the comparison, " + compared + " after");
        assertTrue(large >= LEAST_AT_1600, "at 1600 x 1000 each pane shows at least " + LEAST_AT_1600 + " lines: "
                + large);
    }

    /**
     * The fewest whole lines of text either compare pane shows: its client area's height in lines, the pane lying
     * inside the window (not cut off by the folder or the window's edge) and showing text.
     */
    private int leastLines(DumpView view, String state) {
        List<StyledText> panes = ViewTestSupport.descendants(journey.shell(), StyledText.class).stream()
                .filter(t -> t.isVisible() && !t.getEditable() && t.getSize().x > 60)
                .filter(t -> shows(t.getText(), view)).toList();
        assertEquals(2, panes.size(), state + ": the two compare panes");
        Rectangle window = journey.shell().getDisplay().map(journey.shell(), null, journey.shell().getClientArea());
        int least = Integer.MAX_VALUE;
        for (StyledText pane : panes) {
            Rectangle shown = pane.getDisplay().map(pane, null, pane.getClientArea());
            assertTrue(window.contains(shown.x, shown.y) && window.contains(shown.x + shown.width - 1,
                    shown.y + shown.height - 1), state + ": the pane " + shown + " lies inside the window " + window);
            int lines = pane.getClientArea().height / pane.getLineHeight();
            System.out.println("DumpPaneLinesJourneyTest " + state + ": a pane " + pane.getClientArea().width + " x "
                    + pane.getClientArea().height + " px, " + lines + " lines of " + pane.getLineHeight() + " px");
            least = Math.min(least, lines);
        }
        return least;
    }

    /** Whether {@code text} is a program the Dump view shows (the Lowering view has panes of its own). */
    private static boolean shows(String text, DumpView view) {
        int i = view.selected();
        var c = view.comparison();
        return text.equals(view.snapshots().text(i)) || text.equals(view.snapshots().previousText(i))
                || c != null && (text.equals(c.dumpText()) || text.equals(c.studioText()));
    }
}
