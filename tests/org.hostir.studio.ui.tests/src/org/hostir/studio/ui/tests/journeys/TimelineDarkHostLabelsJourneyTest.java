package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;

import org.eclipse.core.resources.IFile;
import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the product in Dark: the host rows' labels ("dispatch HostOp") were painted black, the
 * colour that reads on the thin host bar, but a thin bar is narrower than the text, whose glyphs lie on the lane's
 * near-black background, where black does not read. After a run, in Dark, a person clicks the widest host bar (its
 * details show) and the label's pixels above and below the bar must stand out from the canvas's background.
 */
public class TimelineDarkHostLabelsJourneyTest {
    private static final String DARK = "org.eclipse.e4.ui.css.theme.e4_dark";

    @Test
    public void hostLabelsReadOnTheLaneInDark() throws Exception {
        Journey journey = Journey.start();
        Person person = journey.person();
        IThemeEngine engine = engine();
        String before = engine.getActiveTheme().getId();
        try {
            IFile file = ViewTestSupport.copyToWorkspace("dark-host-labels", "examples/seeds/ag_matmul_p2p.fusion",
                    "ag_matmul_p2p.fusion");
            TimelineView view = journey.runInTimeline("ag_matmul_p2p", 2, file);
            engine.setTheme(DARK, false);   // as Preferences > Appearance > Dark applies it, without a restart
            person.settle(800);
            TimelineCanvas canvas = view.canvas();
            TimelineEvent host = view.timeline().events().stream().filter(e -> e.kind() == EventKind.HOST)
                    .max(Comparator.comparingLong(e -> e.endNs() - e.startNs())).orElseThrow();
            int[] at = canvas.centerOf(host);
            assertNotNull(at, "the widest host bar is shown: " + host);
            // a host bar lasts microseconds: how wide it is drawn depends on the run's span (under load a CI run drew
            // it 10 px wide, too narrow for a label); a person zooms in on it with Ctrl+wheel until its label shows
            for (int notch = 0; notch < 40 && widthOf(host, canvas) < 160; notch++) {
                person.wheel(canvas.control(), at[0], at[1], 1, SWT.CTRL);
                person.settle(60);
                at = canvas.centerOf(host);
                assertNotNull(at, "the widest host bar stays shown as the person zooms in on it: " + host);
            }
            assertTrue(widthOf(host, canvas) >= 160, "zoomed in until the bar is 160 px wide: " + widthOf(host, canvas));
            // what is shown, before the selection's outline is drawn over the bar: the canvas is dark, and the
            // label's ink off the bar contrasts with it
            ViewTestSupport.screenshot(journey.shell(), "timeline-dark-host-labels.png");
            RGB background = canvas.control().getBackground().getRGB();
            assertTrue(luminance(background) < 0.2, "the canvas follows Dark: " + background);
            int ink = inkOffTheBar(ViewTestSupport.painted(canvas), at, canvas, host, background);
            // the bar a person reads the label of is that bar: a click on it shows its details
            person.click(canvas.control(), at[0], at[1]);
            person.settle(300);
            assertTrue(host.equals(canvas.selected()), "clicked " + host + ", selected " + canvas.selected());
            assertTrue(view.detailsText().contains(host.name()), view.detailsText());
            System.out.println("TimelineDarkHostLabelsJourneyTest: " + ink + " readable label pixels off the bar of "
                    + host.name());
            assertTrue(ink >= 10, "the host label reads on the lane in Dark: " + ink + " pixels of 3:1 contrast with "
                    + background + " above or below the bar of '" + host.name() + "'");
        } finally {
            if (!engine.getActiveTheme().getId().equals(before)) engine.setTheme(before, false);
            person.settle(300);
            journey.closeEditors();
        }
    }

    /**
     * The pixels of the label's box (left part of the bar, a text line high around its middle) that lie above or
     * below the bar itself (found at the bar's right end, past the clipped text) and contrast 3:1 or more with the
     * canvas background.
     */
    private static int inkOffTheBar(ImageData d, int[] at, TimelineCanvas canvas, TimelineEvent e, RGB background) {
        int half = (int) Math.round((e.endNs() - e.startNs()) / canvas.nsPerPixel() / 2);
        int x1 = Math.max(0, at[0] - half), x2 = Math.min(d.width - 1, at[0] + half);
        int probe = x2 - 1;
        int barColour = d.getPixel(probe, at[1]);
        int top = at[1], bottom = at[1];
        while (top > 0 && d.getPixel(probe, top - 1) == barColour) top--;
        while (bottom < d.height - 1 && d.getPixel(probe, bottom + 1) == barColour) bottom++;
        int textHalf = 9;   // half a text line of the canvas's font, and more
        double bg = luminance(background);
        int ink = 0;
        for (int y = at[1] - textHalf; y <= at[1] + textHalf; y++) {
            if (y >= top && y <= bottom) continue;
            for (int x = x1 + 2; x < x2 - 2; x++) {
                RGB c = d.palette.getRGB(d.getPixel(x, y));
                double l = luminance(c);
                if ((Math.max(l, bg) + 0.05) / (Math.min(l, bg) + 0.05) >= 3) ink++;
            }
        }
        return ink;
    }

    private static double widthOf(TimelineEvent e, TimelineCanvas canvas) {
        return (e.endNs() - e.startNs()) / canvas.nsPerPixel();
    }

    private static double luminance(RGB c) { return Screens.luminance(c); }

    private static IThemeEngine engine() {
        IThemeEngine engine = PlatformUI.getWorkbench().getService(IThemeEngine.class);
        if (engine == null) engine = (IThemeEngine) Display.getCurrent().getData("org.eclipse.e4.ui.css.swt.theme");
        assertNotNull(engine, "the workbench has a theme engine");
        return engine;
    }
}
