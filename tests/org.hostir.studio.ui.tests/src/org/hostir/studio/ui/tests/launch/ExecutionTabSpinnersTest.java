package org.hostir.studio.ui.tests.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Spinner;
import org.hostir.studio.ui.tests.ShownExecutionTab;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand in Light at 1600 x 1000: the Execution tab's Devices, Streams, Iterations and Warm-ups
 * spinners were each as wide as their own maximum's digits (16384, 1024, 100000), so their - and + buttons stood at
 * three different places one above the other. A column of number fields reads as one when they share a width.
 */
public class ExecutionTabSpinnersTest {

    @Test
    public void theNumberFieldsShareOneWidth() throws Exception {
        Person person = Person.onCurrentDisplay();
        IFile file = ViewTestSupport.copyToWorkspace("execution-spinners", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        ILaunchConfigurationWorkingCopy copy = ShownExecutionTab.configuration(file, 2, 4, Map.of(), null);
        try (ShownExecutionTab shown = ShownExecutionTab.open(person, copy, false, 640, 420)) {
            List<Spinner> spinners = ViewTestSupport.descendants(shown.shell(), Spinner.class);
            assertEquals(4, spinners.size(), "Devices, Streams, Iterations, Warm-ups");
            Spinner devices = spinners.get(0);
            person.click(devices, 8, devices.getSize().y / 2);
            person.press(SWT.CTRL, 'a');
            person.type("64", 30);
            person.press(SWT.TAB);
            assertEquals(64, devices.getSelection(), "typed into Devices");
            ViewTestSupport.screenshot(shown.shell(), "execution-tab-spinners.png");
            Rectangle first = devices.getBounds();
            for (Spinner s : spinners) {
                Rectangle b = s.getBounds();
                assertEquals(first.x + first.width, b.x + b.width,
                        "each spinner's + button ends where Devices' does: " + b + " against " + first);
            }
        }
    }
}
