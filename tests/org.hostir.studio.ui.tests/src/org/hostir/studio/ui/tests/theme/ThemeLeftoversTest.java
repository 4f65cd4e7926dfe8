package org.hostir.studio.ui.tests.theme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Table;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.journeys.JourneyTest;
import org.hostir.studio.ui.tests.journeys.Screens;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: Preferences > General > Appearance > Theme: Dark, Apply and Close, Don't restart; then
 * Light the same way. The dark theme's backgrounds stayed on the graph palette's buttons
 * (dark, with the Connect toggle's text white on light grey), on the nvFuser Dump view's program list and on the
 * Lowering view's pass list: light again now, in the widgets and on the screen. What stays dark depends on what
 * was in front at each switch (a widget shown for the first time under Dark, or hidden at the switch back), so the
 * test brings the views and pages to the front in the order the person did (the editor's pages by clicks).
 */
public class ThemeLeftoversTest extends JourneyTest {
    @Test
    public void theDarkThemesBackgroundsGoWithIt() throws Exception {
        Display display = Display.getCurrent();
        IThemeEngine engine = ThemeFrame.engine();
        String light = engine.getActiveTheme().getId();
        FusionEditor e = journey.openSeed("leftovers", "ag_matmul_p2p", "leftovers.fusion");
        LoweringView lowering = journey.show(LoweringView.ID);
        journey.waitForLowering();
        journey.show(DumpView.ID);
        person.settle(300);
        try {
            // the person's order: Dark with the Graph page and the Dump view in front; under Dark the Lowering tab
            // and the Source page clicked; Light with those in front; then the Graph and Dump tabs clicked
            StaleCssElements.drop(display);
            chooseTheme("Dark");
            front(LoweringView.ID);
            ShownGraph.showPage(e, 1);
            person.settle(400);
            StaleCssElements.drop(display);
            chooseTheme("Light");

            ShownGraph.showPage(e, 0);
            person.settle(400);
            List<String> dark = new ArrayList<>();
            for (Button b : ViewTestSupport.descendants(ShownGraph.button(e, "Connect").getParent(), Button.class)) {
                check(b, "palette button '" + b.getText() + "'", dark);
            }
            File shot = ViewTestSupport.screenshot(journey.shell(), "palette-after-theme-switch.png");
            Control palette = ShownGraph.button(e, "Connect").getParent();
            if (shot != null) onScreen(shot, palette, "the palette", dark);

            front(DumpView.ID);
            org.eclipse.swt.widgets.List list = ViewTestSupport.descendants(journey.shell(),
                    org.eclipse.swt.widgets.List.class).stream().filter(Control::isVisible).findFirst().orElseThrow();
            check(list, "the Dump view's program list", dark);
            shot = ViewTestSupport.screenshot(journey.shell(), "dump-view-after-theme-switch.png");
            if (shot != null) onScreen(shot, list, "the Dump view's program list", dark);

            front(LoweringView.ID);
            Table passes = ViewTestSupport.descendants(ShownLowering.top(lowering), Table.class).stream()
                    .filter(Control::isVisible).findFirst().orElseThrow();
            check(passes, "the Lowering view's pass list", dark);
            shot = ViewTestSupport.screenshot(journey.shell(), "lowering-after-theme-switch-back.png");
            if (shot != null) onScreen(shot, passes, "the Lowering view's pass list", dark);
            assertEquals(List.of(), dark, "what the dark theme left behind");
        } finally {
            if (!engine.getActiveTheme().getId().equals(light)) engine.setTheme(light, true);
            journey.hide(DumpView.ID);
            person.settle(300);
        }
    }

    private void chooseTheme(String name) { AppearancePage.chooseTheme(person, journey.shell(), name); }

    /** A control light under the light theme, its text readable on it (WCAG 3:1); else a line in {@code dark}. */
    private static void check(Control c, String what, List<String> dark) {
        var bg = c.getBackground().getRGB();
        var fg = c.getForeground().getRGB();
        if (ThemeColors.luminance(bg) < 0.5) dark.add(what + ": background " + bg);
        else if (ThemeColors.contrast(fg, bg) < 3) dark.add(what + ": text " + fg + " on " + bg);
    }

    /** The control's area on the screen is not dark blocks (a tenth of near-black pixels at most). */
    private void onScreen(File shot, Control c, String what, List<String> dark) {
        Point at = Screens.inShot(journey.shell(), c);
        double share = Screens.darkFraction(shot, at.x, at.y, c.getSize().x, c.getSize().y);
        if (share > 0.1) dark.add(what + " on the screen: " + Math.round(share * 100) + " % near-black");
    }

    /**
     * Brings view {@code id} to the front of its stack, as a click on its tab does (a click posted on a view tab
     * right after the theme switch was taken for the start of a drag of the tab, which then waited for a release).
     */
    private void front(String id) {
        page.bringToTop(page.findView(id));
        person.settle(400);
    }
}
