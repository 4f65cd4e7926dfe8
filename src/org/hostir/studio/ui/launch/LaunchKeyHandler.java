package org.hostir.studio.ui.launch;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.runtime.IConfigurationElement;
import org.eclipse.core.runtime.IExecutableExtension;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IFileEditorInput;
import org.eclipse.ui.handlers.HandlerUtil;

/**
 * Alt+Shift+X H (run) and Alt+Shift+D H (debug) on a .fusion selected or in the active editor. The debug UI hands
 * a launch shortcut's command a handler only once it has read its shortcuts (the first Run menu shown or launch
 * made); before that the keys did nothing (issue 35). Declared in plugin.xml with an activeWhen, this handler is
 * there from the start and outranks the debug UI's own, which has no expression: the two never conflict.
 */
public final class LaunchKeyHandler extends AbstractHandler implements IExecutableExtension {
    private String mode = ILaunchManager.RUN_MODE;

    @Override
    public void setInitializationData(IConfigurationElement config, String property, Object data) {
        if (data instanceof String m && !m.isBlank()) mode = m.trim();
    }

    @Override
    public Object execute(ExecutionEvent event) {
        HostIrLaunchShortcut shortcut = new HostIrLaunchShortcut();
        // the editor in front launches its file, as the debug UI's own handler does; else the selection
        if (HandlerUtil.getActivePart(event) instanceof IEditorPart editor
                && editor.getEditorInput() instanceof IFileEditorInput in && "fusion".equals(in.getFile().getFileExtension())) {
            shortcut.launch(editor, mode);
        } else {
            var selection = HandlerUtil.getCurrentSelection(event);
            if (selection != null) shortcut.launch(selection, mode);
        }
        return null;
    }
}
