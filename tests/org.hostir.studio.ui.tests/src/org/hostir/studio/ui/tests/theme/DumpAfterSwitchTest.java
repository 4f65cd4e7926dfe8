package org.hostir.studio.ui.tests.theme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;

import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.RGB;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.journeys.DumpViewButtons;
import org.hostir.studio.ui.tests.journeys.JourneyTest;
import org.hostir.studio.ui.tests.journeys.Screens;
import org.hostir.studio.ui.tests.passes.DumpViewTest;
import org.junit.jupiter.api.Test;

/**
 * Round 15, driven by hand: after Dark -> Light without a restart, an nvFuser Dump view opened then took the dark
 * theme's editor selection colour (its compare panes' selected text on dark navy under Light); a view already open
 * at the switch was repaired ({@link ThemeBothWaysTest}). The person switches to Dark and back to Light through
 * Preferences > Appearance (the text editors' selection preference left as a Dark session leaves it, where this
 * workbench's switch reset it), opens the view, pastes a log and selects a pane's text with Ctrl+A: the
 * selection is Light's, as set on the pane and as shown.
 */
public class DumpAfterSwitchTest extends JourneyTest {
    /** The least luminance of a selection's fill under Light (Light's #3584e4 0.23; the dark navy #214283 0.06). */
    private static final double LIGHT_SELECTION = 0.15;

    @Test
    public void aDumpViewOpenedAfterDarkToLightSelectsInLightsColour() throws Exception {
        IThemeEngine engine = ThemeFrame.engine();
        String start = engine.getActiveTheme().getId();
        journey.hide(DumpView.ID);
        try {
            if (!start.contains("dark")) AppearancePage.chooseTheme(person, journey.shell(), "Dark");
            AppearancePage.chooseTheme(person, journey.shell(), "Light");
            person.settle(600);
            leftDark = leaveDarkSelection();
            DumpView view = journey.show(DumpView.ID);
            person.settle(400);
            DumpViewButtons.paste(journey, person, DumpViewTest.log(DumpViewTest.seed000Dumps()));
            assertNotNull(view.snapshots(), view.messageText());
            int i = view.selected();
            List<StyledText> panes = ViewTestSupport.descendants(journey.shell(), StyledText.class).stream()
                    .filter(t -> t.isVisible() && t.getSize().x > 60 && t.getSize().y > 30)
                    .filter(t -> t.getText().equals(view.snapshots().text(i))).toList();
            assertEquals(1, panes.size(), "the pane of the selected program");
            StyledText pane = panes.getFirst();
            person.click(pane, 30, pane.getLineHeight() / 2);
            person.press(SWT.CTRL, 'a');
            person.settle(300);
            assertTrue(pane.getSelectionCount() > 0, "Ctrl+A selected the pane's text");
            File shot = ViewTestSupport.screenshot(journey.shell(), "dump-after-dark-to-light.png");
            RGB selection = pane.getSelectionBackground().getRGB();
            int shown = shot == null ? -1 : pixels(shot, pane, selection);
            System.out.println("DumpAfterSwitchTest: selection " + selection + " on " + shown + " pixels; background "
                    + pane.getBackground().getRGB());
            assertTrue(ThemeColors.luminance(pane.getBackground().getRGB()) > 0.5, "the pane is light under Light");
            assertTrue(ThemeColors.luminance(selection) >= LIGHT_SELECTION, "the pane's selection " + selection
                    + " is Light's, not the dark theme's");
            assertTrue(shot == null || shown > 200, "the selection shows in its colour: " + shown + " pixels");
        } finally {
            // taken back under Light, where they were unset: removed after the restore to Dark they took the dark
            // theme's own values with them, and the Dump view's panes then selected in PreferenceConverter's
            // default black (the Dark start's ThemeBothWaysTest after this test, round 16)
            if (leftDark) {
                EDITORS.remove(SELECTION);
                EDITORS.remove(SELECTION_DEFAULT);
            }
            ThemeFrame.restore(engine, start);
            journey.hide(DumpView.ID);
            HostIrPreferences.setDumpPasted(null);
            person.settle(300);
        }
    }

    private static final org.eclipse.core.runtime.preferences.IEclipsePreferences EDITORS =
            org.eclipse.core.runtime.preferences.InstanceScope.INSTANCE.getNode("org.eclipse.ui.editors");
    private static final String SELECTION = "AbstractTextEditor.Color.SelectionBackground",
            SELECTION_DEFAULT = SELECTION + ".SystemDefault";
    private boolean leftDark;

    /**
     * The text editors' selection colour as a Dark session leaves it in the workspace's preferences (the dark
     * theme's #214283, not the system's), where the switch to Light did not leave it so: the Studio driven by hand
     * had it after Dark -> Light (round 15), this test workbench's theme engine may reset it. Whether it was set
     * here is returned and printed, so that the run says which state the view was opened in.
     */
    private static boolean leaveDarkSelection() {
        String was = EDITORS.get(SELECTION, null), byDefault = EDITORS.get(SELECTION_DEFAULT, null);
        boolean dark = was != null && "false".equals(byDefault);
        System.out.println("DumpAfterSwitchTest: after the switch the editors' selection preference is " + was
                + " (system default " + byDefault + ")" + (dark ? "" : "; set to the dark theme's 33,66,131"));
        if (dark) return false;
        EDITORS.put(SELECTION, "33,66,131");
        EDITORS.put(SELECTION_DEFAULT, "false");
        return true;
    }

    /** How many of the pane's pixels on the picture are {@code colour}. */
    private int pixels(File shot, StyledText pane, RGB colour) {
        ImageData image = new ImageLoader().load(shot.getPath())[0];
        Point at = Screens.inShot(journey.shell(), pane);
        int n = 0;
        for (int y = Math.max(0, at.y); y < Math.min(image.height, at.y + pane.getSize().y); y++) {
            for (int x = Math.max(0, at.x); x < Math.min(image.width, at.x + pane.getSize().x); x++) {
                if (image.palette.getRGB(image.getPixel(x, y)).equals(colour)) n++;
            }
        }
        return n;
    }
}
