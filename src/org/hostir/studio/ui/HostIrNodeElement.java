package org.hostir.studio.ui;

/**
 * A node of one rank's lowered Host IR program, as the timeline view selects it (a bar names the node that issued
 * it). The timeline publishes {@code IStructuredSelection}s of these through the workbench selection service and
 * the lowering view follows them, so neither view knows the other. {@code file} is the workspace path of the
 * {@code .fusion} file the run came from, or null for a trace opened from disk; {@code nodeId} is the node's id
 * in that rank's final program.
 */
public record HostIrNodeElement(String file, int rank, int nodeId) {
    public HostIrNodeElement {
        if (rank < 0 || nodeId < 0) throw new IllegalArgumentException("rank " + rank + ", node " + nodeId);
    }
}
