package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.studio.HostIrPerspective;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, round 18's hand drive: File > New and the Project Explorer's New listed the Fusion wizard in different
 * places (File > New after the resource wizards, the explorer's at the end of its own group). As in Eclipse's Java
 * perspective, where Java Project and Class lead both menus, the perspective's own wizard comes first in both, right
 * after Project..., and the two menus list their shortcuts in one order. Both menus are opened by a person: Alt+F
 * then N, and a right-click on the project, Down and Right.
 */
public class NewMenusJourneyTest extends JourneyTest {
    private static final String SEED = "examples/seeds/ag_matmul_p2p.fusion";

    @Test
    public void fileNewAndTheExplorersNewListFusionFirstInOneOrder() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("new-menus", SEED, "new-menus.fusion");
        var was = page.getPerspective();
        // the Studio's perspective as it starts (its factory's shortcuts): the one whose wizard leads
        page.setPerspective(PlatformUI.getWorkbench().getPerspectiveRegistry().findPerspectiveWithId(HostIrPerspective.ID));
        page.resetPerspective();
        try {
            inTheStudiosPerspective(file);
        } finally {
            page.setPerspective(was);
        }
    }

    private void inTheStudiosPerspective(IFile file) throws Exception {
        Tree tree = journey.explorerSelecting(file.getProject(), "new-menus");

        person.lookAt(journey.shell()).press(SWT.ALT, 'f');
        person.settle(400);
        person.press(0, 'n');   // &New
        person.settle(500);
        List<String> fileNew = shownSubmenu(journey.shell().getMenuBar(), "File", "New");
        ViewTestSupport.screenshot(journey.shell(), "new-menus-file.png");
        closeMenus();

        TreeItem project = tree.getSelection()[0];
        tree.showItem(project);   // earlier journeys' projects above it can push it below the explorer's edge
        person.settle(200);
        var b = project.getBounds();
        person.click(tree, b.x + b.width / 2, b.y + b.height / 2, 3, 0);
        person.settle(500);
        Menu context = tree.getMenu();
        assertNotNull(context, "the explorer has a context menu");
        // New, the menu's first item, and its submenu opened by keys (its mnemonic W is Show In's too)
        person.press(SWT.ARROW_DOWN);
        person.settle(200);
        person.press(SWT.ARROW_RIGHT);
        person.settle(500);
        List<String> explorerNew = shownSubmenu(context, null, "New");
        ViewTestSupport.screenshot(journey.shell(), "new-menus-explorer.png");
        closeMenus();

        System.out.println("File > New: " + fileNew + "\nProject Explorer > New: " + explorerNew);
        assertEquals("Fusion", firstWizard(fileNew), "File > New's first wizard after Project...: " + fileNew);
        assertEquals("Fusion", firstWizard(explorerNew), "Project Explorer > New's first after Project...: "
                + explorerNew);
        List<String> common = new ArrayList<>(fileNew);
        common.retainAll(explorerNew);
        List<String> inExplorer = new ArrayList<>(explorerNew);
        inExplorer.retainAll(fileNew);
        assertTrue(common.size() >= 3, "both menus list Fusion, Folder and File: " + common);
        assertEquals(common, inExplorer, "the entries both menus list, in one order");
    }

    /** The entry after "Project..." (separators left out), the place of the perspective's first shortcut. */
    static String firstWizard(List<String> items) {
        int project = items.indexOf("Project...");
        assertTrue(project >= 0 && project + 1 < items.size(), "New lists Project... and more: " + items);
        return items.get(project + 1);
    }

    /** The texts of a shown submenu (separators, '&' and accelerators left out); {@code menu} null: {@code in} itself. */
    static List<String> shownSubmenu(Menu in, String menu, String item) {
        Menu where = in;
        if (menu != null) {
            where = null;
            for (MenuItem m : in.getItems()) if (plain(m.getText()).equals(menu)) where = m.getMenu();
        }
        assertNotNull(where, menu + " in the menu bar");
        for (MenuItem m : where.getItems()) {
            if (!plain(m.getText()).equals(item)) continue;
            Menu sub = m.getMenu();
            assertNotNull(sub, item + " has a submenu");
            List<String> out = new ArrayList<>();
            for (MenuItem i : sub.getItems()) if ((i.getStyle() & SWT.SEPARATOR) == 0) out.add(plain(i.getText()));
            return out;
        }
        throw new AssertionError(item + " not in " + menu);
    }

    private static String plain(String text) { return text.replace("&", "").replaceFirst("\t.*", ""); }

    private void closeMenus() {
        person.press(SWT.ESC).press(SWT.ESC).press(SWT.ESC);
        person.settle(300);
    }
}
