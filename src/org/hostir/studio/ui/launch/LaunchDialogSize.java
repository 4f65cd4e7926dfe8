package org.hostir.studio.ui.launch;

import org.eclipse.core.runtime.Platform;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.jface.dialogs.IDialogSettings;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.PlatformUI;

/**
 * The first size of Run > Run Configurations... (and Debug Configurations...). The debug UI opens that dialog at 800
 * x 640 until the person resizes it, and its right-hand welcome ("Configure launch settings from this dialog:", one
 * line per toolbar button, drawn as labels that cut their text with "...") then loses the end of its longer lines:
 * the longest needs about 810 pixels in the 10-point dialog font, the right pane gets about 600 (issue 35). The
 * dialog reads its size from the debug UI's dialog settings (LaunchConfigurationsDialog.getInitialSize), so the
 * Studio writes a larger size there once, when none is stored; a size the person gives it later is stored over it.
 */
public final class LaunchDialogSize {
    /** The debug UI's section for that dialog (LaunchConfigurationsDialog.getDialogSettingsSectionName). */
    public static final String SECTION = IDebugUIConstants.PLUGIN_ID + ".LAUNCH_CONFIGURATIONS_DIALOG_SECTION";
    /** Dialog's keys for a stored size (Dialog.DIALOG_WIDTH and DIALOG_HEIGHT are private there). */
    static final String WIDTH = "DIALOG_WIDTH";
    static final String HEIGHT = "DIALOG_HEIGHT";
    /** Wide enough for the welcome's longest line beside the tree at the default 190:610 split; fits 1280 x 800. */
    static final int PREFERRED_WIDTH = 1160;
    static final int PREFERRED_HEIGHT = 680;

    private LaunchDialogSize() {}

    /** Stores the Studio's first size unless a size is stored already; on the UI thread. */
    public static void seed(Display display) {
        IDialogSettings section = section();
        if (section.get(WIDTH) != null || section.get(HEIGHT) != null) return;
        Rectangle area = display.getPrimaryMonitor().getClientArea();
        section.put(WIDTH, Math.min(PREFERRED_WIDTH, area.width - 40));
        section.put(HEIGHT, Math.min(PREFERRED_HEIGHT, area.height - 60));
    }

    /**
     * The debug UI's settings section of the dialog, made if it is missing. The bundle is looked up by name, not
     * through one of its classes, so that the Studio's start does not start the debug UI (the workbench shares one
     * settings provider per bundle, which the dialog reads later).
     */
    public static IDialogSettings section() {
        IDialogSettings all = PlatformUI.getDialogSettingsProvider(Platform.getBundle(IDebugUIConstants.PLUGIN_ID))
                .getDialogSettings();
        IDialogSettings section = all.getSection(SECTION);
        return section != null ? section : all.addNewSection(SECTION);
    }
}
