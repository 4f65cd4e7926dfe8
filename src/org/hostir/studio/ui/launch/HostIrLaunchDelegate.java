package org.hostir.studio.ui.launch;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.Platform;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.SubMonitor;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.IBreakpointManager;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.model.IBreakpoint;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.core.model.LaunchConfigurationDelegate;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.jface.dialogs.MessageDialogWithToggle;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.engine.RunCommandLine;
import org.osgi.framework.FrameworkUtil;

/**
 * Launches a "Host IR Program": a separate JVM runs the engine's {@code hirstudio run} on the fusion file, so a
 * GPU or backend failure can never take the IDE down. Its output goes to the console (the debug framework
 * connects the process), terminating the launch kills it, and {@link RunWatcher} opens the trace or reports the
 * failure when it ends.
 */
public final class HostIrLaunchDelegate extends LaunchConfigurationDelegate {
    /** The Host IR debugger's model id, its node breakpoints' (ui.debug sits above this package and names it). */
    public static final String DEBUG_MODEL = "org.hostir.studio.debug";

    /**
     * Run/Debug > Launching: "Save required dirty editors before launching" (always, never, prompt), under the debug
     * UI's own key; the debug UI names it only in an internal interface.
     */
    private static final String SAVE_BEFORE_LAUNCH = IDebugUIConstants.PLUGIN_ID + ".save_dirty_editors_before_launch";

    @Override
    public void launch(ILaunchConfiguration configuration, String mode, ILaunch launch, IProgressMonitor monitor)
            throws CoreException {
        SubMonitor progress = SubMonitor.convert(monitor, "Launching " + configuration.getName(), 3);
        LaunchSettings settings = LaunchAttributes.read(configuration);
        IFile file = fusionFile(settings.file());
        progress.worked(1);
        Path trace = traceFile(configuration.getName());
        List<String> command = new ArrayList<>(List.of(javaExecutable(), "--enable-native-access=ALL-UNNAMED"));
        // how often a long run says how far it got, when the Studio was given a period of its own
        String period = System.getProperty(RunCommandLine.PROGRESS_PERIOD);
        if (period != null) command.add("-D" + RunCommandLine.PROGRESS_PERIOD + "=" + period);
        command.addAll(List.of("-cp", EngineClasspath.get(), EngineClasspath.MAIN));
        command.addAll(settings.runArguments(Path.of(file.getLocation().toOSString()), trace));
        progress.worked(1);
        Process process = DebugPlugin.exec(command.toArray(String[]::new),
                file.getParent().getLocation().toFile());
        IProcess ip = DebugPlugin.newProcess(launch, process, "hirstudio run " + file.getName());
        ip.setAttribute(IProcess.ATTR_CMDLINE, String.join(" ", command));
        new RunWatcher(ip, trace, settings.timelineTitle(file.getFullPath().toString()),
                file.getFullPath().toString(), settings.timelineSettings(), settings.loweringShown()).watch();
        RunProgress.follow(ip, file.getName());
        LoweringViewNote.tell(ip, settings);
        progress.worked(1);
    }

    /**
     * Offers to save the launched file's own editor only. The run reads the file on disk, so no other editor matters;
     * the default asks the debug UI's save handler with no projects, which then offers every dirty editor of the
     * workspace ("Save 'other.fusion'?" before running this one). The person's choice of always, never or prompt
     * still holds, and Cancel still stops the launch.
     */
    @Override
    protected boolean saveBeforeLaunch(ILaunchConfiguration configuration, String mode, IProgressMonitor monitor)
            throws CoreException {
        if (DebugUITools.isPrivate(configuration) || !PlatformUI.isWorkbenchRunning()) return true;
        String choice = Platform.getPreferencesService().getString(IDebugUIConstants.PLUGIN_ID, SAVE_BEFORE_LAUNCH,
                MessageDialogWithToggle.PROMPT, null);
        if (MessageDialogWithToggle.NEVER.equals(choice)) return true;
        IFile file;
        try {
            file = fusionFile(LaunchAttributes.read(configuration).file());
        } catch (CoreException e) {
            return true;   // launch() refuses it with its own message
        }
        boolean[] go = {true};
        PlatformUI.getWorkbench().getDisplay().syncExec(() -> go[0] = IDE.saveAllEditors(new IResource[] {file},
                MessageDialogWithToggle.PROMPT.equals(choice)));
        return go[0];
    }

    /**
     * The breakpoints that make a Run launch ask "There are breakpoints enabled in the workspace. Would you rather
     * launch in debug mode?": the Host IR debugger's only. LaunchConfigurationDelegate.preLaunchCheck asks that for
     * a run of a type that also debugs when any breakpoint this returns is enabled, and its default returns every
     * breakpoint of every debug model; as JDT's Java delegate does for Java breakpoints, ours are the ones that a
     * debug launch of this file would stop at.
     */
    @Override
    protected IBreakpoint[] getBreakpoints(ILaunchConfiguration configuration) {
        IBreakpointManager breakpoints = DebugPlugin.getDefault().getBreakpointManager();
        return breakpoints.isEnabled() ? breakpoints.getBreakpoints(DEBUG_MODEL) : null;
    }

    /** The workspace file of a configuration, refused when none is chosen or it is gone (the debug launch too). */
    public static IFile fusionFile(String workspacePath) throws CoreException {
        if (workspacePath == null || workspacePath.isBlank()) {
            throw new CoreException(Status.error("no fusion file chosen (Main tab)"));
        }
        IFile file = ResourcesPlugin.getWorkspace().getRoot().getFile(
                org.eclipse.core.runtime.Path.fromPortableString(workspacePath));
        if (!file.exists() || file.getLocation() == null) {
            throw new CoreException(Status.error("the fusion file " + workspacePath + " does not exist"));
        }
        return file;
    }

    /** Traces go to the plugin's state folder, one per launch. */
    private static Path traceFile(String name) throws CoreException {
        Path dir = Path.of(Platform.getStateLocation(FrameworkUtil.getBundle(HostIrLaunchDelegate.class))
                .toOSString(), "traces");
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new CoreException(Status.error("cannot create " + dir + ": " + e.getMessage()));
        }
        String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return dir.resolve(safe + "-" + System.currentTimeMillis() + ".trace.json");
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", File.separatorChar == '\\' ? "java.exe" : "java")
                .toString();
    }
}
