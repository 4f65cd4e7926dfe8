package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Link;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: with a 64-rank run the Timeline's details panel under the rows was about 4 lines high, the bytes, peer
 * and iteration only reachable by scrolling (GTK's overlay scrollbar hidden until hovered), even maximized. A
 * person maximizes the view, clicks a send/receive bar: every line of its details and the node link show whole,
 * and the rows keep most of the view.
 */
public class TimelineDetailsJourneyTest {
    @Test
    public void aBarsWholeDetailsShowUnder64RanksAt1600x1000() throws Exception { check(1600, 1000); }

    @Test
    public void aBarsWholeDetailsShowUnder64RanksAt1280x800() throws Exception { check(1280, 800); }

    private static void check(int width, int height) throws Exception {
        Journey journey = Journey.start(width, height);
        Person person = journey.person();
        IWorkbenchPage page = journey.page();
        String size = width + "x" + height;
        try {
            IFile file = ViewTestSupport.copyToWorkspace("timeline-details", "examples/seeds/ag_matmul_p2p.fusion",
                    "ag_matmul_p2p.fusion");
            TimelineView view = journey.runInTimeline("ag_matmul_p2p", 64, file);
            page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
            person.settle(500);
            TimelineEvent clicked = clickAPeerBar(person, view, size);
            String shown = view.detailsText();
            // the model: the details of the bar clicked, with the lines the panel used to hide
            assertTrue(shown.contains("rank " + clicked.rank()) && shown.contains("peer rank " + clicked.peer())
                    && shown.contains("bytes "), size + ": details of " + clicked + ": " + shown);
            StyledText text = detailsText(view, shown);
            // what is shown: the text's wrapped lines all within its height (no scrolling), the link below whole
            int wanted = text.computeSize(text.getClientArea().width, SWT.DEFAULT).y; // the hint is the text's own width
            System.out.println(size + ": details " + text.getSize() + " wants " + wanted + " (" + text.getLineHeight()
                    + " px lines), rows " + view.canvas().control().getSize() + ", view " + view.analysisTabs()
                            .getParent().getParent().getSize());
            assertTrue(wanted <= text.getSize().y, size + ": the details need " + wanted + " px, have "
                    + text.getSize().y);
            assertTrue(text.getTopIndex() == 0, size + ": the details are scrolled to line " + text.getTopIndex());
            Link link = ViewTestSupport.descendants(view.analysisTabs(), Link.class).stream()
                    .filter(l -> l.isVisible() && !l.getText().isEmpty()).findFirst().orElseThrow();
            var box = link.getBounds();
            assertTrue(box.y + box.height <= link.getParent().getClientArea().height && box.height
                    >= link.computeSize(SWT.DEFAULT, SWT.DEFAULT).y, size + ": the node link " + box + " in "
                    + link.getParent().getClientArea());
            // the rows not hidden: they keep at least 40% of the view's height
            int rows = view.canvas().control().getSize().y;
            int all = view.canvas().control().getParent().getSize().y;
            assertTrue(rows * 100 >= 40 * all, size + ": rows " + rows + " px of " + all);
            // the picture shows the panel, not the bar's tooltip over the rows
            assertTrue(person.restAway(page.getWorkbenchWindow().getShell()), size + ": a tooltip stays");
            ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-details-64-" + size + ".png");
        } finally {
            var ref = page.findViewReference(TimelineView.ID);
            if (ref != null) page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
            journey.closeEditors();
        }
    }

    /** Clicks the first bar found with a peer (a send or receive, whose details have the most lines). */
    private static TimelineEvent clickAPeerBar(Person person, TimelineView view, String size) {
        var canvas = view.canvas();
        var area = canvas.control().getClientArea();
        for (int y = 30; y < area.height; y += 3) {
            for (int x = 160; x < area.width; x += 4) {
                TimelineEvent e = canvas.eventAt(x, y);
                if (e != null && e.peer() >= 0 && e.bytes() > 0) {
                    person.click(canvas.control(), x, y);
                    person.settle(300);
                    return e;
                }
            }
        }
        throw new AssertionError(size + ": no send or receive bar in sight on the timeline's canvas");
    }

    /** The details panel's text: the visible multi-line text showing {@code shown}. */
    private static StyledText detailsText(TimelineView view, String shown) {
        return ViewTestSupport.descendants(view.analysisTabs(), StyledText.class).stream()
                .filter(t -> t.isVisible() && (t.getStyle() & SWT.MULTI) != 0 && t.getText().equals(shown))
                .findFirst().orElseThrow(() -> new AssertionError("no details text showing: " + shown));
    }
}
