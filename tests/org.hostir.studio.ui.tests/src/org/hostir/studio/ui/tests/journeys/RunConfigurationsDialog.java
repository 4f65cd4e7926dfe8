package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;

/**
 * Run > Run Configurations... (and Debug Configurations...) as a person opens it from the main window, by keys: Alt+R,
 * then the item's mnemonic; and what the journeys do in it first: pick a launch type in its tree, find a button by
 * its label.
 */
final class RunConfigurationsDialog {
    private RunConfigurationsDialog() {}

    /** Run > Run Configurations... (Alt+R, N): {@link #openByKeys(Journey, String, char, ModalSteps.Steps)}. */
    static void openByKeys(Journey journey, ModalSteps.Steps steps) throws Exception {
        openByKeys(journey, "Run Configurations", 'n', steps);
    }

    /**
     * Opens the Run menu's dialog titled {@code title} by Alt+R and {@code mnemonic}, with the menu's launch items
     * shown (as the Host IR perspective has them), runs {@code steps} in it and fails as they did; the main window in
     * front again after.
     */
    static void openByKeys(Journey journey, String title, char mnemonic, ModalSteps.Steps steps) throws Exception {
        Person person = journey.person();
        journey.page().showActionSet(IDebugUIConstants.LAUNCH_ACTION_SET);
        ModalSteps dialog = ModalSteps.whenOpen(title, 90, steps);
        person.lookAt(journey.shell());
        person.press(SWT.ALT, 'r');
        person.settle(500);
        person.press(0, mnemonic);
        dialog.check(person);
        person.lookAt(journey.shell());
    }

    /** Clicks the launch type {@code type} in the dialog's tree once it is listed; the tree, the type selected. */
    static Tree clickType(Person person, Shell d, String type) {
        TreeItem[] item = new TreeItem[1];
        Tree[] tree = new Tree[1];
        assertTrue(Debugging.await(person, 10_000, () -> {
            for (Tree t : ViewTestSupport.descendants(d, Tree.class)) {
                for (TreeItem i : t.getItems()) {
                    if (t.isVisible() && i.getText().equals(type)) {
                        item[0] = i;
                        tree[0] = t;
                    }
                }
            }
            return item[0] != null;
        }), "the dialog lists " + type);
        var r = item[0].getBounds();
        person.click(tree[0], r.x + Math.min(30, r.width / 2), r.y + r.height / 2);
        assertTrue(Debugging.await(person, 10_000, () -> tree[0].getSelectionCount() == 1
                && tree[0].getSelection()[0].getText().equals(type)), "the click selected " + type);
        return tree[0];
    }

    /** The dialog's visible button labelled {@code label} (its mnemonic's "&" aside). */
    static Button button(Shell d, String label) {
        return ViewTestSupport.descendants(d, Button.class).stream().filter(Control::isVisible)
                .filter(b -> b.getText().replace("&", "").equals(label)).findFirst()
                .orElseThrow(() -> new AssertionError("no button " + label + " in " + d.getText()));
    }
}
