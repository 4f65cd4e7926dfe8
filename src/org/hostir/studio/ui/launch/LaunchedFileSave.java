package org.hostir.studio.ui.launch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.Platform;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.jface.dialogs.MessageDialogWithToggle;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.engine.Engine;

/**
 * Before a Run or Debug launch of a Host IR Program: offers to save the editors of the files the launch reads, and
 * those only ({@link #filesRead}). Both read files on disk, so no other editor matters; LaunchConfigurationDelegate's
 * default asks the debug UI's save handler with no projects, which then offers every dirty editor of the workspace
 * ("Save 'other.fusion'?" before running this one, issue 35). The person's choice under Run/Debug > Launching ("Save
 * required dirty editors before launching": always, never, prompt) still holds, and Cancel still stops the launch.
 * With never, the launch reads the files as last saved.
 */
public final class LaunchedFileSave {
    /** That preference, under the debug UI's own key, which the debug UI names only in an internal interface. */
    public static final String SAVE_BEFORE_LAUNCH = IDebugUIConstants.PLUGIN_ID + ".save_dirty_editors_before_launch";

    private LaunchedFileSave() {}

    /** Whether the launch in {@code mode} goes on: false when the person cancelled the question. */
    public static boolean offer(ILaunchConfiguration configuration, String mode) {
        if (DebugUITools.isPrivate(configuration) || !PlatformUI.isWorkbenchRunning()) return true;
        String choice = Platform.getPreferencesService().getString(IDebugUIConstants.PLUGIN_ID, SAVE_BEFORE_LAUNCH,
                MessageDialogWithToggle.PROMPT, null);
        if (MessageDialogWithToggle.NEVER.equals(choice)) return true;
        List<IFile> files;
        try {
            files = filesRead(configuration, mode);
        } catch (CoreException e) {
            return true;   // the delegate's launch refuses it with its own message
        }
        boolean[] go = {true};
        PlatformUI.getWorkbench().getDisplay().syncExec(() -> go[0] = IDE.saveAllEditors(
                files.toArray(IResource[]::new), MessageDialogWithToggle.PROMPT.equals(choice)));
        return go[0];
    }

    /**
     * The workspace files a launch in {@code mode} reads: the fusion; in debug mode the Program, a Host IR dump every
     * rank runs (issue 35: a dirty dump was not offered, and the debugger ran the dump as last saved); a simulation
     * (run mode only: the debugger refuses sim) its profile file and routing histogram where they lie in the
     * workspace. A run has no Program ({@code hirstudio run} has no such argument), so its dump is not offered.
     */
    public static List<IFile> filesRead(ILaunchConfiguration configuration, String mode) throws CoreException {
        LaunchSettings settings = LaunchAttributes.read(configuration);
        IFile fusion = HostIrLaunchDelegate.fusionFile(settings.file());
        Set<IFile> files = new LinkedHashSet<>(List.of(fusion));
        if (ILaunchManager.DEBUG_MODE.equals(mode)) {
            String program = configuration.getAttribute(LaunchAttributes.PROGRAM, "");
            if (!program.isBlank() && ResourcesPlugin.getWorkspace().validatePath(program, IResource.FILE).isOK()) {
                files.add(ResourcesPlugin.getWorkspace().getRoot().getFile(
                        org.eclipse.core.runtime.Path.fromPortableString(program)));
            }
        } else if (settings.predicted()) {
            Path folder = Path.of(fusion.getParent().getLocation().toOSString());   // the run's working directory
            for (String local : simulationFiles(settings)) files.addAll(workspaceFiles(folder.resolve(local)));
        }
        return new ArrayList<>(files);
    }

    /** The simulation's own files: a profile that is no built-in one's name, a routing histogram. */
    private static List<String> simulationFiles(LaunchSettings settings) {
        List<String> local = new ArrayList<>();
        if (!Engine.builtInProfiles().contains(settings.profile())) local.add(settings.profile());
        String histogram = "histogram:";
        if (settings.routing().startsWith(histogram) && settings.routing().length() > histogram.length()) {
            local.add(settings.routing().substring(histogram.length()));
        }
        return local;
    }

    private static List<IFile> workspaceFiles(Path location) {
        return List.of(ResourcesPlugin.getWorkspace().getRoot().findFilesForLocationURI(location.toUri()));
    }
}
