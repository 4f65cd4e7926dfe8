package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.geometry.Rectangle;

/**
 * The node boxes as an edit found them, to reroute after it only the arrows that a moved node may now stand on or
 * have left room for (issue 35: every arrow of a 1,000-op fusion was routed again after each edit). An arrow whose
 * own node moved needs nothing from here: its anchor moves it ({@link NodeAnchor}).
 */
final class MovedNodes {
    /** From this share of the nodes changed on (a new layout, an undo of one), every arrow is rerouted. */
    private static final double MOST = 0.3;
    private final Map<IFigure, Rectangle> before = new IdentityHashMap<>();

    /** The boxes of the drawn {@code figures} now (hidden ones count as having none). */
    MovedNodes(Collection<? extends IFigure> figures) {
        for (IFigure f : figures) if (f.isVisible()) before.put(f, f.getBounds().getCopy());
    }

    /**
     * The old and new boxes (grown by the routers' clearance) of the figures that moved, changed size, came, went,
     * or were shown or hidden since; null when most did, where a test per arrow costs more than rerouting them all.
     */
    List<Rectangle> changed(Collection<? extends IFigure> figures) {
        List<Rectangle> out = new ArrayList<>();
        Map<IFigure, Rectangle> gone = new IdentityHashMap<>(before);
        for (IFigure f : figures) {
            Rectangle was = gone.remove(f), now = f.isVisible() ? f.getBounds() : null;
            if (was == null ? now == null : was.equals(now)) continue;
            if (was != null) out.add(grown(was));
            if (now != null) out.add(grown(now));
        }
        gone.values().forEach(r -> out.add(grown(r)));
        return out.size() > 2 * MOST * Math.max(1, figures.size()) ? null : out;
    }

    private static Rectangle grown(Rectangle r) {
        return r.getCopy().expand(ObstacleRouter.CLEARANCE + 2, ObstacleRouter.CLEARANCE + 2);
    }

    /** Whether an arrow drawn within {@code bounds} may pass one of the {@code changed} boxes (null: all changed). */
    static boolean near(Rectangle bounds, List<Rectangle> changed) {
        if (changed == null) return true;
        for (Rectangle r : changed) if (r.intersects(bounds)) return true;
        return false;
    }
}
