package org.hostir.studio.ui.studio;

import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.ui.IFolderLayout;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IPerspectiveFactory;
import org.eclipse.ui.console.IConsoleConstants;

/**
 * The "Host IR" perspective: fusion editor in the middle, files and outline on the left, the lowering view and
 * properties on the right, problems, console and the timeline below; the Run menu and toolbar button.
 */
public final class HostIrPerspective implements IPerspectiveFactory {
    public static final String ID = "org.hostir.studio.ui.studio.perspective";
    static final String LOWERING_VIEW = "org.hostir.studio.ui.passes.LoweringView";
    static final String TIMELINE_VIEW = "org.hostir.studio.ui.timeline.TimelineView";

    @Override
    public void createInitialLayout(IPageLayout layout) {
        String editors = layout.getEditorArea();
        IFolderLayout left = layout.createFolder("left", IPageLayout.LEFT, 0.18f, editors);
        left.addView(IPageLayout.ID_PROJECT_EXPLORER);
        left.addView(IPageLayout.ID_OUTLINE);
        IFolderLayout right = layout.createFolder("right", IPageLayout.RIGHT, 0.62f, editors);
        right.addView(LOWERING_VIEW);
        right.addView(IPageLayout.ID_PROP_SHEET);
        IFolderLayout bottom = layout.createFolder("bottom", IPageLayout.BOTTOM, 0.66f, editors);
        bottom.addView(TIMELINE_VIEW);
        bottom.addView(IConsoleConstants.ID_CONSOLE_VIEW);
        bottom.addView(IPageLayout.ID_PROBLEM_VIEW);
        layout.addShowViewShortcut(LOWERING_VIEW);
        layout.addShowViewShortcut(TIMELINE_VIEW);
        layout.addShowViewShortcut(IConsoleConstants.ID_CONSOLE_VIEW);
        layout.addPerspectiveShortcut(ID);
        // the Run menu and toolbar button (Run Configurations..., Run History)
        layout.addActionSet(IDebugUIConstants.LAUNCH_ACTION_SET);
    }
}
