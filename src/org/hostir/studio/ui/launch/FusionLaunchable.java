package org.hostir.studio.ui.launch;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.IAdapterFactory;
import org.eclipse.debug.ui.actions.ILaunchable;

/**
 * Makes a {@code .fusion} file launchable, so that the Project Explorer's context menu has Run As. Debug UI shows
 * its Run As submenu only for objects that adapt to {@link ILaunchable} (JDT declares it for Java elements; a
 * product without JDT declares nothing, and the menu had only our own commands). The contextual launch
 * shortcut's enablement in plugin.xml then decides that Host IR Program is in it.
 */
public final class FusionLaunchable implements IAdapterFactory {
    private static final ILaunchable LAUNCHABLE = new ILaunchable() { };

    @Override
    public <T> T getAdapter(Object adaptable, Class<T> type) {
        if (type == ILaunchable.class && adaptable instanceof IFile f && "fusion".equals(f.getFileExtension())) {
            return type.cast(LAUNCHABLE);
        }
        return null;
    }

    @Override
    public Class<?>[] getAdapterList() { return new Class<?>[] { ILaunchable.class }; }
}
