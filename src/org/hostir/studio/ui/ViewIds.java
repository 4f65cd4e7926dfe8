package org.hostir.studio.ui;

/**
 * The ids of Host IR Studio's views (plugin.xml), for code that opens or finds a view without depending on its
 * class: sibling views stay independent of each other.
 */
public final class ViewIds {
    public static final String LOWERING = "org.hostir.studio.ui.passes.LoweringView";
    public static final String TIMELINE = "org.hostir.studio.ui.timeline.TimelineView";

    private ViewIds() {}
}
