package org.hostir.studio.ui.tests.journeys;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineView;

/**
 * Issue 35, round 18 (driven by hand at 1280 x 800): the Timeline's summary below the details beside the rows was
 * 44 px high, two of its thirty lines, and GTK's overlay scrollbar, drawn only while the pointer moves over the text,
 * did not say that there was more. What a person must find once a click on its tab shows it: at least
 * {@link #LEAST_LINES} lines in sight, a scrollbar on the screen beside the text (its width taken from the text, its
 * slider drawn in it), and Ctrl+End in the summary bringing its last line into sight.
 */
final class SummaryReading {
    /** The least lines of the summary a person reads at once (the view is 150 px high at 1280 x 800 in the tests). */
    static final int LEAST_LINES = 5;

    private SummaryReading() {}

    /** A person's click on the Timeline's tab {@code title} (Summary, Details, ...). */
    static void clickTab(Person person, TimelineView view, String title) {
        var root = view.canvas().control().getParent().getParent();
        for (CTabFolder folder : ViewTestSupport.descendants(root, CTabFolder.class)) {
            for (CTabItem item : folder.getItems()) {
                if (!item.getText().equals(title)) continue;
                person.clickTab(item, 1);
                person.settle(300);
                if (folder.getSelection() != item) throw new AssertionError("a click on the tab " + title + " at "
                        + item.getBounds() + " did not show it");
                return;
            }
        }
        throw new AssertionError("the Timeline has no tab " + title);
    }

    static List<String> of(Person person, TimelineView view, String where) {
        clickTab(person, view, "Summary");
        StyledText t = (StyledText) TimelineSummaryJourneyTest.shown(view, view.summaryText(), where).control();
        List<String> wrong = new ArrayList<>();
        Rectangle seen = TimelineSummaryJourneyTest.onScreen(t);
        int inSight = seen.height / t.getLineHeight();
        int lines = t.getLineCount();
        System.out.println("SummaryReading " + where + ": " + inSight + " lines in sight of " + lines + " (pane "
                + t.getSize() + ", client " + t.getClientArea() + ", on screen " + seen + ")");
        if (inSight < Math.min(lines, LEAST_LINES)) {
            wrong.add(where + ": the summary shows " + inSight + " lines (" + seen.height + " px) of " + lines);
        }
        if (lines <= inSight) return wrong;
        Rectangle client = t.getClientArea();
        int bar = t.getSize().x - 2 * t.getBorderWidth() - client.width;
        if (bar < 6 || !sliderDrawn(t, new Rectangle(client.width, 0, bar, client.height))) {
            wrong.add(where + ": " + lines + " lines in " + inSight + " and no scrollbar on the screen beside them ("
                    + bar + " px beside the text)");
        }
        // a click in the text, then Ctrl+End: the caret to the end, the text scrolled to it
        person.click(t, client.width / 2, Math.min(client.height, seen.height) / 2);
        person.press(SWT.MOD1, (char) 0, SWT.END);
        person.settle(300);
        int last = t.getLinePixel(lines - 1);
        if (last < 0 || last + t.getLineHeight() > Math.min(client.height, seen.height) + 1) {
            wrong.add(where + ": Ctrl+End in the summary left its last line at y " + last + " of "
                    + Math.min(client.height, seen.height));
        }
        t.setTopIndex(0);   // as it was, for the next screenshot
        person.settle(200);
        return wrong;
    }

    /** Whether the strip {@code r} (the bar's place) shows a slider: 10 rows or more apart from its commonest colour. */
    private static boolean sliderDrawn(StyledText t, Rectangle r) {
        ImageData d = ScreenPixels.of(t, r);
        java.util.Map<Integer, Integer> counts = new java.util.HashMap<>();
        for (int y = 0; y < d.height; y++) counts.merge(d.getPixel(d.width / 2, y), 1, Integer::sum);
        int common = counts.entrySet().stream().max(java.util.Map.Entry.comparingByValue()).orElseThrow().getKey();
        RGB c = d.palette.getRGB(common);
        int apart = 0;
        for (int y = 0; y < d.height; y++) {
            RGB p = d.palette.getRGB(d.getPixel(d.width / 2, y));
            if (Math.abs(p.red - c.red) + Math.abs(p.green - c.green) + Math.abs(p.blue - c.blue) > 40) apart++;
        }
        return apart >= 10;
    }
}
