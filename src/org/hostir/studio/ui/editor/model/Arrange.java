package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ui.editor.model.Layout.Position;

/**
 * Where nodes go when the user aligns or distributes a multi-selection, or walks the graph with the arrow keys (GEF
 * Logic's alignment actions and its viewer's key handler): pure functions over the nodes' boxes, so that the editor
 * makes each arrangement one move edit of the file's layout.
 */
public final class Arrange {
    private Arrange() {}

    /** A node's box in figure coordinates. */
    public record Box(int x, int y, int width, int height) {
        int centerX() { return x + width / 2; }

        int centerY() { return y + height / 2; }
    }

    /** The six alignments of GEF's AlignmentAction, horizontal then vertical. */
    public enum Alignment {
        LEFT("Left"), CENTER("Center"), RIGHT("Right"), TOP("Top"), MIDDLE("Middle"), BOTTOM("Bottom");

        public final String label;

        Alignment(String label) { this.label = label; }
    }

    /** The four directions of the arrow keys. */
    public enum Direction { LEFT, RIGHT, UP, DOWN }

    /**
     * New positions of {@code boxes} aligned on {@code primary}'s edge or centre line, as GEF aligns on the primary
     * selection (the node selected last); the primary node stays where it is.
     */
    public static Map<String, Position> align(Map<String, Box> boxes, String primary, Alignment a) {
        Box p = boxes.get(primary);
        Map<String, Position> out = new LinkedHashMap<>();
        boxes.forEach((k, b) -> out.put(k, switch (a) {
            case LEFT -> new Position(p.x(), b.y());
            case CENTER -> new Position(p.centerX() - b.width() / 2, b.y());
            case RIGHT -> new Position(p.x() + p.width() - b.width(), b.y());
            case TOP -> new Position(b.x(), p.y());
            case MIDDLE -> new Position(b.x(), p.centerY() - b.height() / 2);
            case BOTTOM -> new Position(b.x(), p.y() + p.height() - b.height());
        }));
        return out;
    }

    /**
     * New positions that space {@code boxes} evenly along one axis: the first and the last (by position) stay, the
     * gaps between neighbours become equal. Fewer than three nodes stay as they are.
     */
    public static Map<String, Position> distribute(Map<String, Box> boxes, boolean horizontal) {
        Map<String, Position> out = new LinkedHashMap<>();
        boxes.forEach((k, b) -> out.put(k, new Position(b.x(), b.y())));
        if (boxes.size() < 3) return out;
        List<Map.Entry<String, Box>> sorted = new ArrayList<>(boxes.entrySet());
        sorted.sort(Comparator.comparingInt(e -> horizontal ? e.getValue().x() : e.getValue().y()));
        Box first = sorted.get(0).getValue(), last = sorted.get(sorted.size() - 1).getValue();
        int span = horizontal ? last.x() + last.width() - first.x() : last.y() + last.height() - first.y();
        int sizes = 0;
        for (var e : sorted) sizes += horizontal ? e.getValue().width() : e.getValue().height();
        double gap = (span - sizes) / (double) (sorted.size() - 1);
        double at = horizontal ? first.x() : first.y();
        for (var e : sorted) {
            Box b = e.getValue();
            int v = (int) Math.round(at);
            out.put(e.getKey(), horizontal ? new Position(v, b.y()) : new Position(b.x(), v));
            at += (horizontal ? b.width() : b.height()) + gap;
        }
        return out;
    }

    /**
     * The node an arrow key goes to from {@code from} (GEF's GraphicalViewerKeyHandler: the nearest node whose centre
     * lies that way, a sideways offset counting double), or null when none lies that way.
     */
    public static String neighbour(Map<String, Box> boxes, String from, Direction d) {
        Box f = boxes.get(from);
        String best = null;
        double bestScore = Double.MAX_VALUE;
        for (var e : boxes.entrySet()) {
            if (e.getKey().equals(from)) continue;
            int dx = e.getValue().centerX() - f.centerX(), dy = e.getValue().centerY() - f.centerY();
            int along = switch (d) {
                case LEFT -> -dx;
                case RIGHT -> dx;
                case UP -> -dy;
                case DOWN -> dy;
            };
            int aside = Math.abs(d == Direction.LEFT || d == Direction.RIGHT ? dy : dx);
            if (along <= 0) continue;
            double score = Math.hypot(along, 2.0 * aside);
            if (score < bestScore) {
                bestScore = score;
                best = e.getKey();
            }
        }
        return best;
    }

    /** The nodes in reading order of a left-to-right graph (column by column, top to bottom): Tab's order. */
    public static List<String> readingOrder(Map<String, Box> boxes) {
        List<String> keys = new ArrayList<>(boxes.keySet());
        keys.sort(Comparator.<String>comparingInt(k -> boxes.get(k).x()).thenComparingInt(k -> boxes.get(k).y()));
        return keys;
    }
}
