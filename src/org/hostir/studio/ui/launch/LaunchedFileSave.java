package org.hostir.studio.ui.launch;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.Platform;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.jface.dialogs.MessageDialogWithToggle;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.ide.IDE;

/**
 * Before a Run or Debug launch of a Host IR Program: offers to save the launched file's own editor only. Both runs
 * read the file on disk, so no other editor matters; LaunchConfigurationDelegate's default asks the debug UI's save
 * handler with no projects, which then offers every dirty editor of the workspace ("Save 'other.fusion'?" before
 * running this one, issue 35). The person's choice under Run/Debug > Launching ("Save required dirty editors before
 * launching": always, never, prompt) still holds, and Cancel still stops the launch. With never, the launch reads
 * the file as last saved.
 */
public final class LaunchedFileSave {
    /** That preference, under the debug UI's own key, which the debug UI names only in an internal interface. */
    public static final String SAVE_BEFORE_LAUNCH = IDebugUIConstants.PLUGIN_ID + ".save_dirty_editors_before_launch";

    private LaunchedFileSave() {}

    /** Whether the launch goes on: false when the person cancelled the question. */
    public static boolean offer(ILaunchConfiguration configuration) {
        if (DebugUITools.isPrivate(configuration) || !PlatformUI.isWorkbenchRunning()) return true;
        String choice = Platform.getPreferencesService().getString(IDebugUIConstants.PLUGIN_ID, SAVE_BEFORE_LAUNCH,
                MessageDialogWithToggle.PROMPT, null);
        if (MessageDialogWithToggle.NEVER.equals(choice)) return true;
        IFile file;
        try {
            file = HostIrLaunchDelegate.fusionFile(LaunchAttributes.read(configuration).file());
        } catch (CoreException e) {
            return true;   // the delegate's launch refuses it with its own message
        }
        boolean[] go = {true};
        PlatformUI.getWorkbench().getDisplay().syncExec(() -> go[0] = IDE.saveAllEditors(new IResource[] {file},
                MessageDialogWithToggle.PROMPT.equals(choice)));
        return go[0];
    }
}
