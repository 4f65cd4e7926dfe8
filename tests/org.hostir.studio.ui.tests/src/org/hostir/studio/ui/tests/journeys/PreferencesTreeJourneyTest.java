package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jface.preference.PreferenceDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.widgets.Listener;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.commands.ICommandService;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand at 1280 x 800: Window > Preferences showed General > Appearance > "Colors and For", the
 * page tree 180 px wide whatever its names. A person opens the dialog by keys (Alt+W, then the item's mnemonic) and
 * reads the tree with every page expanded: each name ends within the tree's visible width.
 */
public class PreferencesTreeJourneyTest extends JourneyTest {
    @Test
    @Disabled("issue 35, open: the tree is 166 px at 1280 x 800 and nine page names are cut (Large File "
            + "Associations ends at 209 px). Round 19's Show filter (commit 547b4eec) made this pass (701 x 554, tree "
            + "233 px) but resized the shell after PreferenceDialog recorded its size, so the dialog no longer grew "
            + "for a taller page (ShellJourneyTest.theHostIrPageFitsThePreferencesDialogAt1280x800 failed); reverted")
    public void windowPreferencesShowsEveryPageNameWholeAt1280x800() throws Exception {
        journey = Journey.start(1280, 800);
        person = journey.person();
        List<String> cut = new ArrayList<>();
        List<String> read = new ArrayList<>();
        ModalSteps steps = ModalSteps.whenOpen("Preferences", 30, dialog -> {
            person.settle(400);
            PreferenceDialog preferences = (PreferenceDialog) dialog.getData();
            Tree tree = preferences.getTreeViewer().getTree();
            preferences.getTreeViewer().expandAll();   // as a person opens each page's triangle
            person.settle(300);
            GC gc = new GC(tree);
            try {
                int visible = tree.getClientArea().width;
                for (TreeItem item : rows(tree.getItems())) {
                    int end = item.getBounds().x + gc.textExtent(item.getText()).x;
                    read.add(item.getText());
                    if (end > visible) cut.add(item.getText() + " (ends at " + end + " of " + visible + " px)");
                }
            } finally {
                gc.dispose();
            }
            person.settle(200);
            ViewTestSupport.screenshot(dialog, "preferences-tree-1280x800.png");
            System.out.println("Preferences at " + dialog.getSize() + ", tree " + tree.getSize() + ": " + read);
            person.press(SWT.ESC);
        });
        var command = PlatformUI.getWorkbench().getService(ICommandService.class)
                .getCommand("org.eclipse.ui.window.preferences");
        System.out.println("Window > Preferences's handler: " + command.getHandler());
        Menu window = windowMenu(journey.shell());
        person.lookAt(journey.shell()).press(SWT.ALT, 'w');
        person.until(2000, window::isVisible);
        person.settle(300);
        List<String> items = new ArrayList<>();
        for (MenuItem i : window.getItems()) items.add(i.getText());
        System.out.println("Window menu (shown: " + window.isVisible() + "): " + items);
        try {
            pressPreferences(window, items);
        } catch (AssertionError | RuntimeException failed) {
            person.press(SWT.ESC).press(SWT.ESC);   // no menu left open for the next journey
            throw failed;
        }
        steps.check(person);
        assertTrue(read.contains("Colors and Fonts"), "the tree lists General > Appearance > Colors and Fonts: " + read);
        assertEquals(List.of(), cut, "page names cut at the tree's right edge");
    }

    private static Menu windowMenu(Shell shell) {
        for (MenuItem m : shell.getMenuBar().getItems()) if (m.getText().replace("&", "").equals("Window")) return m.getMenu();
        throw new AssertionError("no Window menu in the menu bar");
    }

    /**
     * Chooses Preferences in the shown Window menu by its mnemonic, or where it has none by Down until GTK arms it
     * and Return, as a person who reads the menu does.
     */
    private void pressPreferences(Menu window, List<String> items) {
        String text = items.stream().map(t -> t.replaceFirst("\t.*", ""))
                .filter(t -> t.replace("&", "").replace("...", "").equals("Preferences")).findFirst()
                .orElseThrow(() -> new AssertionError("no Preferences in the Window menu: " + items));
        int at = text.indexOf('&');
        if (at >= 0 && at + 1 < text.length()) {
            person.press(0, Character.toLowerCase(text.charAt(at + 1)));
            return;
        }
        List<String> armed = new ArrayList<>();
        Listener arm = e -> { if (e.widget instanceof MenuItem i) armed.add(i.getText().replace("&", "")); };
        window.getDisplay().addFilter(SWT.Arm, arm);
        try {
            for (int i = 0; i <= items.size(); i++) {
                person.press(SWT.ARROW_DOWN);
                person.settle(100);
                if (!armed.isEmpty() && armed.getLast().startsWith("Preferences")) {
                    person.press(SWT.CR);
                    return;
                }
            }
        } finally {
            window.getDisplay().removeFilter(SWT.Arm, arm);
        }
        throw new AssertionError("Down never reached Preferences; armed: " + armed);
    }

    /** Every row below and including {@code items}, depth first. */
    private static List<TreeItem> rows(TreeItem[] items) {
        List<TreeItem> out = new ArrayList<>();
        for (TreeItem i : items) {
            out.add(i);
            out.addAll(rows(i.getItems()));
        }
        return out;
    }
}
