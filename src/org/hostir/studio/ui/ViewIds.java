package org.hostir.studio.ui;

/**
 * The ids of Host IR Studio's views (plugin.xml), for code that opens or finds a view without depending on its
 * class: sibling views stay independent of each other.
 */
public final class ViewIds {
    public static final String LOWERING = "org.hostir.studio.ui.passes.LoweringView";
    public static final String TIMELINE = "org.hostir.studio.ui.timeline.TimelineView";
    /** F1's context ids (help/contexts.xml, relative to the plugin): one per view and the editor. */
    public static final String HELP_EDITOR = "org.hostir.studio.editor";
    public static final String HELP_LOWERING = "org.hostir.studio.lowering";
    public static final String HELP_TIMELINE = "org.hostir.studio.timeline";
    public static final String HELP_DUMP = "org.hostir.studio.dump";

    /** Gives {@code control} and what it holds the F1 help of {@code contextId}. */
    public static void help(org.eclipse.swt.widgets.Control control, String contextId) {
        org.eclipse.ui.PlatformUI.getWorkbench().getHelpSystem().setHelp(control, contextId);
    }

    private ViewIds() {}
}
