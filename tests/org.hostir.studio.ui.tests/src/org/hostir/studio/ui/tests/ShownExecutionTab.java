package org.hostir.studio.ui.tests;

import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.swt.layout.FillLayout;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.ui.launch.ExecutionTab;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.tests.input.Person;

/**
 * A launch configuration's Execution tab in a shell of its own, as the launch dialog shows it, opened in front of a
 * person: the journeys that choose a backend, profile or routing by keys and clicks start here. Closing disposes the
 * shell.
 */
public record ShownExecutionTab(Shell shell, ExecutionTab tab) implements AutoCloseable {

    /**
     * The shortcut's configuration for {@code file} on backend auto: {@code devices} ranks, {@code streams} streams,
     * one iteration, validated, these options and profile (null: none).
     */
    public static ILaunchConfigurationWorkingCopy configuration(IFile file, int devices, int streams,
            Map<String, String> options, String profile) throws Exception {
        ILaunchConfigurationWorkingCopy copy = HostIrLaunchShortcut.configurationFor(file).getWorkingCopy();
        LaunchSettings s = LaunchAttributes.read(copy);
        LaunchAttributes.write(new LaunchSettings(s.file(), s.symbols(), "auto", devices, streams, 1, 0, true,
                options, profile), copy);
        return copy;
    }

    /** Opens the tab ({@code debug}: the Debug configuration's variant) on {@code copy} in a width x height shell. */
    public static ShownExecutionTab open(Person person, ILaunchConfigurationWorkingCopy copy, boolean debug,
            int width, int height) {
        Shell shell = new Shell(Display.getCurrent());
        shell.setText(debug ? "Execution (debug)" : "Execution");
        shell.setLayout(new FillLayout());
        ExecutionTab tab = new ExecutionTab(debug);
        try {
            tab.createControl(shell);
            tab.initializeFrom(copy);
            shell.setSize(width, height);
            shell.open();
            person.lookAt(shell);
            return new ShownExecutionTab(shell, tab);
        } catch (RuntimeException e) {
            shell.dispose();
            throw e;
        }
    }

    @Override
    public void close() {
        shell.dispose();
    }
}
