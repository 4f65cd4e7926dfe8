package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

import org.eclipse.draw2d.AbstractRouter;
import org.eclipse.draw2d.Connection;
import org.eclipse.draw2d.ConnectionRouter;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.PointList;
import org.eclipse.draw2d.geometry.Rectangle;

/**
 * An arrow whose node was moved by hand (or placed after the layout), routed orthogonally around the other nodes:
 * the shortest of a few shapes (one bend column, one bend row, or a detour row between two columns) whose segments
 * cross no other node's box. Draw2d's Manhattan router, used before, knows no obstacles, and a dragged node's
 * arrows were drawn across the nodes between (issue 35). Where no such shape is found, Manhattan's route stays.
 * Written here because Draw2d's ShortestPathConnectionRouter, which does avoid obstacles, draws oblique segments
 * among ELK's orthogonal routes, and ELK Layered routes edges only between the nodes it places itself.
 * Linear in the nodes for each candidate; only arrows of moved nodes come here.
 */
final class ObstacleRouter extends AbstractRouter {
    /** Space kept between an arrow and a node it passes, and the cost of a bend in pixels of length. */
    static final int CLEARANCE = 8, BEND = 30;
    /**
     * How many candidate columns near each end and rows near the middle a detour tries, and how many columns (rows)
     * nearest the middle a route of one bend column (row) tries.
     */
    private static final int NEAR = 6, ROWS = 12, LINES = 40;
    private final ConnectionRouter fallback;

    ObstacleRouter(ConnectionRouter fallback) { this.fallback = fallback; }

    @Override
    public void route(Connection c) {
        IFigure from = c.getSourceAnchor().getOwner(), to = c.getTargetAnchor().getOwner();
        if (from == null || to == null || from.getParent() == null) {
            fallback.route(c);
            return;
        }
        Rectangle a = absolute(from), b = absolute(to);
        List<Rectangle> obstacles = obstacles(from.getParent(), from, to);
        List<Point> route = shortestClear(a, b, obstacles);
        if (route == null) {
            fallback.route(c);
            return;
        }
        route.set(0, exit(a, route.get(0), route.get(1)));
        route.set(route.size() - 1, exit(b, route.get(route.size() - 1), route.get(route.size() - 2)));
        PointList points = new PointList();
        for (Point p : route) points.addPoint(p);
        c.translateToRelative(points);
        c.setPoints(points);
    }

    private static Rectangle absolute(IFigure f) {
        Rectangle r = f.getBounds().getCopy();
        f.translateToAbsolute(r);
        return r;
    }

    /** The drawn nodes and collapsed groups beside the arrow's own ends, grown by the clearance (absolute). */
    private static List<Rectangle> obstacles(IFigure layer, IFigure from, IFigure to) {
        List<Rectangle> out = new ArrayList<>();
        for (Object o : layer.getChildren()) {
            IFigure f = (IFigure) o;
            boolean box = f instanceof NodeFigures.Node || f instanceof GroupFigure g && g.group().collapsed();
            if (f == from || f == to || !box || !f.isVisible()) continue;
            out.add(absolute(f).expand(CLEARANCE, CLEARANCE));
        }
        return out;
    }

    /** The cheapest candidate from centre to centre whose segments miss every obstacle, or null. */
    static List<Point> shortestClear(Rectangle a, Rectangle b, List<Rectangle> obstacles) {
        Point s = a.getCenter(), t = b.getCenter();
        TreeSet<Integer> xs = new TreeSet<>(List.of(s.x, t.x, (s.x + t.x) / 2)), ys = new TreeSet<>(List.of(s.y, t.y,
                (s.y + t.y) / 2));
        for (Rectangle r : obstacles) {
            xs.add(r.x - 1);
            xs.add(r.right() + 1);
            ys.add(r.y - 1);
            ys.add(r.bottom() + 1);
        }
        List<List<Point>> candidates = new ArrayList<>();
        // the columns and rows nearest the middle: on a 1,000-op graph all of them, each checked against every
        // node while a node is dragged, cost a frame per arrow
        for (int x : nearest(xs, (s.x + t.x) / 2, LINES)) {
            candidates.add(List.of(s, new Point(x, s.y), new Point(x, t.y), t));
        }
        for (int y : nearest(ys, (s.y + t.y) / 2, LINES)) {
            candidates.add(List.of(s, new Point(s.x, y), new Point(t.x, y), t));
        }
        List<Integer> nearS = nearest(xs, s.x, NEAR), nearT = nearest(xs, t.x, NEAR);
        for (int y : nearest(ys, (s.y + t.y) / 2, ROWS)) {
            for (int x1 : nearS) {
                for (int x2 : nearT) {
                    candidates.add(List.of(s, new Point(x1, s.y), new Point(x1, y), new Point(x2, y), new Point(x2, t.y), t));
                }
            }
        }
        candidates.sort(Comparator.comparingLong(ObstacleRouter::cost));
        for (List<Point> route : candidates) {
            if (clear(route, a, b, obstacles)) return new ArrayList<>(simplified(route));
        }
        return null;
    }

