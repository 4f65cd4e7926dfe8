package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: the legend's "critical path" swatch, a red outline, read as the p2p swatch's red beside
 * it (hue 0 against 6 degrees), and so did the path's outlines on p2p bars. A person scrolls a run of seed 000 (its
 * P2P sends and receives on the rows) down to the legend and reads the swatches as painted: the path's colour is of
 * another hue than every kind's coloured swatch (the grey host swatch differs by its lack of colour).
 */
public class CriticalPathColourJourneyTest extends JourneyTest {
    /** Hues closer than this read as one colour on a 2 px outline beside a filled swatch. */
    private static final double HUE_APART = 25;

    @Test
    public void theLegendsCriticalPathReadsApartFromEveryKind() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("critical-path-colour", "examples/seeds/ag_matmul_p2p.fusion",
                "path.fusion");
        TimelineView view = journey.runInTimeline("ag_matmul_p2p", 2, file);
        TimelineCanvas canvas = view.canvas();
        person.until(20_000, () -> !canvas.criticalPath().isEmpty());
        assertTrue(canvas.legendEntries().contains(EventKind.P2P.key()), "the run has p2p bars: "
                + canvas.legendEntries());
        var c = canvas.control();
        int line = 2 * c.getFont().getFontData()[0].getHeight();
        for (int i = 0; i < 40 && canvas.legendTop() + line > c.getClientArea().height; i++) {
            person.wheel(c, c.getSize().x / 2, c.getSize().y / 2, -1, 0);
        }
        person.restAway(journey.shell());
        person.settle(200);
        ViewTestSupport.screenshot(journey.shell(), "timeline-critical-path-colour.png");
        ImageData shown = ScreenPixels.of(c, new Rectangle(0, canvas.legendTop(), c.getSize().x, line));
        RGB path = view.palette().criticalPath().getRGB();
        assertTrue(count(shown, path) >= 30, "the legend shows the path's swatch in " + path);
        List<String> close = new ArrayList<>();
        for (EventKind k : EventKind.values()) {
            RGB bar = view.palette().bar(k).getRGB();
            if (!canvas.legendEntries().contains(k.key())) continue;
            assertTrue(count(shown, bar) >= 20, k.key() + "'s swatch is painted in " + bar);
            float[] a = path.getHSB(), b = bar.getHSB();
            double hue = Math.min(Math.abs(a[0] - b[0]), 360 - Math.abs(a[0] - b[0]));
            boolean apart = b[1] < 0.3 ? a[1] - b[1] >= 0.4 : hue >= HUE_APART;
            System.out.printf("critical path %s vs %s %s: hue %.0f, saturation %.2f / %.2f%n", path, k.key(), bar,
                    hue, a[1], b[1]);
            if (!apart) close.add(String.format("%s %s (hue %.0f degrees from the path's %s)", k.key(), bar, hue, path));
        }
        assertTrue(close.isEmpty(), "swatches that read as the critical path's colour: " + close);
    }

    private static int count(ImageData shown, RGB colour) {
        int n = 0;
        for (int y = 0; y < shown.height; y++) {
            for (int x = 0; x < shown.width; x++) if (shown.palette.getRGB(shown.getPixel(x, y)).equals(colour)) n++;
        }
        return n;
    }
}
