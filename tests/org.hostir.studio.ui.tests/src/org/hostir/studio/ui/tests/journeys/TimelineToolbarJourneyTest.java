package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
import org.hostir.studio.trace.ChromeTraceReader;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.RunSettings;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the Timeline's toolbar showed its actions as text alone, side by side, one run of words ("Fit + −
 * Open Compare Predict Vs Predicted"): a person could not tell where one action ended ("Predict Vs Predicted"?).
 * A saved two-rank run opens in the Timeline at 1280 x 800; each action of the view's toolbar must carry an icon
 * (not the same as its left neighbour's), lie apart from its neighbours and have a tooltip that starts with its
 * name; then a person clicks the zoom actions and the two prediction actions, and each does what it says.
 */
public class TimelineToolbarJourneyTest {
    /** Each action: the start of its tooltip (its name), in the toolbar's order. */
    static final List<String> ACTIONS = List.of("Fit", "Zoom in", "Zoom out", "Open", "Compare the shown run",
            "Predict", "Compare with the prediction");

    @Test
    public void eachActionIsAnIconWithItsNameAndDoesWhatItSays() throws Exception {
        Journey journey = Journey.start(1280, 800);
        Person person = journey.person();
        IFile file = ViewTestSupport.copyToWorkspace("timeline-toolbar", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        var trace = ChromeTraceReader.read(ViewTestSupport.repoFile(TimelineSummaryJourneyTest.TRACE));
        // with the run's program and settings, as a launched run comes: Predict and Vs Predicted ask for a profile
        TimelineView view = TimelineView.show(trace, "ag_matmul_p2p: saved run", file, RunSettings.DEFAULTS);
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        person.settle(300);
        List<ToolItem> items = actions(journey.shell());
        assertTrue(person.restAway(journey.shell()), "a tooltip stays");
        ViewTestSupport.screenshot(journey.shell(), "timeline-toolbar-1280x800.png");
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) failures.addAll(apart(items, i));
        assertTrue(failures.isEmpty(), String.join("\n", failures));

        view.fit();
        person.settle(200);
        double fitted = view.canvas().nsPerPixel();
        clickItem(person, items.get(1));
        assertEquals(fitted / 2, view.canvas().nsPerPixel(), fitted * 0.01, "Zoom in halved the ns per pixel");
        clickItem(person, items.get(2));
        assertEquals(fitted, view.canvas().nsPerPixel(), fitted * 0.01, "Zoom out doubled it again");
        clickItem(person, items.get(1));
        clickItem(person, items.get(1));
        assertEquals(fitted / 4, view.canvas().nsPerPixel(), fitted * 0.01, "twice Zoom in");
        clickItem(person, items.get(0));
        assertEquals(fitted, view.canvas().nsPerPixel(), fitted * 1e-6, "Fit showed the whole run again");
        asksForAProfile(person, items.get(5), "Show Prediction Above");
        asksForAProfile(person, items.get(6), "Compare With Prediction");
    }

    /** The view's toolbar (the one with Zoom in and a prediction action): its items but separators, in order. */
    static List<ToolItem> actions(Shell shell) {
        for (ToolBar bar : ViewTestSupport.descendants(shell, ToolBar.class)) {
            if (!bar.isVisible()) continue;
            List<String> tips = Arrays.stream(bar.getItems()).map(ToolItem::getToolTipText)
                    .map(t -> t == null ? "" : t.toLowerCase()).toList();
            if (tips.stream().anyMatch(t -> t.startsWith("zoom in"))
                    && tips.stream().anyMatch(t -> t.contains("prediction"))) {
                List<ToolItem> items = Arrays.stream(bar.getItems()).filter(i -> (i.getStyle() & SWT.SEPARATOR) == 0)
                        .toList();
                assertEquals(ACTIONS.size(), items.size(), "the Timeline's actions: " + tips);
                return items;
            }
        }
        throw new AssertionError("no visible toolbar with Zoom in and a prediction action");
    }

    /**
     * What is wrong with item {@code i} as a person sees it: no icon, the same icon as its left neighbour, or
     * its bounds touching or overlapping the neighbour's (a run of words).
     */
    private static List<String> apart(List<ToolItem> items, int i) {
        ToolItem item = items.get(i);
        String name = ACTIONS.get(i);
        Rectangle b = item.getBounds();
        System.out.println("TimelineToolbarJourneyTest: \"" + name + "\" text \"" + item.getText() + "\" image "
                + (item.getImage() == null ? "none" : item.getImage().getBounds()) + " bounds " + b
                + " tooltip \"" + item.getToolTipText() + "\"");
        List<String> wrong = new ArrayList<>();
        if (item.getToolTipText() == null || !item.getToolTipText().startsWith(name)) {
            wrong.add("the tooltip of \"" + item.getText() + "\" does not start with its name " + name + ": \""
                    + item.getToolTipText() + "\"");
        }
        String tip = item.getToolTipText() == null ? "" : item.getToolTipText();
        if (tip.indexOf("(Ctrl+") != tip.lastIndexOf("(Ctrl+")) wrong.add("a key named twice: \"" + tip + "\"");
        if (item.getImage() == null) wrong.add("\"" + name + "\" (\"" + item.getText() + "\") has no icon");
        if (i == 0) return wrong;
        ToolItem left = items.get(i - 1);
        Rectangle lb = left.getBounds();
        if (lb.x + lb.width > b.x) wrong.add("\"" + name + "\" at x " + b.x + " overlaps its left neighbour " + lb);
        if (item.getImage() != null && left.getImage() != null
                && same(item.getImage().getImageData(), left.getImage().getImageData())) {
            wrong.add("\"" + name + "\" has the same icon as \"" + ACTIONS.get(i - 1) + "\"");
        }
        return wrong;
    }

    private static boolean same(ImageData a, ImageData b) {
        return a.width == b.width && a.height == b.height && Arrays.equals(a.data, b.data);
    }

    private static void clickItem(Person person, ToolItem item) {
        Rectangle b = item.getBounds();
        person.click(item.getParent(), b.x + b.width / 2, b.y + b.height / 2);
        person.settle(200);
    }

    /** A click on {@code item} opens the profile dialog titled {@code title}; Cancel closes it. */
    private static void asksForAProfile(Person person, ToolItem item, String title) {
        clickItem(person, item);
        person.settle(300);
        Shell dialog = Arrays.stream(Display.getCurrent().getShells())
                .filter(s -> title.equals(s.getText()) && s.isVisible()).findFirst().orElse(null);
        assertNotNull(dialog, "a click on \"" + item.getToolTipText() + "\" opened \"" + title + "\"");
        Button cancel = ViewTestSupport.descendants(dialog, Button.class).stream()
                .filter(b -> "Cancel".equals(b.getText())).findFirst().orElseThrow();
        person.clickCenter(cancel);
        person.settle(200);
        assertTrue(dialog.isDisposed(), "Cancel closed \"" + title + "\"");
        assertFalse(Arrays.stream(Display.getCurrent().getShells()).anyMatch(s -> !s.isDisposed()
                && s.isVisible() && (s.getStyle() & SWT.APPLICATION_MODAL) != 0), "no dialog left open");
    }
}
