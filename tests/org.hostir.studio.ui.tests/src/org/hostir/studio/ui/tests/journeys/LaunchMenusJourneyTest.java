package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.keys.IBindingService;
import org.eclipse.ui.part.ISetSelectionTarget;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: "Debug As offers only Debug Configurations..." and "key bindings for launch shortcuts". A right-click on
 * a .fusion in the Project Explorer: Debug As offers what Run As offers (Host IR Program), and each Host IR Program
 * item shows its key, Alt+Shift+X H and Alt+Shift+D H as the workbench formats them, as Java Application's items
 * show Alt+Shift+X J.
 */
public class LaunchMenusJourneyTest extends JourneyTest {
    private static final String SHORTCUT = "org.hostir.studio.ui.launch.shortcut";

    @Test
    public void debugAsOffersWhatRunAsOffersWithTheirKeys() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("launch-menus", "examples/seeds/ag_matmul_p2p.fusion",
                "menus.fusion");
        IViewPart explorer = page.showView(IPageLayout.ID_PROJECT_EXPLORER);
        ((ISetSelectionTarget) explorer).selectReveal(new StructuredSelection(file));
        person.settle(300);
        Tree tree = ViewTestSupport.descendants(explorer.getViewSite().getShell(), Tree.class).stream()
                .filter(t -> t.isVisible() && t.getSelectionCount() == 1 && t.getSelection()[0].getText()
                        .equals("menus.fusion")).findFirst().orElseThrow();
        TreeItem item = tree.getSelection()[0];
        var b = item.getBounds();
        person.click(tree, b.x + b.width / 2, b.y + b.height / 2, 3, 0);   // the right button
        person.settle(400);
        Menu menu = tree.getMenu();
        assertNotNull(menu, "the explorer has a context menu");
        List<String> run;
        List<String> debug;
        try {
            run = submenu(menu, "Run As");
            debug = submenu(menu, "Debug As");
            ViewTestSupport.screenshot(journey.shell(), "launch-menus-context.png");
        } finally {
            menu.setVisible(false);
            person.press(SWT.ESC);
            // the menu's grab gone and the window in front again, so that the next journey's keys reach it
            person.until(3_000, () -> menu.isDisposed() || !menu.isVisible());
            person.lookAt(journey.shell());
        }
        assertEquals(shortcuts(run), shortcuts(debug), "Debug As offers what Run As offers: " + run + " / " + debug);
        assertKey(run, "run");
        assertKey(debug, "debug");
    }

    /** The Host IR Program item ends with the key of its mode's command, as the workbench formats it. */
    private static void assertKey(List<String> items, String mode) {
        String key = PlatformUI.getWorkbench().getService(IBindingService.class)
                .getBestActiveBindingFormattedFor(SHORTCUT + "." + mode);
        assertNotNull(key, "the " + mode + " shortcut's command has a key");
        assertTrue(key.endsWith("H") && key.contains("Alt") && key.contains("Shift"), "the key: " + key);
        assertTrue(items.stream().anyMatch(t -> t.contains("Host IR Program") && t.endsWith("\t" + key)),
                mode + " menu items show " + key + ": " + items);
    }

    /** The launch shortcuts of a menu's items: numbers, keys and the Configurations... item left out. */
    private static List<String> shortcuts(List<String> items) {
        return items.stream().filter(t -> !t.isBlank() && !t.contains("Configurations..."))
                .map(t -> t.replaceFirst("\t.*", "").replaceFirst("^\\d+ ", "")).toList();
    }

    /** The texts of a submenu's items, filled as opening it fills it. */
    private List<String> submenu(Menu menu, String prefix) {
        MenuItem parent = null;
        for (MenuItem i : menu.getItems()) if (i.getText().replace("&", "").startsWith(prefix)) parent = i;
        assertNotNull(parent, prefix + " is in the context menu");
        Menu sub = parent.getMenu();
        sub.notifyListeners(SWT.Show, new Event());   // what opening the submenu does: fill it
        person.settle(200);
        List<String> out = new ArrayList<>();
        for (MenuItem i : sub.getItems()) out.add(i.getText().replace("&", ""));
        sub.notifyListeners(SWT.Hide, new Event());
        return out;
    }
}