    private static List<Integer> nearest(TreeSet<Integer> values, int to, int n) {
        return values.stream().sorted(Comparator.comparingInt(v -> Math.abs(v - to))).limit(n).toList();
    }

    private static long cost(List<Point> route) {
        long length = 0;
        int bends = 0;
        for (int i = 1; i < route.size(); i++) {
            Point p = route.get(i - 1), q = route.get(i);
            length += Math.abs(p.x - q.x) + Math.abs(p.y - q.y);
            if (!p.equals(q) && i < route.size() - 1) bends++;
        }
        return length + (long) BEND * bends;
    }

    /** Whether no segment crosses an obstacle, nor, past the first and before the last, the arrow's own ends. */
    private static boolean clear(List<Point> route, Rectangle a, Rectangle b, List<Rectangle> obstacles) {
        for (int i = 1; i < route.size(); i++) {
            Point p = route.get(i - 1), q = route.get(i);
            for (Rectangle r : obstacles) if (crosses(p, q, r)) return false;
            if (i > 1 && crosses(p, q, a) || i < route.size() - 1 && crosses(p, q, b)) return false;
        }
        return true;
    }

    /** Whether the segment p-q passes through the inside of {@code r} (Liang-Barsky clipping). */
    static boolean crosses(Point p, Point q, Rectangle r) {
        double t0 = 0, t1 = 1, dx = q.x - p.x, dy = q.y - p.y;
        double[] edge = { -dx, dx, -dy, dy };
        double[] room = { p.x - r.x, r.right() - p.x, p.y - r.y, r.bottom() - p.y };
        for (int i = 0; i < 4; i++) {
            if (edge[i] == 0) {
                if (room[i] <= 0) return false;   // parallel to this side and outside it (or on it)
                continue;
            }
            double t = room[i] / edge[i];
            if (edge[i] < 0) t0 = Math.max(t0, t);
            else t1 = Math.min(t1, t);
            if (t0 >= t1) return false;
        }
        return true;
    }

    /**
     * Whether a route (points in the layer's coordinates, as the layout gives them) crosses a drawn node other than
     * its ends, by more than a pixel: a layout's route that a node was dragged onto.
     */
    static boolean crossesANode(List<Point> route, IFigure from, IFigure to) {
        if (from == null || from.getParent() == null) return false;
        Rectangle span = new Rectangle(route.get(0), route.get(0));
        for (Point p : route) span.union(p);
        for (Object o : from.getParent().getChildren()) {
            IFigure f = (IFigure) o;
            boolean box = f instanceof NodeFigures.Node || f instanceof GroupFigure g && g.group().collapsed();
            if (f == from || f == to || !box || !f.isVisible() || !f.getBounds().intersects(span)) continue;
            Rectangle inside = f.getBounds().getCopy().shrink(1, 1);
            for (int i = 1; i < route.size(); i++) if (crosses(route.get(i - 1), route.get(i), inside)) return true;
        }
        return false;
    }

    /** Without repeated points and the middle points of straight runs. */
    private static List<Point> simplified(List<Point> route) {
        List<Point> out = new ArrayList<>();
        for (Point p : route) {
            if (!out.isEmpty() && out.get(out.size() - 1).equals(p)) continue;
            if (out.size() >= 2) {
                Point m = out.get(out.size() - 1), l = out.get(out.size() - 2);
                if (l.x == m.x && m.x == p.x || l.y == m.y && m.y == p.y) out.remove(out.size() - 1);
            }
            out.add(p);
        }
        return out;
    }

    /**
     * Where the segment from the centre of {@code box} toward {@code next} leaves it: an axis-parallel line from the
     * centre meets the box (and an op's ellipse inside it) at the middle of a side.
     */
    private static Point exit(Rectangle box, Point centre, Point next) {
        if (next.x > centre.x) return new Point(box.right(), centre.y);
        if (next.x < centre.x) return new Point(box.x, centre.y);
        return new Point(centre.x, next.y > centre.y ? box.bottom() : box.y);
    }

    @Override
    public void remove(Connection c) { fallback.remove(c); }

    @Override
    public void invalidate(Connection c) { fallback.invalidate(c); }
}
