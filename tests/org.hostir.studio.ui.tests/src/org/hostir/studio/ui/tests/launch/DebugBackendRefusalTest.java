package org.hostir.studio.ui.tests.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.ui.launch.ExecutionTab;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.tests.ShownExecutionTab;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.WorkbenchSmokeTest;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.Test;

/**
 * Issue 37: the debugger runs on the CPU and CUDA backends, not on sim. A debug configuration's Execution tab set to
 * cuda (keys on its Backend box) is valid; set to sim it is not, its error one line saying why and what to use
 * instead; back on cpu it is valid. A configuration naming sim launched in debug mode without the dialog fails at
 * once with the same line, and one naming cuda where this machine has fewer GPUs than ranks fails at once in one
 * line naming them, never a hang. The same tab of a run configuration takes sim.
 */
public class DebugBackendRefusalTest {
    @Test
    public void simIsRefusedForDebuggingInOneLineAndCudaAndCpuTaken() throws Exception {
        Person person = Person.onCurrentDisplay();
        IFile file = ViewTestSupport.copyToWorkspace("debug-backend", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        ILaunchConfigurationWorkingCopy copy = ShownExecutionTab.configuration(file, 2, 2, Map.of(), null);
        try (ShownExecutionTab shown = ShownExecutionTab.open(person, copy, true, 640, 360)) {
            Shell shell = shown.shell();
            ExecutionTab debugTab = shown.tab();
            Combo backend = ViewTestSupport.descendants(shell, Combo.class).get(0);
            assertTrue(debugTab.isValid(copy), "auto debugs on the CPU backend: " + debugTab.getErrorMessage());
            person.clickCenter(backend); // the list opens; Escape leaves the focus on the combo
            person.press(SWT.ESC);
            person.press(SWT.ARROW_DOWN).press(SWT.ARROW_DOWN).press(SWT.ARROW_DOWN);
            assertEquals("cuda", backend.getText(), "three items down from auto");
            assertTrue(debugTab.isValid(copy), "cuda debugs too: " + debugTab.getErrorMessage());
            assertNull(debugTab.getErrorMessage());
            WorkbenchSmokeTest.screenshot(shell, "debug-backend-cuda-taken.png");
            debugTab.performApply(copy);
            ILaunchConfigurationWorkingCopy onCuda = copy.copy("debug-backend-cuda");
            person.press(SWT.ARROW_UP);
            assertEquals(LaunchSettings.SIM, backend.getText());
            assertFalse(debugTab.isValid(copy));
            String error = debugTab.getErrorMessage();
            assertTrue(error.startsWith("Backend sim: the debugger runs on the cpu and cuda backends: ")
                    && error.contains("debug on cpu") && !error.contains("\n"), error);
            WorkbenchSmokeTest.screenshot(shell, "debug-backend-sim-refused.png");
            debugTab.performApply(copy);
            person.press(SWT.ARROW_UP);
            assertEquals("cpu", backend.getText());
            assertTrue(debugTab.isValid(copy), String.valueOf(debugTab.getErrorMessage()));
            assertNull(debugTab.getErrorMessage());
            assertEquals(LaunchSettings.SIM, LaunchAttributes.read(copy).backend(), "sim applied before the way back");
            assertEquals("cuda", LaunchAttributes.read(onCuda).backend());
            long targets = liveTargets();
            String refused = launchError(copy);
            assertTrue(refused.startsWith("Backend sim: the debugger runs on the cpu and cuda backends"), refused);
            if (CudaBackend.localDeviceCount() < 2) {
                String noGpus = launchError(onCuda);
                assertTrue(noGpus.contains("--backend cuda: 2 ranks need 2 CUDA devices (NCCL puts one rank on each)")
                        && !noGpus.contains("\n"), noGpus);
            }
            assertEquals(targets, liveTargets(), "no debug target started");
        }
        try (ShownExecutionTab run = ShownExecutionTab.open(person, copy, false, 640, 360)) {
            assertTrue(run.tab().isValid(copy), "a run on sim is fine: " + run.tab().getErrorMessage());
        }
    }

    /** Debug targets not terminated (a new launch may remove an earlier test's terminated ones). */
    private static long liveTargets() {
        return Arrays.stream(DebugPlugin.getDefault().getLaunchManager().getDebugTargets())
                .filter(t -> !t.isTerminated()).count();
    }

    /** The message of the debug launch of {@code config}, which must fail at once. */
    private static String launchError(ILaunchConfigurationWorkingCopy config) {
        try {
            config.launch(ILaunchManager.DEBUG_MODE, null);
            return "launched";
        } catch (CoreException e) {
            return e.getMessage();
        }
    }
}
