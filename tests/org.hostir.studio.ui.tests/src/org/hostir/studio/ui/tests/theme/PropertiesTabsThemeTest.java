package org.hostir.studio.ui.tests.theme;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import org.eclipse.core.resources.IFile;
import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.part.ISetSelectionTarget;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.studio.Legibility;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.journeys.JourneyTest;
import org.hostir.studio.ui.tests.journeys.Screens;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, round 16, driven by hand in both themes: a file clicked in the Project Explorer shows Eclipse's tabbed
 * property sheet in the Properties view; after Preferences > Appearance > Dark without a restart its "Resource" tab
 * kept Light's text colour, #505050 on #2b2c2d (1.7 to 1). Here a person clicks the file, switches to the other
 * theme the same way, and the tab list, measured on the screen, must follow the theme and read. The sheet's title
 * (the file's name) must read before and after the switch: in the Dark start (dark-start tests) that is Dark as
 * started, in the Light start Dark after the switch.
 */
public class PropertiesTabsThemeTest extends JourneyTest {
    @Test
    public void theResourceTabReadsAfterASwitch() throws Exception {
        IThemeEngine engine = ThemeFrame.engine();
        String start = engine.getActiveTheme().getId();
        boolean toDark = !start.contains("dark");
        IFile file = ViewTestSupport.copyToWorkspace("proptabs", "examples/seeds/ag_matmul_p2p.fusion", "tabs.fusion");
        try {
            page.showView(IPageLayout.ID_PROP_SHEET, null, IWorkbenchPage.VIEW_VISIBLE);
            IViewPart explorer = page.showView(IPageLayout.ID_PROJECT_EXPLORER);
            // revealed (its folder opened), then clicked by the person as they would
            ((ISetSelectionTarget) explorer).selectReveal(new StructuredSelection(file));
            person.settle(300);
            Tree tree = ViewTestSupport.descendants(explorer.getViewSite().getShell(), Tree.class).stream()
                    .filter(t -> t.isVisible() && t.getSelectionCount() == 1
                            && t.getSelection()[0].getText().equals("tabs.fusion"))
                    .findFirst().orElseThrow(() -> new AssertionError("tabs.fusion is not in the Project Explorer"));
            TreeItem item = tree.getSelection()[0];
            Rectangle at = item.getBounds();
            person.click(tree, at.x + 10, at.y + at.height / 2);   // the person's click selects the file
            Control[] list = new Control[1];
            person.until(5_000, () -> (list[0] = tabList()) != null);
            assertNotNull(list[0], "the Properties view shows no tab list for the file clicked");
            person.settle(300);
            titleReads(toDark ? "light" : "dark", "properties-title-before-switch.png");
            AppearancePage.chooseTheme(person, journey.shell(), toDark ? "Dark" : "Light");
            person.moveTo(journey.shell(), 2, journey.shell().getSize().y - 2);
            person.settle(500);
            File shot = ViewTestSupport.screenshot(journey.shell(), "properties-tabs-after-switch.png");
            assertNotNull(shot, "no screenshot (-Dhirstudio.screenshots unset): the tabs are not measured");
            Point p = Screens.inShot(journey.shell(), list[0]);
            Legibility l = Legibility.of(shot, new Rectangle(p.x, p.y, list[0].getSize().x, list[0].getSize().y));
            System.out.println("properties tabs after the switch to " + (toDark ? "Dark" : "Light") + ": " + l);
            assertTrue(l.dark() == toDark && l.inkCells() > 0 && l.unreadable() <= 0.3,
                    "the Properties view's tabs after the switch (properties-tabs-after-switch.png): " + l);
            titleReads(toDark ? "dark" : "light", "properties-title-after-switch.png");
        } finally {
            ThemeFrame.restore(engine, start);
            person.settle(300);
        }
    }

    /**
     * The sheet's title (the file's name in bold above the tabs) reads on its gradient, on the screen and by its
     * colours: under Dark it read #aaaaaa on #505f70, 2.9 to 1, at a Dark start and after Light -> Dark (round 16).
     */
    private void titleReads(String theme, String name) {
        CLabel title = ViewTestSupport.descendants(journey.shell(), CLabel.class).stream()
                .filter(c -> c.isVisible() && c.getParent().getClass().getSimpleName().equals("TabbedPropertyTitle"))
                .filter(c -> c.getText().contains("tabs.fusion")).findFirst()
                .orElseThrow(() -> new AssertionError("the Properties view shows no title for tabs.fusion"));
        File shot = ViewTestSupport.screenshot(journey.shell(), name);
        assertNotNull(shot, "no screenshot (-Dhirstudio.screenshots unset): the title is not measured");
        Point p = Screens.inShot(journey.shell(), title);
        Legibility l = Legibility.of(shot, new Rectangle(p.x, p.y, title.getSize().x, title.getSize().y));
        double ratio = ThemeColors.contrast(title.getForeground().getRGB(), l.background());
        System.out.printf("properties title under %s: %s, text %s, %.2f to 1%n", theme, l, title.getForeground().getRGB(),
                ratio);
        assertTrue(l.dark() == theme.equals("dark") && l.inkCells() > 0 && l.unreadable() <= 0.3 && ratio >= 4.5,
                String.format("the Properties view's title under %s (%s): %s, text %s, %.2f to 1", theme, name, l,
                        title.getForeground().getRGB(), ratio));
    }

    /** The tabbed property sheet's tab list, shown in the Properties view. */
    private Control tabList() {
        var ref = page.findViewReference(IPageLayout.ID_PROP_SHEET);
        if (ref == null || ref.getPart(false) == null) return null;
        Composite shell = journey.shell();
        return ViewTestSupport.descendants(shell, Control.class).stream()
                .filter(c -> c.getClass().getSimpleName().equals("TabbedPropertyList") && c.isVisible())
                .filter(c -> c.getSize().x > 20 && c.getSize().y > 14).findFirst().orElse(null);
    }
}
