package org.hostir.studio.ui.editor;

import java.util.List;

import org.eclipse.draw2d.AbstractRouter;
import org.eclipse.draw2d.Connection;
import org.eclipse.draw2d.ConnectionRouter;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.PointList;
import org.hostir.studio.ui.editor.model.Layout.Position;

/**
 * An arrow's router: along the bend points the layout engine routed it (orthogonal, around the nodes between) while
 * both its nodes stand where that layout put them and no node was moved onto it; else by {@code fallback} (the
 * {@link ObstacleRouter}: around the other nodes), so a dragged node never drags a stale route behind it.
 */
final class LaidOutRouter extends AbstractRouter {
    private final ConnectionRouter fallback;
    private List<Position> route;
    private Position from, to;

    LaidOutRouter(ConnectionRouter fallback) { this.fallback = fallback; }

    /** The layout's route (absolute figure coordinates), valid while the ends' nodes are at {@code from}, {@code to}. */
    void setRoute(List<Position> route, Position from, Position to) {
        this.route = route;
        this.from = from;
        this.to = to;
    }

    /** Whether a layout gave this arrow a route (it may not follow it now). */
    boolean hasRoute() { return route != null; }

    /** Whether the connection follows the layout's route now (its nodes have not moved since). */
    boolean followsLayout(Connection c) {
        return route != null && at(c.getSourceAnchor().getOwner(), from) && at(c.getTargetAnchor().getOwner(), to);
    }

    private static boolean at(IFigure node, Position p) {
        return node != null && node.getBounds().x == p.x() && node.getBounds().y == p.y();
    }

    @Override
    public void route(Connection c) {
        if (!c.isVisible()) {
            // an arrow of a node not placed yet: no routing work (Manhattan's is quadratic in a pile of nodes)
            PointList ends = new PointList();
            ends.addPoint(c.getSourceAnchor().getReferencePoint());
            ends.addPoint(c.getTargetAnchor().getReferencePoint());
            c.translateToRelative(ends);
            c.setPoints(ends);
            return;
        }
        if (!followsLayout(c)) {
            fallback.route(c);
            return;
        }
        List<Point> points = route.stream().map(p -> new Point(p.x(), p.y())).toList();
        // a node dragged onto the layout's route: around it, as a moved node's own arrows go
        if (ObstacleRouter.crossesANode(points, c.getSourceAnchor().getOwner(), c.getTargetAnchor().getOwner())) {
            fallback.route(c);
            return;
        }
        PointList list = new PointList();
        for (Point p : points) list.addPoint(p);
        c.setPoints(list);
    }

    @Override
    public void remove(Connection c) { fallback.remove(c); }

    @Override
    public void invalidate(Connection c) { fallback.invalidate(c); }
}
