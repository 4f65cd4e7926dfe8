package org.hostir.studio.ui;

/**
 * How a node breakpoint is kept on a file: a marker of {@link #TYPE} (declared in plugin.xml) naming the node's id
 * in {@link #NODE}. The debugger makes them; a view that draws them beside a program's text reads them here,
 * without depending on the debugger.
 */
public final class NodeBreakpointMarkers {
    public static final String TYPE = "org.hostir.studio.nodeBreakpointMarker";
    public static final String NODE = "org.hostir.studio.node";

    private NodeBreakpointMarkers() {}
}
