package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.WorkbenchSmokeTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: with transpose_add.fusion in the editor, Run > Run Configurations..., "Host IR
 * Program" and New launch configuration: the new configuration's Fusion file was empty ("Choose a fusion file") and
 * its name New_configuration. Eclipse's own types (Java Application) start from the selection or the active editor;
 * so does this one now: the editor's fusion, named after it.
 */
public class NewConfigurationJourneyTest extends JourneyTest {
    private static final String TYPE = "Host IR Program";

    @AfterEach
    public void deleteConfigurations() throws Exception {
        for (ILaunchConfiguration c : DebugPlugin.getDefault().getLaunchManager().getLaunchConfigurations()) {
            if (c.getAttribute(LaunchAttributes.FILE, "").startsWith("/new-configuration/")) c.delete();
        }
    }

    @Test
    public void aNewConfigurationStartsFromTheFusionInTheEditor() throws Exception {
        IFile f = ViewTestSupport.copyToWorkspace("new-configuration", "examples/transpose_add.fusion",
                "transpose_add.fusion");
        FusionEditor e = journey.open(f);
        page.activate(e);
        page.showActionSet(IDebugUIConstants.LAUNCH_ACTION_SET);   // the Run menu's launch items
        String[] shown = new String[2];
        ModalSteps dialog = ModalSteps.whenOpen("Run Configurations", 90, d -> {
            person.settle(500);
            Tree[] tree = new Tree[1];
            TreeItem[] type = new TreeItem[1];
            assertTrue(Debugging.await(person, 10_000, () -> {
                for (Tree t : ViewTestSupport.descendants(d, Tree.class)) {
                    if (t.isVisible() && (type[0] = item(t.getItems(), TYPE)) != null) tree[0] = t;
                }
                return tree[0] != null;
            }), "the dialog lists " + TYPE);
            var r = type[0].getBounds();
            person.click(tree[0], r.x + Math.min(30, r.width / 2), r.y + r.height / 2);
            assertTrue(Debugging.await(person, 10_000, () -> tree[0].getSelectionCount() == 1
                    && tree[0].getSelection()[0].getText().equals(TYPE)), "the click selected " + TYPE);
            // the toolbar's first button, New launch configuration
            ToolItem create = newButton(d);
            var b = create.getBounds();
            person.click(create.getParent(), b.x + b.width / 2, b.y + b.height / 2);
            assertTrue(Debugging.await(person, 10_000, () -> fusionField(d) != null), "the new configuration's Main tab");
            Text file = fusionField(d);
            person.settle(300);
            shown[0] = file.getText();
            shown[1] = nameField(d).getText();
            WorkbenchSmokeTest.screenshot(d, "run-configurations-new.png");
            person.clickCenter(button(d, "Apply"));
            person.settle(500);
            person.clickCenter(button(d, "Close"));
        });
        person.lookAt(journey.shell());
        person.press(SWT.ALT, 'r');
        person.settle(500);
        person.press(0, 'n');
        dialog.check(person);
        person.lookAt(journey.shell());

        assertEquals("/new-configuration/transpose_add.fusion", shown[0], "the Fusion file is the editor's");
        assertEquals("transpose_add", shown[1], "the configuration is named after it");
        ILaunchConfiguration saved = Arrays.stream(DebugPlugin.getDefault().getLaunchManager().getLaunchConfigurations())
                .filter(c -> c.getName().equals("transpose_add")).findFirst().orElse(null);
        assertNotNull(saved, "Apply saved the configuration");
        assertEquals("/new-configuration/transpose_add.fusion", saved.getAttribute(LaunchAttributes.FILE, ""));
    }

    /** The Main tab's Fusion file field (its tooltip says so), or null while it does not show. */
    private static Text fusionField(Shell d) {
        return ViewTestSupport.descendants(d, Text.class).stream().filter(Control::isVisible)
                .filter(t -> t.getToolTipText() != null && t.getToolTipText().startsWith("workspace path of a .fusion"))
                .findFirst().orElse(null);
    }

    /** The configuration's Name field: the text after the "Name:" label. */
    private static Text nameField(Shell d) {
        for (Label l : ViewTestSupport.descendants(d, Label.class)) {
            if (!l.isVisible() || !l.getText().replace("&", "").equals("Name:")) continue;
            Control[] row = l.getParent().getChildren();
            int at = Arrays.asList(row).indexOf(l);
            if (at + 1 < row.length && row[at + 1] instanceof Text t) return t;
        }
        throw new AssertionError("no Name field in " + d.getText());
    }

    /** The dialog's New launch configuration button (by its tooltip). */
    private static ToolItem newButton(Shell d) {
        for (ToolBar bar : ViewTestSupport.descendants(d, ToolBar.class)) {
            if (!bar.isVisible()) continue;
            for (ToolItem i : bar.getItems()) {
                String tip = i.getToolTipText();
                if (tip != null && tip.startsWith("New") && !tip.toLowerCase().contains("prototype")) return i;
            }
        }
        throw new AssertionError("no New launch configuration button in " + d.getText());
    }

    private static Button button(Shell d, String label) {
        return ViewTestSupport.descendants(d, Button.class).stream().filter(Control::isVisible)
                .filter(b -> b.getText().replace("&", "").equals(label)).findFirst()
                .orElseThrow(() -> new AssertionError("no button " + label + " in " + d.getText()));
    }

    private static TreeItem item(TreeItem[] items, String text) {
        for (TreeItem i : items) if (i.getText().equals(text)) return i;
        return null;
    }
}
