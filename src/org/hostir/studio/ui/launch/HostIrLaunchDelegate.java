package org.hostir.studio.ui.launch;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.resources.IFile;
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

    /** Offers to save the editors of the files this run reads ({@link LaunchedFileSave}). */
    @Override
    protected boolean saveBeforeLaunch(ILaunchConfiguration configuration, String mode, IProgressMonitor monitor) {
        return LaunchedFileSave.offer(configuration, mode);
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
