package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.ScheduleSweepDialog;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, minor: the Schedule Sweep's plot coloured the slower schedules teal like the highlighted (best) ones.
 * A person runs a small sweep; the pixels read back from the plot on screen show the best bar of each device count
 * in the palette's highlight and every other bar in the palette's plain colour, both declared once in the theme's
 * colour registry, and the two not to be confused (different hues, or one of them grey).
 */
public class SweepColoursJourneyTest extends JourneyTest {
    private static final String BEST = "org.hostir.studio.ui.sweep.best";
    private static final String OTHER = "org.hostir.studio.ui.sweep.other";

    @Test
    public void onlyTheBestScheduleOfEachDeviceCountIsHighlighted() throws Exception {
        var registry = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry();
        RGB best = registry.getRGB(BEST), other = registry.getRGB(OTHER);
        assertNotNull(best, "the theme's palette declares " + BEST);
        assertNotNull(other, "the theme's palette declares " + OTHER);
        assertTrue(distinguishable(best, other), "the highlight " + best + " against the others' " + other);

        ScheduleSweepDialog sweep = Journey.openSweep(page, person, "sweep-colours", "examples/seeds/ag_matmul_p2p.fusion",
                "sweep.fusion");
        Shell dialog = sweep.getShell();
        try {
            person.retype(sweep.devicesField(), "2,8");
            person.retype(sweep.varyField(), "offsetStreamIndexingByRank=false,true backend=nccl,cuda");
            person.retype(sweep.symbolsField(), "M=4096 K=8192 N=8192");
            person.clickCenter(SimulationJourneyTest.button(dialog, "Run Sweep"));
            ViewTestSupport.join(ScheduleSweepDialog.JOB_FAMILY);
            person.settle(500);
            assertEquals(8, sweep.points().size(), sweep.statusText());

            List<Rectangle> bestBars = sweep.plotBars(true), otherBars = sweep.plotBars(false);
            assertTrue(bestBars.size() >= 2, "a best schedule per device count: " + bestBars);
            assertFalse(otherBars.isEmpty(), "slower schedules: " + otherBars);
            ImageData shown = onScreen(sweep.plotCanvas());
            for (Rectangle r : bestBars) assertEquals(best, middle(shown, r), "a best bar at " + r);
            for (Rectangle r : otherBars) assertEquals(other, middle(shown, r), "a slower bar at " + r);
            ViewTestSupport.screenshot(dialog, "sweep-colours.png");
        } finally {
            dialog.close();
        }
    }

    /** Hues 60 degrees apart or more, or one of the two nearly grey: no one takes one for the other. */
    static boolean distinguishable(RGB a, RGB b) {
        float[] x = a.getHSB(), y = b.getHSB();
        float hue = Math.abs(x[0] - y[0]);
        return Math.min(hue, 360 - hue) >= 60 || Math.min(x[1], y[1]) < 0.25f;
    }

    /** The canvas as the screen shows it. */
    private static ImageData onScreen(Canvas canvas) {
        Rectangle area = canvas.getClientArea();
        Image image = new Image(canvas.getDisplay(), area.width, area.height);
        GC gc = new GC(canvas);
        try {
            gc.copyArea(image, 0, 0);
            return image.getImageData();
        } finally {
            gc.dispose();
            image.dispose();
        }
    }

    private static RGB middle(ImageData data, Rectangle r) {
        return data.palette.getRGB(data.getPixel(r.x + r.width / 2, r.y + r.height / 2));
    }
}
