package org.hostir.studio.ui.launch;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.ui.AbstractLaunchConfigurationTabGroup;
import org.eclipse.debug.ui.CommonTab;
import org.eclipse.debug.ui.ILaunchConfigurationDialog;
import org.eclipse.debug.ui.ILaunchConfigurationTab;

/**
 * Main (with the Program in debug mode), Execution (refusing, in debug mode, a backend the debugger does not run on),
 * Lowering and Common tabs of a "Host IR Program" configuration.
 */
public final class HostIrTabGroup extends AbstractLaunchConfigurationTabGroup {
    private ILaunchConfigurationDialog dialog;

    @Override
    public void createTabs(ILaunchConfigurationDialog dialog, String mode) {
        this.dialog = dialog;
        boolean debug = ILaunchManager.DEBUG_MODE.equals(mode);
        setTabs(new ILaunchConfigurationTab[] {new MainTab(debug), new ExecutionTab(debug), new LoweringTab(),
                new CommonTab()});
    }

    /**
     * A new configuration: the fusion of the selection or the active editor (looked up once), with Preferences >
     * Host IR's defaults, named after the fusion as the Java Application type names one after its class.
     */
    @Override
    public void setDefaults(ILaunchConfigurationWorkingCopy configuration) {
        IFile fusion = LaunchContext.fusion();
        String path = fusion == null ? "" : fusion.getFullPath().toString();
        LaunchAttributes.write(HostIrLaunchShortcut.fromPreferences(path), configuration);
        if (fusion != null && dialog != null) configuration.rename(dialog.generateName(LaunchContext.name(fusion)));
        super.setDefaults(configuration);
    }
}
