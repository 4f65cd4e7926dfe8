package org.hostir.studio.ui.debug;

import java.util.OptionalInt;
import java.util.OptionalLong;

import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.DebugPlugin;
import org.hostir.studio.exec.debug.Breakpoint;
import org.hostir.studio.ui.NodeBreakpointMarkers;
import org.hostir.studio.ui.launch.HostIrLaunchDelegate;

/**
 * A breakpoint on a Host IR node, kept as a marker: on the {@code .fusion} file for a node of its final program
 * (toggled in the Lowering view), or at the node's line of a Host IR dump (toggled in the text editor's ruler; it
 * holds a run of that dump's programs). It names the node's id, and optionally the rank and the innermost loop's
 * index it holds on, and whether a communication's whole team stops with that rank (set on its properties page; the
 * Breakpoints view's label names them). A line breakpoint
 * in Eclipse's sense, so the editor's ruler draws it; Eclipse persists it with the workspace.
 */
public final class NodeBreakpoint extends org.eclipse.debug.core.model.LineBreakpoint {
    public static final String MODEL_ID = HostIrLaunchDelegate.DEBUG_MODEL;
    public static final String MARKER_TYPE = NodeBreakpointMarkers.TYPE;
    static final String NODE = NodeBreakpointMarkers.NODE;
    static final String RANK = "org.hostir.studio.rank";
    static final String ITERATION = "org.hostir.studio.iteration";
    static final String TEAM = "org.hostir.studio.team";

    /** For Eclipse, which restores breakpoints from their markers. */
    public NodeBreakpoint() {}

    /** A new breakpoint on node {@code nodeId} ({@code label}: its headline), registered with the manager. */
    public static NodeBreakpoint create(IResource file, int nodeId, int rank, long iteration, String label)
            throws CoreException {
        return create(file, -1, nodeId, rank, iteration, label);
    }

    /** As {@link #create(IResource, int, int, long, String)}, at {@code line} (1-based) of a dump; -1: no line. */
    public static NodeBreakpoint create(IResource file, int line, int nodeId, int rank, long iteration, String label)
            throws CoreException {
        NodeBreakpoint b = new NodeBreakpoint();
        IMarker marker = file.createMarker(MARKER_TYPE);
        if (line > 0) marker.setAttribute(IMarker.LINE_NUMBER, line);
        marker.setAttribute(NODE, nodeId);
        marker.setAttribute(RANK, rank);
        marker.setAttribute(ITERATION, (int) iteration);
        marker.setAttribute(IMarker.MESSAGE, label);
        marker.setAttribute(ENABLED, true);
        marker.setAttribute(ID, MODEL_ID);
        b.setMarker(marker);
        b.setPersisted(true);
        DebugPlugin.getDefault().getBreakpointManager().addBreakpoint(b);
        return b;
    }

    @Override
    public String getModelIdentifier() { return MODEL_ID; }

    public int nodeId() { return getMarker().getAttribute(NODE, -1); }

    /** The rank it holds on, -1 for every rank. */
    public int rank() { return getMarker().getAttribute(RANK, -1); }

    /** The innermost loop index it holds in, -1 for every iteration. */
    public int iteration() { return getMarker().getAttribute(ITERATION, -1); }

    /** Whether the whole team of its communication stops with the rank it names. */
    public boolean team() { return getMarker().getAttribute(TEAM, false); }

    /** Stops the whole team of its communication with the rank it names ({@code Breakpoint#team}). */
    public void setTeam(boolean on) throws CoreException { setAttribute(TEAM, on); }

    /** Holds only rank {@code r} (-1: every rank). */
    public void setRank(int r) throws CoreException { setAttribute(RANK, r); }

    /** Holds only in iteration {@code i} of the node's innermost loop (-1: every iteration). */
    public void setIteration(int i) throws CoreException { setAttribute(ITERATION, i); }

    /** {@code P2PCommunication 3 @ rank 1, iteration 0, whole team}, and {@code [line 4]} for one in a dump. */
    public String label() {
        int line = getMarker().getAttribute(IMarker.LINE_NUMBER, -1);
        return getMarker().getAttribute(IMarker.MESSAGE, "node " + nodeId()) + (rank() >= 0 ? " @ rank " + rank() : "")
                + (iteration() >= 0 ? ", iteration " + iteration() : "") + (team() ? ", whole team" : "")
                + (line > 0 ? " [line " + line + " of " + getMarker().getResource().getName() + "]" : "");
    }

    /** The engine's breakpoint. */
    public Breakpoint toEngine() {
        return new Breakpoint(nodeId(), rank() < 0 ? OptionalInt.empty()
                : OptionalInt.of(rank()), iteration() < 0 ? OptionalLong.empty() : OptionalLong.of(iteration()), team());
    }
}
