package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.eclipse.swt.custom.StyledText;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Drive 17, finding 12 (the Lowering view's part): with no pass shown (a filter that matches none) the compare panes
 * are empty, and each showed the editors' light-blue current-line band across its first line, as if a line were
 * there. A person types such a filter and clicks into each pane (the caret's line is the band's): the first line
 * reads on the screen as the rows below it, the pane's own background.
 */
public class LoweringEmptyPaneJourneyTest extends JourneyTest {
    @Test
    public void anEmptyPaneShowsNoCurrentLineBand() throws Exception {
        journey.openSeed("journeys", "ag_matmul_p2p", "emptypane.fusion");
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        PassInspector inspector = ShownLowering.of(view);
        person.retype(ShownLowering.filter(view), "qqq");
        person.settle(300);
        assertNull(inspector.selected(), "no pass matches the filter");
        try {
            for (StyledText pane : inspector.panes()) {
                assertEquals("", pane.getText(), "the pane is empty");
                person.click(pane, pane.getClientArea().width / 2, pane.getLineHeight() / 2);
                person.settle(300);
                ViewTestSupport.screenshot(journey.shell(), "lowering-empty-pane.png");
                int first = DumpEmptyPaneJourneyTest.rowColour(pane, pane.getLineHeight() / 2);
                int below = DumpEmptyPaneJourneyTest.rowColour(pane, pane.getLineHeight() * 3 + pane.getLineHeight() / 2);
                assertEquals(Integer.toHexString(below), Integer.toHexString(first), "the empty pane's first line on"
                        + " the screen is its background, as the rows below it (a band there reads as a line)");
            }
        } finally {
            person.retype(ShownLowering.filter(view), "");   // selected, then deleted
            person.press(org.eclipse.swt.SWT.BS);
            person.settle(200);
        }
    }
}
