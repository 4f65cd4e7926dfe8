package org.hostir.studio.ui.launch;

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
    @Override
    public void createTabs(ILaunchConfigurationDialog dialog, String mode) {
        boolean debug = ILaunchManager.DEBUG_MODE.equals(mode);
        setTabs(new ILaunchConfigurationTab[] {new MainTab(debug), new ExecutionTab(debug), new LoweringTab(),
                new CommonTab()});
    }
}
