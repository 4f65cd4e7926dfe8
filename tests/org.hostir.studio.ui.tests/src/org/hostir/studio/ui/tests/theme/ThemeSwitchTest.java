package org.hostir.studio.ui.tests.theme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.journeys.JourneyTest;
import org.hostir.studio.ui.tests.journeys.Screens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, defect 7: the Lowering view's compare panes after the dark theme and back. Switching themes at run
 * time leaves some dark styling on live widgets (a restart clears it), so this class runs after the others
 * (the UI tests run in alphabetical order, and this package sorts after them but before timeline's DarkThemeTest).
 */
public class ThemeSwitchTest extends JourneyTest {
    private LoweringView view;

    @BeforeEach
    public void open() throws Exception {
        view = journey.show(LoweringView.ID);
    }

    private void waitForLowering() throws Exception { journey.waitForLowering(); }

    /**
     * Issue 18, defect 7: after the dark theme and back to the light one, the compare panes have the light
     * theme's colours (they stayed black), in the widgets and on the screen.
     */
    @Test
    public void comparePanesKeepTheThemesColoursAfterASwitch() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("live", "examples/seeds/ag_matmul_p2p.fusion", "theme.fusion");
        IDE.openEditor(page, file, "org.eclipse.ui.DefaultTextEditor");
        waitForLowering();
        ShownLowering.of(view).selectPass("StreamParallelType");
        Display display = Display.getCurrent();
        IThemeEngine engine = PlatformUI.getWorkbench().getService(IThemeEngine.class);
        if (engine == null) engine = (IThemeEngine) display.getData("org.eclipse.e4.ui.css.swt.theme");
        String light = engine.getActiveTheme().getId();
        StaleCssElements.drop(display);
        engine.setTheme("org.eclipse.e4.ui.css.theme.e4_dark", false);
        person.settle(600);
        RGB darkPane = panes().get(1).getBackground().getRGB();
        engine.setTheme(light, false);
        person.settle(800);
        // issue 35: the panes take the theme's text-pane colours (the tree's, copied before, were white when the
        // view was made under Dark, before the theme's CSS had styled it)
        RGB theme = ThemeColors.get(ThemeColors.TEXT_BACKGROUND, SWT.COLOR_LIST_BACKGROUND).getRGB();
        for (StyledText pane : panes()) {
            RGB bg = pane.getBackground().getRGB();
            assertEquals(theme, bg, "a pane has the theme's text background");
            assertTrue(Screens.luminance(bg) > 0.5, "light again: " + bg + " (dark theme: " + darkPane + ")");
        }
        page.activate(view);
        person.settle(300);
        var shot = ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "lowering-after-theme-switch.png");
        if (shot != null) {
            var diff = ShownLowering.of(view).diffControl();
            var at = Screens.inShot(page.getWorkbenchWindow().getShell(), diff);
            double dark = Screens.darkFraction(shot, at.x, at.y, diff.getSize().x, diff.getSize().y);
            assertTrue(dark < 0.1, "the diff is not black blocks on the screen: " + dark + " dark");
        }
    }

    private List<StyledText> panes() {
        return ViewTestSupport.descendants(ShownLowering.of(view).diffControl(), StyledText.class).stream()
                .filter(t -> t.isVisible() && t.getSize().x > 20 && t.getSize().y > 10)
                .sorted(Comparator.comparingInt(t -> t.toDisplay(0, 0).x)).toList();
    }
}
