package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jface.dialogs.IDialogSettings;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.custom.ViewForm;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.ui.launch.LaunchDialogSize;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.WorkbenchSmokeTest;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand at 1280 x 800: Run > Run Configurations... opened at the debug UI's 800 x 640, and the
 * welcome on the right ("Configure launch settings from this dialog:" and a line per toolbar button, labels that cut
 * their text with "...") lost the end of its longer lines. The text is Eclipse's; the Studio gives the dialog a first
 * size where it fits (LaunchDialogSize). As on a fresh workspace: no size stored, the Studio's start stores its own,
 * the person opens the dialog by the menu and clicks the Host IR Program type, which shows the welcome.
 */
public class RunConfigurationsWelcomeJourneyTest extends JourneyTest {
    @Test
    public void theWelcomeIsNotCutAtTheDialogsFirstSize() throws Exception {
        IDialogSettings stored = LaunchDialogSize.section();
        for (String key : List.of("DIALOG_WIDTH", "DIALOG_HEIGHT", "DIALOG_FONT_NAME")) stored.put(key, (String) null);
        LaunchDialogSize.seed(Display.getCurrent());   // what the Studio's start does when no size is stored
        List<String> cut = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        RunConfigurationsDialog.openByKeys(journey, d -> {
            person.settle(500);
            RunConfigurationsDialog.clickType(person, d, "Host IR Program");
            assertTrue(Debugging.await(person, 10_000, () -> !welcome(d).isEmpty()), "the welcome shows");
            person.settle(300);
            WorkbenchSmokeTest.screenshot(d, "run-configurations-welcome.png");
            ViewForm right = ancestor(welcome(d).get(0), ViewForm.class);
            int edge = right.toDisplay(right.getClientArea().width, 0).x;
            for (Control c : welcome(d)) {
                String text = c instanceof CLabel l ? l.getText() : ((Label) c).getText();
                int wanted = c.computeSize(SWT.DEFAULT, SWT.DEFAULT, true).x;
                seen.add(text);
                // a CLabel narrower than its text draws it cut with "..."; one wider than the pane is clipped
                if (c.getSize().x < wanted || c.toDisplay(wanted, 0).x > edge) {
                    cut.add(text + " (" + c.getSize().x + " of " + wanted + " px, pane ends "
                            + (edge - c.toDisplay(0, 0).x) + " px on)");
                }
            }
            person.clickCenter(RunConfigurationsDialog.button(d, "Close"));
        });
        assertTrue(seen.stream().anyMatch(t -> t.startsWith("Configure launch settings from this dialog")),
                "the welcome's lines: " + seen);
        assertFalse(seen.size() < 5, "the welcome's lines: " + seen);
        assertTrue(cut.isEmpty(), "lines cut at the dialog's first size: " + cut);
    }

    /** The welcome's lines that show: the labels of the pane that starts "Configure launch settings". */
    private static List<Control> welcome(Shell d) {
        for (Label first : ViewTestSupport.descendants(d, Label.class)) {
            if (!first.isVisible() || !first.getText().startsWith("Configure launch settings")) continue;
            Composite pane = first.getParent();
            List<Control> lines = new ArrayList<>();
            for (Control c : pane.getChildren()) {
                if (c.isVisible() && (c instanceof CLabel || c instanceof Label l && !l.getText().isEmpty())) {
                    lines.add(c);
                }
            }
            return lines;
        }
        return List.of();
    }

    private static <T> T ancestor(Control c, Class<T> kind) {
        for (Control p = c.getParent(); p != null; p = p.getParent()) if (kind.isInstance(p)) return kind.cast(p);
        throw new AssertionError("no " + kind.getSimpleName() + " around " + c);
    }
}
