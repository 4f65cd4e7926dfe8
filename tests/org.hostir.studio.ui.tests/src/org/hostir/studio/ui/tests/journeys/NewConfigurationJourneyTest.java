package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
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
        String[] shown = new String[2];
        RunConfigurationsDialog.openByKeys(journey, d -> {
            person.settle(500);
            RunConfigurationsDialog.clickType(person, d, TYPE);
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
            person.clickCenter(RunConfigurationsDialog.button(d, "Apply"));
            person.settle(500);
            person.clickCenter(RunConfigurationsDialog.button(d, "Close"));
        });

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
}
