package org.hostir.studio.ui.launch;

import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.Adapters;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationType;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.ILaunchShortcut;
import org.eclipse.jface.dialogs.ErrorDialog;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IFileEditorInput;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.HostIrPreferences;

/** Run As > Host IR Program on a .fusion file or its editor: reuses the file's configuration or makes one. */
public final class HostIrLaunchShortcut implements ILaunchShortcut {
    @Override
    public void launch(ISelection selection, String mode) {
        if (selection instanceof IStructuredSelection s && Adapters.adapt(s.getFirstElement(), IFile.class) != null) {
            launch(Adapters.adapt(s.getFirstElement(), IFile.class), mode);
        }
    }

    @Override
    public void launch(IEditorPart editor, String mode) {
        if (editor.getEditorInput() instanceof IFileEditorInput in) launch(in.getFile(), mode);
    }

    private static void launch(IFile file, String mode) {
        try {
            DebugUITools.launch(configurationFor(file), mode);
        } catch (CoreException e) {
            ErrorDialog.openError(null, "Host IR Program", "Cannot launch " + file.getName(), e.getStatus());
        }
    }

    /** The first configuration of this file, else a new one with the default settings. */
    public static ILaunchConfiguration configurationFor(IFile file) throws CoreException {
        ILaunchManager manager = DebugPlugin.getDefault().getLaunchManager();
        ILaunchConfigurationType type = manager.getLaunchConfigurationType(LaunchAttributes.TYPE_ID);
        String path = file.getFullPath().toString();
        for (ILaunchConfiguration c : manager.getLaunchConfigurations(type)) {
            if (path.equals(c.getAttribute(LaunchAttributes.FILE, ""))) return c;
        }
        String name = manager.generateLaunchConfigurationName(file.getName().replace(".fusion", ""));
        ILaunchConfigurationWorkingCopy copy = type.newInstance(null, name);
        LaunchAttributes.write(fromPreferences(path), copy);
        return copy.doSave();
    }

    /**
     * A new configuration's settings: devices, backend, profile and lowering options from Window > Preferences >
     * Host IR (only the options that differ from their declared defaults, so the command line names what was
     * chosen), the rest from {@link LaunchSettings#DEFAULTS}.
     */
    public static LaunchSettings fromPreferences(String path) {
        HostIrPreferences.Defaults d = HostIrPreferences.defaults();
        LaunchSettings s = LaunchSettings.DEFAULTS;
        Map<String, String> chosen = new LinkedHashMap<>(d.options());
        chosen.entrySet().removeIf(e -> e.getValue().equals(LoweringOptions.DEFAULTS.asMap().get(e.getKey())));
        return new LaunchSettings(path, s.symbols(), d.backend(), d.devices(), s.streams(), s.iterations(), s.warmup(),
                s.validate(), chosen, d.profile());
    }
}
