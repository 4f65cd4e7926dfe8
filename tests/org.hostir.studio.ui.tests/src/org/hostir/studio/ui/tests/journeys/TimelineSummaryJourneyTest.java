package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import java.util.function.IntConsumer;
import java.util.function.Supplier;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Scrollable;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, item 7: the Timeline's summary beside the details was cut off on the right with no scrollbar, at 1280
 * and 1600 px, maximized or not ("rank 0: compute 0.18 ms, communication 0.61 m"). A saved two-rank trace (fixed
 * durations) opens in the Timeline; a person clicks a send bar, maximizes the view with Ctrl+M and restores it
 * with Ctrl+M. In each state every character of every line of the summary and of the details must lie, once the
 * text is scrolled to it, inside the part of the pane that is on screen (its client area clipped by its parents').
 * On GTK a wrapped Text kept the widest width it was given (the maximize gave the summary the view's whole width
 * for a moment) and wrapped there, past the pane's right edge: at 1280 x 800 maximized, 888 of 367 px.
 */
public class TimelineSummaryJourneyTest {
    static final String TRACE = "tests/org.hostir.studio.ui.tests/traces/ag_matmul_p2p_2ranks.json";

    @Test
    public void everySummaryLineShowsWholeAt1600x1000() throws Exception { check(1600, 1000); }

    @Test
    public void everySummaryLineShowsWholeAt1280x800() throws Exception { check(1280, 800); }

    private static void check(int width, int height) throws Exception {
        Journey journey = Journey.start(width, height);
        Person person = journey.person();
        IWorkbenchPage page = journey.page();
        String size = width + "x" + height;
        List<String> failures = new ArrayList<>();
        try {
            TimelineView view = (TimelineView) page.showView(TimelineView.ID);
            view.openTrace(List.of(ViewTestSupport.repoFile(TRACE)));
            ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
            person.settle(300);
            assertTrue(view.summaryText().contains("rank 1: compute"), size + ": the summary's figures: "
                    + view.summaryText());
            clickASendBar(person, view, size);
            measure(journey, view, size + " in the default layout", "timeline-summary-" + size + ".png", failures);
            failures.addAll(SummaryReading.of(person, view, size + " in the default layout"));
            person.press(SWT.MOD1, 'm');   // Ctrl+M: Maximize Active View
            person.settle(600);
            assertEquals(IWorkbenchPage.STATE_MAXIMIZED, page.getPartState(page.findViewReference(TimelineView.ID)),
                    size + ": Ctrl+M maximized the Timeline");
            measure(journey, view, size + " maximized", "timeline-summary-" + size + "-maximized.png", failures);
            person.press(SWT.MOD1, 'm');   // and back: the panes narrow again
            person.settle(600);
            assertEquals(IWorkbenchPage.STATE_RESTORED, page.getPartState(page.findViewReference(TimelineView.ID)),
                    size + ": Ctrl+M restored the Timeline");
            measure(journey, view, size + " restored", "timeline-summary-" + size + "-restored.png", failures);
        } finally {
            var ref = page.findViewReference(TimelineView.ID);
            if (ref != null) page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
            person.settle(200);
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /**
     * Clicks a send or receive bar (whose details have the most lines); the canvas then has the keys. Looked for
     * again if the click selected nothing: the view re-fits the run while the window settles at its new size.
     */
    private static void clickASendBar(Person person, TimelineView view, String size) {
        var canvas = view.canvas();
        for (int attempt = 0; attempt < 3; attempt++) {
            person.settle(300);
            int[] at = aPeerBar(view);
            if (at == null) continue;
            person.click(canvas.control(), at[0], at[1]);
            person.settle(300);
            TimelineEvent e = canvas.selected();
            if (e != null && e.peer() >= 0) {
                assertTrue(view.detailsText().contains("peer rank " + e.peer()), size + ": " + view.detailsText());
                return;
            }
            System.out.println("TimelineSummaryJourneyTest " + size + ": the click at " + at[0] + "," + at[1]
                    + " selected " + e + " (canvas " + canvas.control().getSize() + "); looked for again");
        }
        throw new AssertionError(size + ": no send or receive bar selected by a click on the timeline's canvas");
    }

    private static int[] aPeerBar(TimelineView view) {
        var canvas = view.canvas();
        var area = canvas.control().getClientArea();
        for (int y = 30; y < area.height; y += 3) {
            for (int x = 160; x < area.width; x += 3) {
                TimelineEvent e = canvas.eventAt(x, y);
                if (e != null && e.peer() >= 0 && e.bytes() > 0) return new int[] { x, y };
            }
        }
        return null;
    }

    private static void measure(Journey journey, TimelineView view, String where, String shot, List<String> failures) {
        Shell shell = journey.shell();
        assertTrue(journey.person().restAway(shell), where + ": a tooltip stays");
        ViewTestSupport.screenshot(shell, shot);
        // the summary and the details are tabs side by side (issue 35, round 18): each shown by a click on its tab
        SummaryReading.clickTab(journey.person(), view, "Summary");
        failures.addAll(cutLines(shown(view, view.summaryText(), where), where + ", summary"));
        SummaryReading.clickTab(journey.person(), view, "Details");
        failures.addAll(cutLines(shown(view, view.detailsText(), where), where + ", details"));
    }

    /**
     * A multi-line text pane as the test reads it: a Text or a StyledText (SWT's own, which wraps at its own width),
     * with a caret put at an offset (which scrolls the pane to it) and the caret's place.
     */
    record Pane(Scrollable control, String text, int lineHeight, IntConsumer caretAt, Supplier<Point> caret,
                IntConsumer topIndex) {
        static Pane of(Scrollable c) {
            return switch (c) {
                case Text t -> new Pane(t, t.getText(), t.getLineHeight(), t::setSelection, t::getCaretLocation,
                        t::setTopIndex);
                case StyledText t -> new Pane(t, t.getText(), t.getLineHeight(), t::setSelection,
                        () -> t.getLocationAtOffset(t.getCaretOffset()), t::setTopIndex);
                default -> throw new AssertionError("not a text pane: " + c);
            };
        }
    }

    /** The view's visible multi-line text pane showing {@code shown}. */
    static Pane shown(TimelineView view, String shown, String where) {
        Control root = view.canvas().control().getParent().getParent();
        return ViewTestSupport.descendants(root, Scrollable.class).stream()
                .filter(c -> c instanceof Text || c instanceof StyledText)
                .filter(c -> c.isVisible() && (c.getStyle() & SWT.MULTI) != 0).map(Pane::of)
                .filter(p -> p.text().equals(shown))
                .findFirst().orElseThrow(() -> new AssertionError(where + ": no text pane showing " + shown));
    }

    /**
     * The lines of {@code pane} with a character out of sight: for each character the caret is put there (which
     * scrolls the pane to it, as a person's arrow keys or scrollbar would) and its place must lie in the pane's
     * client area clipped by its parents', left to right. Each line cut is reported with its extent in the pane's
     * font. Up and down the pane needs a vertical scrollbar.
     */
    static List<String> cutLines(Pane pane, String where) {
        Scrollable t = pane.control();
        Rectangle seen = onScreen(t);
        String[] lines = pane.text().split("\n", -1);
        List<String> cut = new ArrayList<>();
        GC gc = new GC(t);
        try {
            gc.setFont(t.getFont());
            int start = 0, widest = 0;
            for (String line : lines) {
                int extent = gc.textExtent(line).x;
                widest = Math.max(widest, extent);
                int right = Integer.MIN_VALUE;
                for (int i = 0; i <= line.length(); i++) {
                    pane.caretAt().accept(start + i);
                    right = Math.max(right, t.toDisplay(pane.caret().get()).x);
                }
                if (right > seen.x + seen.width) {
                    cut.add(where + ": \"" + line + "\" (" + extent + " px) reaches x " + (right - seen.x)
                            + " of the " + seen.width + " px on screen");
                }
                start += line.length() + 1;
            }
            System.out.println("TimelineSummaryJourneyTest " + where + ": " + lines.length + " lines, widest "
                    + widest + " px; pane " + t.getClass().getSimpleName() + " " + t.getBounds() + " client "
                    + t.getClientArea() + ", on screen " + seen + "; cut " + cut.size());
        } finally {
            gc.dispose();
            pane.caretAt().accept(0);
            pane.topIndex().accept(0);   // as the person left it, for the next screenshot
        }
        if (t.getVerticalBar() == null && pane.text().split("\n", -1).length * pane.lineHeight() > seen.height) {
            cut.add(where + ": " + lines.length + " lines in " + seen.height + " px and no vertical scrollbar");
        }
        return cut;
    }

    /** The part of {@code c}'s client area on screen: clipped by every parent's client area, in display pixels. */
    static Rectangle onScreen(Scrollable c) {
        Rectangle a = c.getClientArea();
        Point at = c.toDisplay(a.x, a.y);
        Rectangle seen = new Rectangle(at.x, at.y, a.width, a.height);
        for (Composite p = c.getParent(); p != null; p = p.getParent()) {
            Rectangle pa = p.getClientArea();
            Point pat = p.toDisplay(pa.x, pa.y);
            seen = seen.intersection(new Rectangle(pat.x, pat.y, pa.width, pa.height));
        }
        return seen;
    }
}
