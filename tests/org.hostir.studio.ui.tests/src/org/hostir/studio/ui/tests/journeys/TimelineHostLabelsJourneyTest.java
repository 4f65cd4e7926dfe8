package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IViewReference;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.theme.StaleCssElements;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the product in Dark: a host row's labels ("dispatch PostOnStream") were black on the
 * near-black lane. A host bar is a thin strip, narrower than a line of text, so most of its label's glyphs lie on
 * the lane and not on the bar, whose colour the label's was chosen against. A saved trace (the test's
 * traces/host_labels.json: fixed durations, so nothing depends on how fast a run went) opens in the maximized
 * Timeline; in Light, then in Dark, the person fits the run (0) and zooms in on the host bar with Ctrl+wheel until
 * it is at least 40, 160 and 600 pixels wide; at each width the label, on the screenshot, must read against what
 * lies under each of its pixels ({@link LabelInk}): rank 1 has the same bar at the same time without a name, one
 * rank's rows below.
 */
public class TimelineHostLabelsJourneyTest extends JourneyTest {
    private static final String TRACE = "tests/org.hostir.studio.ui.tests/traces/host_labels.json";
    private static final String DARK = "org.eclipse.e4.ui.css.theme.e4_dark";
    private static final String LABELLED = "dispatch PostOnStream";
    private static final int[] WIDTHS = { 40, 160, 600 };
    /** A Ctrl+wheel notch zooms in by 1 / 0.8: a bar zoomed until it is W pixels wide is under 1.25 W. */
    private static final double NOTCH = 1.25;

    private final List<String> failures = new ArrayList<>();

    @Test
    public void hostLabelsReadOnWhatLiesUnderThemInBothThemesAtEveryWidth() throws Exception {
        Display display = Display.getCurrent();
        IThemeEngine engine = engine();
        String light = engine.getActiveTheme().getId();
        TimelineView view = (TimelineView) page.showView(TimelineView.ID);
        view.openTrace(List.of(ViewTestSupport.repoFile(TRACE)));
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        person.settle(300);
        TimelineEvent named = host(view, 0, LABELLED), twin = host(view, 1, "");
        assertEquals(named.startNs(), twin.startNs(), "the twin bar is at the same time");
        IViewReference ref = page.findViewReference(TimelineView.ID);
        page.setPartState(ref, IWorkbenchPage.STATE_MAXIMIZED);
        try {
            person.settle(500);
            for (int width : WIDTHS) measure(view, "light", width, named, twin);
            System.out.println("TimelineHostLabelsJourneyTest: " + StaleCssElements.drop(display));
            engine.setTheme(DARK, false);   // as Preferences > Appearance > Dark applies it, without a restart
            person.settle(800);
            for (int width : WIDTHS) measure(view, "dark", width, named, twin);
        } finally {
            if (!engine.getActiveTheme().getId().equals(light)) engine.setTheme(light, false);
            page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
            person.settle(300);
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /**
     * Fits the run, zooms in on {@code named} until it is {@code width} pixels wide, saves the window and measures
     * the label there; a failure is noted and the next width measured.
     */
    private void measure(TimelineView view, String theme, int width, TimelineEvent named, TimelineEvent twin)
            throws Exception {
        TimelineCanvas canvas = view.canvas();
        // a click on the row labels' column (no bar there) gives the canvas the keys, and 0 fits the run
        person.click(canvas.control(), 100, canvas.centerOf(named)[1]);
        person.press(0, '0');
        person.settle(200);
        for (int notch = 0; notch < 40 && widthOf(named, canvas) < width; notch++) {
            int[] at = canvas.centerOf(named);
            person.wheel(canvas.control(), at[0], at[1], 1, SWT.CTRL);
            person.settle(60);
        }
        double shown = widthOf(named, canvas);
        assertTrue(shown >= width && shown < width * NOTCH + 1, theme + ": zoomed until the bar is " + width
                + " pixels wide: " + shown);
        // the pointer off the bars (no tooltip over the label), and the picture a person sees
        person.moveTo(canvas.control(), 100, canvas.centerOf(named)[1]);
        person.settle(400);
        String name = "timeline-host-label-" + theme + "-" + width + ".png";
        File shot = ViewTestSupport.screenshot(journey.shell(), name);
        assertNotNull(shot, "-Dhirstudio.screenshots is set: the label is measured on the screenshot");
        boolean dark = ThemeColors.luminance(canvas.control().getBackground().getRGB()) < 0.2;
        if (dark != theme.equals("dark")) failures.add(name + ": the canvas does not follow " + theme);
        int[] at = canvas.centerOf(named), under = canvas.centerOf(twin);
        assertEquals(at[0], under[0], "the twin bar is drawn at the same pixels");
        LabelInk ink = LabelInk.of(new ImageLoader().load(shot.getPath())[0], labelBox(canvas, named, at),
                0, under[1] - at[1]);
        String where = theme + ", the host bar " + Math.round(shown) + " px wide (" + name + "): " + ink;
        System.out.println("TimelineHostLabelsJourneyTest: " + where);
        if (ink.groups() < 3) failures.add(where + ": no label to read");
        else if (ink.readable() < ink.groups()) failures.add(where + ": the label does not read on what lies under it");
    }

    /**
     * The label's place in the screenshot: inside the bar (3 pixels in from each end, past the outlines a bar may
     * get), a line of the canvas's text high around the lane's middle and a pixel more.
     */
    private Rectangle labelBox(TimelineCanvas canvas, TimelineEvent e, int[] at) {
        GC gc = new GC(canvas.control());
        int line;
        try {
            line = gc.getFontMetrics().getHeight();
        } finally {
            gc.dispose();
        }
        int half = (int) Math.floor(widthOf(e, canvas) / 2);
        Point origin = Screens.inShot(journey.shell(), canvas.control());
        return new Rectangle(origin.x + at[0] - half + 3, origin.y + at[1] - line / 2 - 1, 2 * half - 6, line + 2);
    }

    private static double widthOf(TimelineEvent e, TimelineCanvas canvas) {
        return (e.endNs() - e.startNs()) / canvas.nsPerPixel();
    }

    private static TimelineEvent host(TimelineView view, int rank, String name) {
        return view.timeline().events().stream()
                .filter(e -> e.kind() == EventKind.HOST && e.rank() == rank && e.name().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("rank " + rank + "'s host bar '" + name + "'"));
    }

    private static IThemeEngine engine() {
        IThemeEngine engine = PlatformUI.getWorkbench().getService(IThemeEngine.class);
        if (engine == null) engine = (IThemeEngine) Display.getCurrent().getData("org.eclipse.e4.ui.css.swt.theme");
        assertNotNull(engine, "the workbench has a theme engine");
        return engine;
    }
}
