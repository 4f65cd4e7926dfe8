package org.hostir.studio.ui.tests.theme;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IPageLayout;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.journeys.JourneyTest;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, round 16, driven by hand: with a fusion's Graph page in front, a switch of theme without a restart left
 * the Outline's overview blank white for seconds (behind the restart question too), while the graph showed the new
 * theme. The switch changes the graph's extent, and Draw2d's thumbnail showed a new blank image of the new size
 * until its tiles, one per queued runnable, were all drawn. The person switches Light -> Dark and back through
 * Preferences > Appearance while the overview is read from the screen every 100 ms: never blank, and right after
 * the dialog closes on the new theme's background.
 */
public class OverviewAfterSwitchTest extends JourneyTest {
    /** The most luminance of the overview's commonest colour under Dark (the graph's dark background). */
    private static final double DARK = 0.1;
    /** The least luminance of its commonest colour under Light (the graph's white background). */
    private static final double LIGHT = 0.5;

    @Test
    public void theOverviewShowsTheGraphInTheNewThemeRightAfterTheSwitch() throws Exception {
        IThemeEngine engine = ThemeFrame.engine();
        String start = engine.getActiveTheme().getId();
        journey.show(IPageLayout.ID_OUTLINE);
        var was = journey.shell().getSize();
        journey.shell().setSize(1280, 800);   // as driven by hand
        try {
            if (start.contains("dark")) AppearancePage.chooseTheme(person, journey.shell(), "Light");
            FusionEditor e = journey.openSeed("overview-switch", "ag_matmul_p2p", "switch.fusion");
            page.activate(e);
            person.settle(800);   // the overview drawn in Light
            Control overview = ShownGraph.outline(e);
            assertNotNull(overview, "the Outline shows the graph's overview");
            int[] size = ShownGraph.outlinePage(e).thumbnailSize();
            List<String> problems = new ArrayList<>(), seen = new ArrayList<>();
            for (String theme : List.of("Dark", "Light")) {
                List<Sample> samples = new ArrayList<>();
                Runnable stop = sample(overview, size, samples);
                AppearancePage.chooseTheme(person, journey.shell(), theme);   // its last 1.2 s sampled as well
                stop.run();
                samples.forEach(x -> seen.add(theme + " " + x));
                check(theme, samples, problems);
                ViewTestSupport.screenshot(journey.shell(), "overview-after-switch-to-" + theme + ".png");
            }
            System.out.println("OverviewAfterSwitchTest:\n  " + String.join("\n  ", seen));
            assertTrue(problems.isEmpty(), String.join("\n", problems) + "\nseen:\n" + String.join("\n", seen));
        } finally {
            ThemeFrame.restore(engine, start);
            journey.shell().setSize(was);
            person.settle(300);
        }
    }

    /** The overview on the screen at a moment of a switch: ms from its start, whether Preferences was open. */
    record Sample(long at, boolean preferences, Look look) {
        @Override
        public String toString() { return "+" + at + " ms" + (preferences ? " (Preferences open): " : ": ") + look; }
    }

    /** Reads the overview from the screen every 100 ms from now until the returned stop is run. */
    private static Runnable sample(Control overview, int[] size, List<Sample> into) {
        var display = overview.getDisplay();
        long t0 = System.currentTimeMillis();
        boolean[] on = { true };
        Runnable[] next = new Runnable[1];
        next[0] = () -> {
            if (!on[0] || overview.isDisposed()) return;
            boolean prefs = Arrays.stream(display.getShells())
                    .anyMatch(sh -> sh.isVisible() && sh.getText().startsWith("Preferences"));
            into.add(new Sample(System.currentTimeMillis() - t0, prefs, Look.of(overview, size)));
            display.timerExec(100, next[0]);
        };
        display.timerExec(100, next[0]);
        return () -> on[0] = false;
    }

    /**
     * Never blank (Draw2d's new white image has one colour on the screen, the graph drawn hundreds), and the first
     * reading after the Preferences dialog closed (within 500 ms) on the new theme's background.
     */
    private static void check(String theme, List<Sample> samples, List<String> problems) {
        for (Sample x : samples) {
            if (x.look().colours() <= 2) problems.add(theme + ": the overview blank at " + x);
        }
        long lastOpen = samples.stream().filter(Sample::preferences).mapToLong(Sample::at).max().orElse(-1);
        Sample closed = samples.stream().filter(x -> lastOpen >= 0 && x.at() > lastOpen).findFirst().orElse(null);
        if (closed == null || closed.at() - lastOpen > 500) {
            problems.add(theme + ": no reading within 500 ms after the dialog closed");
            return;
        }
        double l = ThemeColors.luminance(closed.look().common());
        if (theme.equals("Dark") ? l >= DARK : l <= LIGHT) {
            problems.add(theme + ": right after the dialog closed the overview's background is not " + theme + "'s: "
                    + closed);
        }
    }

    /** What the screen shows of the overview's thumbnail ({@code size} at its top left): its colours, the commonest. */
    record Look(int colours, RGB common, double share) {
        static Look of(Control c, int[] size) {
            ImageData d = ScreenPixels.of(c, new Rectangle(0, 0, size[0], size[1]));
            Map<RGB, Integer> counts = new HashMap<>();
            for (int y = 0; y < d.height; y++) {
                for (int x = 0; x < d.width; x++) counts.merge(d.palette.getRGB(d.getPixel(x, y)), 1, Integer::sum);
            }
            var top = counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
            return new Look(counts.size(), top.getKey(), top.getValue() / (double) (d.width * d.height));
        }

        @Override
        public String toString() {
            return colours + " colours, commonest " + common + String.format(" (%.0f%%)", share * 100);
        }
    }
}
