package org.hostir.studio.ui.tests.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.FillLayout;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.ui.launch.ExecutionTab;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.WorkbenchSmokeTest;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.Test;

/**
 * Issue 37: the debugger runs on the CPU backend only. A debug configuration's Execution tab set to cuda (keys on
 * its Backend box) is not valid, its error one line saying why and what to use instead; back on cpu it is valid;
 * and a configuration naming cuda launched in debug mode without the dialog fails at once with the same line,
 * never a hang. The same tab of a run configuration takes cuda.
 */
public class DebugBackendRefusalTest {
    @Test
    public void cudaIsRefusedForDebuggingInOneLineAndCpuTaken() throws Exception {
        Person person = Person.onCurrentDisplay();
        IFile file = ViewTestSupport.copyToWorkspace("debug-backend", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        ILaunchConfigurationWorkingCopy copy = HostIrLaunchShortcut.configurationFor(file).getWorkingCopy();
        LaunchSettings s = LaunchAttributes.read(copy);
        LaunchAttributes.write(new LaunchSettings(s.file(), s.symbols(), "auto", 2, 2, 1, 0, true, Map.of()), copy);
        Shell shell = new Shell(Display.getCurrent());
        shell.setText("Execution (debug)");
        shell.setLayout(new FillLayout());
        ExecutionTab debugTab = new ExecutionTab(true);
        ExecutionTab runTab = new ExecutionTab(false);
        try {
            debugTab.createControl(shell);
            debugTab.initializeFrom(copy);
            shell.setSize(640, 360);
            shell.open();
            person.lookAt(shell);
            Combo backend = ViewTestSupport.descendants(shell, Combo.class).get(0);
            assertTrue(debugTab.isValid(copy), "auto debugs on the CPU backend: " + debugTab.getErrorMessage());
            person.clickCenter(backend); // the list opens; Escape leaves the focus on the combo
            person.press(SWT.ESC);
            person.press(SWT.ARROW_DOWN).press(SWT.ARROW_DOWN).press(SWT.ARROW_DOWN);
            assertEquals("cuda", backend.getText(), "three items down from auto");
            assertFalse(debugTab.isValid(copy));
            String error = debugTab.getErrorMessage();
            assertTrue(error.startsWith("Backend cuda: the debugger runs on the CPU backend only: ") && error.contains(
                    "debug on cpu") && !error.contains("\n"), error);
            WorkbenchSmokeTest.screenshot(shell, "debug-backend-cuda-refused.png");
            debugTab.performApply(copy);
            person.press(SWT.ARROW_UP).press(SWT.ARROW_UP);
            assertEquals("cpu", backend.getText());
            assertTrue(debugTab.isValid(copy), String.valueOf(debugTab.getErrorMessage()));
            assertNull(debugTab.getErrorMessage());
        } finally {
            shell.dispose();
        }
        assertEquals("cuda", LaunchAttributes.read(copy).backend(), "the cuda choice applied before the way back");
        int targets = DebugPlugin.getDefault().getLaunchManager().getDebugTargets().length;
        String refused = "launched";
        try {
            copy.launch(ILaunchManager.DEBUG_MODE, null);
        } catch (CoreException e) {
            refused = e.getMessage();
        }
        assertTrue(refused.startsWith("Backend cuda: the debugger runs on the CPU backend only"), refused);
        assertEquals(targets, DebugPlugin.getDefault().getLaunchManager().getDebugTargets().length,
                "no debug target started");
        Shell runShell = new Shell(Display.getCurrent());
        try {
            runTab.createControl(runShell);
            runTab.initializeFrom(copy);
            assertTrue(runTab.isValid(copy), "a run on cuda is fine: " + runTab.getErrorMessage());
        } finally {
            runShell.dispose();
        }
    }
}
