package org.hostir.studio.ui.tests.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IProject;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.TextConsole;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.tests.WorkbenchSmokeTest;
import org.junit.jupiter.api.Test;

/**
 * Launches seed 000's AG+matmul through a "Host IR Program" configuration on the CPU backend: a separate JVM runs
 * the engine, the console shows its progress and validation, and the trace opens in the timeline view.
 */
public class HostIrLaunchTest {

    static IFile example(String project, String name) throws Exception {
        IProject p = ResourcesPlugin.getWorkspace().getRoot().getProject(project);
        if (!p.exists()) p.create(null);
        if (!p.isOpen()) p.open(null);
        Path source = Path.of(System.getProperty("hirstudio.repo"), "examples", "seeds", name);
        IFile file = p.getFile(name);
        if (!file.exists()) file.create(new ByteArrayInputStream(Files.readAllBytes(source)), true, null);
        return file;
    }

    @Test
    public void runsAnExampleInASeparateJvmAndShowsItsOutput() throws Exception {
        IFile file = example("launch", "ag_matmul_p2p.fusion");
        ILaunchConfiguration config = HostIrLaunchShortcut.configurationFor(file);
        assertEquals(file.getFullPath().toString(), config.getAttribute(LaunchAttributes.FILE, ""));
        ILaunchConfigurationWorkingCopy copy = config.getWorkingCopy();
        LaunchSettings s = LaunchAttributes.read(copy);
        LaunchAttributes.write(new LaunchSettings(s.file(), s.symbols(), "cpu", 2, 2, 2, 1, true, s.options()), copy);
        config = copy.doSave();

        ILaunch launch = config.launch(ILaunchManager.RUN_MODE, null);
        Display display = Display.getCurrent();
        long deadline = System.currentTimeMillis() + 120_000;
        while (!launch.isTerminated() && System.currentTimeMillis() < deadline) {
            while (display.readAndDispatch()) {
                // keep the UI alive while the run goes on
            }
            Thread.sleep(20);
        }
        assertTrue(launch.isTerminated(), "the run ends");
        IProcess process = launch.getProcesses()[0];
        assertEquals(0, process.getExitValue(), () -> console(process));
        // the console view reads the process's output; what a person sees is its document
        long shown = System.currentTimeMillis() + 20_000;
        while (!console(process).contains("validation:") && System.currentTimeMillis() < shown) {
            WorkbenchSmokeTest.spin(display, 100);
        }
        String out = console(process);
        for (String expected : List.of("warm-up 1/1: ", "iteration 1/2: ", "iteration 2/2: ", "time: median",
                "overlap: rank 0", "peak memory: rank 0", "validation: PASS max_abs_err=", "trace: ")) {
            assertTrue(out.contains(expected), () -> expected + " missing from the console:\n" + out);
        }
        assertTrue(process.getAttribute(IProcess.ATTR_CMDLINE).contains("--backend cpu --devices 2"),
                process.getAttribute(IProcess.ATTR_CMDLINE));
        WorkbenchSmokeTest.spin(display, 1500);
        assertNotNull(PlatformUI.getWorkbench().getActiveWorkbenchWindow());
        WorkbenchSmokeTest.screenshot(PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell(),
                "launch-console.png");
    }

    static String console(IProcess process) {
        IConsole console = DebugUITools.getConsole(process);
        return console instanceof TextConsole text ? text.getDocument().get() : "";
    }

    @Test
    public void argumentsFollowTheSettings() {
        LaunchSettings s = new LaunchSettings("/p/f.fusion", java.util.Map.of("M", "64"), "cpu", 4, 2, 3, 1, false,
                java.util.Map.of("allgather", "broadcast"));
        assertEquals(List.of("run", "/abs/f.fusion", "--backend", "cpu", "--devices", "4", "--streams", "2",
                "--iterations", "3", "--warmup", "1", "--trace", "/t.json", "--set", "M=64", "--option",
                "allgather=broadcast"), s.runArguments(Path.of("/abs/f.fusion"), Path.of("/t.json")));
        assertEquals(java.util.Map.of("M", "64", "K", "128"), LaunchSettings.parseSymbols("M=64, K=128"));
        assertEquals(null, LaunchSettings.parseSymbols("M=sixty"));
    }
}
