package org.hostir.studio.ui.debug;

import java.util.OptionalInt;
import java.util.OptionalLong;

import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.DebugPlugin;
import org.hostir.studio.exec.debug.Breakpoint;

/**
 * A breakpoint on a Host IR node of a fusion's final program, kept as a marker on the {@code .fusion} file: the
 * node's id, and optionally the rank and the innermost loop's index it holds on (the Breakpoints view's label
 * names all three). Eclipse persists it with the workspace.
 */
public final class NodeBreakpoint extends org.eclipse.debug.core.model.Breakpoint {
    public static final String MODEL_ID = "org.hostir.studio.debug";
    public static final String MARKER_TYPE = "org.hostir.studio.nodeBreakpointMarker";
    static final String NODE = "org.hostir.studio.node";
    static final String RANK = "org.hostir.studio.rank";
    static final String ITERATION = "org.hostir.studio.iteration";

    /** For Eclipse, which restores breakpoints from their markers. */
    public NodeBreakpoint() {}

    /** A new breakpoint on node {@code nodeId} ({@code label}: its headline), registered with the manager. */
    public static NodeBreakpoint create(IResource file, int nodeId, int rank, long iteration, String label)
            throws CoreException {
        NodeBreakpoint b = new NodeBreakpoint();
        IMarker marker = file.createMarker(MARKER_TYPE);
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

    public String label() {
        return getMarker().getAttribute(IMarker.MESSAGE, "node " + nodeId()) + (rank() >= 0 ? " @ rank " + rank() : "")
                + (iteration() >= 0 ? ", iteration " + iteration() : "");
    }

    /** The engine's breakpoint. */
    public Breakpoint toEngine() {
        return new Breakpoint(nodeId(), rank() < 0 ? OptionalInt.empty()
                : OptionalInt.of(rank()), iteration() < 0 ? OptionalLong.empty() : OptionalLong.of(iteration()));
    }
}
