package org.hostir.studio.ui.editor;

import org.eclipse.draw2d.AbstractConnectionAnchor;
import org.eclipse.draw2d.AnchorListener;
import org.eclipse.draw2d.ConnectionAnchor;
import org.eclipse.draw2d.FigureListener;
import org.eclipse.draw2d.geometry.Point;

/**
 * An arrow's end on a node of the graph: where Draw2d's {@code shape} anchor (a chopbox, an ellipse, a stub) puts
 * it, moved when its node moves. Draw2d's anchors listen to every ancestor of their node as well, one listener per
 * node on the node layer, the pane and the viewport; with a 1,000-op fusion's 2,002 nodes those listener lists grew
 * by copying (quadratic, about a second of an editor's opening, issue 35) and every move of the layer woke every
 * arrow. The graph's arrows and nodes share every ancestor above their layers (the node layer, a freeform layer,
 * does not move its children), so the node's own moves are the only ones that move an arrow's end.
 */
final class NodeAnchor extends AbstractConnectionAnchor {
    private final ConnectionAnchor shape;
    private final FigureListener moved = f -> fireAnchorMoved();

    /** {@code shape} is asked for the geometry only: nobody listens to it, so it hooks nothing. */
    NodeAnchor(ConnectionAnchor shape) {
        super(shape.getOwner());
        this.shape = shape;
    }

    @Override
    public Point getLocation(Point reference) { return shape.getLocation(reference); }

    @Override
    public Point getReferencePoint() { return shape.getReferencePoint(); }

    @Override
    @SuppressWarnings("unchecked")   // Draw2d 3.2's listener list is a raw List
    public void addAnchorListener(AnchorListener listener) {
        if (listener == null) return;
        if (listeners.isEmpty()) getOwner().addFigureListener(moved);
        listeners.add(listener);
    }

    @Override
    public void removeAnchorListener(AnchorListener listener) {
        listeners.remove(listener);
        if (listeners.isEmpty()) getOwner().removeFigureListener(moved);
    }
}
