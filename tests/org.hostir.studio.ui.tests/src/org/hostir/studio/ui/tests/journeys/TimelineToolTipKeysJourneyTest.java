package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.ToolItem;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, round 18 (driven by hand): the keys in the Timeline toolbar's tooltips ("Fit: show the whole run
 * (Ctrl+0)") appeared only sometimes. Reproduced in the product: the Timeline restored on top of its folder at the
 * start (made while the editor was active), a run shown in it; hovering Fit, Zoom in and Zoom out showed no key, also
 * after a click into the rows. Here the view is made while the Project Explorer is active and shows a saved run; a
 * person clicks into the rows and hovers each zoom action: its tooltip names its key, once.
 */
public class TimelineToolTipKeysJourneyTest {
    /** The actions with keys, as TimelineToolbarJourneyTest lists them, and their keys (plugin.xml). */
    static final List<String> KEYS = List.of("(Ctrl+0)", "(Ctrl+=)", "(Ctrl+-)");

    @Test
    public void theZoomActionsTooltipsNameTheirKeysOnceThePersonIsInTheView() throws Exception {
        Journey journey = Journey.start(1280, 800);
        Person person = journey.person();
        IWorkbenchPage page = journey.page();
        var old = page.findViewReference(TimelineView.ID);
        if (old != null) page.hideView(old);
        person.settle(200);
        page.showView(IPageLayout.ID_PROJECT_EXPLORER);
        TimelineView view = (TimelineView) page.showView(TimelineView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
        assertNotSame(view, page.getActivePart(), "the Timeline was made while another part was active");
        // the run shown, as a launch shows it (the view comes to the front and becomes active)
        view.openTrace(List.of(ViewTestSupport.repoFile(TimelineSummaryJourneyTest.TRACE)));
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        person.settle(300);

        Rectangle rows = view.canvas().control().getClientArea();
        person.click(view.canvas().control(), rows.width - 20, rows.height - 10);   // into the rows, past the bars
        person.settle(500);
        assertSame(view, page.getActivePart(), "the click made the Timeline the active part");
        List<ToolItem> items = TimelineToolbarJourneyTest.actions(journey.shell());
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < KEYS.size(); i++) {
            String tip = HoveredToolTip.read(person, items.get(i));
            if (i == 1) ViewTestSupport.screenshot(journey.shell(), "timeline-tooltip-keys.png");
            System.out.println("TimelineToolTipKeysJourneyTest: hovering " + TimelineToolbarJourneyTest.ACTIONS.get(i)
                    + ": \"" + tip + "\"");
            if (!tip.contains(KEYS.get(i)) || tip.indexOf("(Ctrl+") != tip.lastIndexOf("(Ctrl+")) {
                wrong.add(TimelineToolbarJourneyTest.ACTIONS.get(i) + ": \"" + tip + "\" should name " + KEYS.get(i)
                        + " once");
            }
        }
        assertTrue(person.restAway(journey.shell()), "a tooltip stays");
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }
}
