package org.hostir.studio.ui.editor;

import org.eclipse.draw2d.AbstractConnectionAnchor;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.Rectangle;

/**
 * Where a shared tensor's stub starts: a little left of its reader (above it for operand A, below for B), so the
 * stub follows the reader when it moves and scales with the zoom ({@link org.hostir.studio.ui.editor.model.Placement}).
 */
final class StubAnchor extends AbstractConnectionAnchor {
    static final int LENGTH = 40;
    private final int dy;

    StubAnchor(IFigure reader, String slot) {
        super(reader);
        dy = switch (slot) {
            case "A" -> -12;
            case "B" -> 12;
            default -> 0;
        };
    }

    @Override
    public Point getLocation(Point reference) {
        Rectangle r = getOwner().getBounds();
        Point p = new Point(r.x - LENGTH, r.y + r.height / 2 + dy);
        getOwner().translateToAbsolute(p);
        return p;
    }

    @Override
    public Point getReferencePoint() { return getLocation(null); }
}
