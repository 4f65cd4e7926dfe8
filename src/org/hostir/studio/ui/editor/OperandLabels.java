package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

import org.eclipse.draw2d.AbstractLocator;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.Locator;
import org.eclipse.draw2d.PolylineConnection;
import org.eclipse.draw2d.geometry.Dimension;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.PointList;
import org.eclipse.draw2d.geometry.Rectangle;

/**
 * Where the operand letters (A, B, ...) of one op's arrows go: next to each arrow's head, the topmost arrow's letter
 * above its arrow and the others below theirs, and a letter that would still cover one placed before it moves back
 * along its arrow until it does not. Each letter used to be placed on its own: two arrows ending a few pixels apart
 * (transpose_add's {@code add(at, b)}) or on top of each other ({@code add(tv0, tv0)}) got letters drawn over each
 * other (issue 35). All letters of an op are placed together, so each one's place does not depend on which arrow
 * Draw2d validates first.
 */
final class OperandLabels {
    /** Pixels between a letter and its arrow's head (the head is about 10 long) and between a letter and its line. */
    static final int BACK = 12, SIDE = 1, GAP = 2;

    private OperandLabels() {}

    /** One lettered arrow into the op: its figure and its letter. */
    record Lettered(PolylineConnection arrow, IFigure letter, String slot) {}

    /**
     * The locator of one arrow's letter: placing it places every letter of the op ({@code siblings}, itself
     * included), so that a letter whose arrow did not move still gives way to (or takes the place left by) one whose
     * arrow did.
     */
    static Locator locator(Supplier<List<Lettered>> siblings) {
        return new AbstractLocator() {
            @Override
            protected Point getReferencePoint() { return new Point(); }

            @Override
            public void relocate(IFigure letter) { arrange(siblings.get(), letter); }
        };
    }

    /** Sets the bounds of the letters of every visible arrow of {@code all} (one op's), {@code own}'s among them. */
    private static void arrange(List<Lettered> all, IFigure own) {
        List<Lettered> shown = new ArrayList<>();
        for (Lettered l : all) {
            if (!l.arrow().isVisible()) continue;
            // a sibling's route may not be computed yet in this validation: its points are needed now
            l.arrow().validate();
            if (l.arrow().getPoints().size() >= 2) shown.add(l);
        }
        shown.sort(Comparator.comparing(Lettered::slot));
        List<Rectangle> placed = layout(shown);
        for (int i = 0; i < shown.size(); i++) {
            IFigure letter = shown.get(i).letter();
            if (letter.getBounds().equals(placed.get(i))) continue;
            letter.setBounds(placed.get(i));
            // a connection's bounds hold its letter's (it is painted only there): another arrow's are made anew
            // by its layout, which places the same letters again and changes nothing
            if (letter != own) shown.get(i).arrow().revalidate();
        }
    }

    /** The letters' bounds, in the order of {@code letters} (slot order): later letters give way to earlier ones. */
    static List<Rectangle> layout(List<Lettered> letters) {
        // the first arrow from the top (from the left, for arrows arriving from above or below) has its letter on its
        // outer side, the others on theirs: two letters of arrows ending side by side face away from each other
        Lettered top = letters.stream().min(Comparator.comparingInt((Lettered l) -> end(l).y)
                .thenComparing(Lettered::slot)).orElse(null);
        Lettered left = letters.stream().min(Comparator.comparingInt((Lettered l) -> end(l).x)
                .thenComparing(Lettered::slot)).orElse(null);
        List<Rectangle> out = new ArrayList<>();
        for (Lettered l : letters) {
            Dimension size = l.letter().getPreferredSize();
            Point end = end(l), before = before(l);
            int dx = Integer.signum(end.x - before.x), dy = Integer.signum(end.y - before.y);
            boolean across = Math.abs(end.x - before.x) >= Math.abs(end.y - before.y);
            Rectangle r = across ? beside(end, dx, size, l == top) : aside(end, dy, size, l == left);
            // back along the arrow (away from the op) until no letter placed before is covered
            int stepX = across ? -(dx == 0 ? 1 : dx) : 0, stepY = across ? 0 : -(dy == 0 ? 1 : dy);
            for (int tries = 0; tries < 20 && covers(r, out); tries++) {
                r.translate(stepX * (size.width + GAP), stepY * (size.height + GAP));
            }
            out.add(r);
        }
        return out;
    }

    /** An arrow arriving left or right: the letter just before the head, above or below the line. */
    private static Rectangle beside(Point end, int dx, Dimension size, boolean above) {
        int x = dx >= 0 ? end.x - BACK - size.width : end.x + BACK;
        int y = above ? end.y - SIDE - size.height : end.y + SIDE;
        return new Rectangle(x, y, size.width, size.height);
    }

    /** An arrow arriving from above or below: the letter just before the head, left or right of the line. */
    private static Rectangle aside(Point end, int dy, Dimension size, boolean left) {
        int y = dy >= 0 ? end.y - BACK - size.height : end.y + BACK;
        int x = left ? end.x - SIDE - size.width : end.x + SIDE;
        return new Rectangle(x, y, size.width, size.height);
    }

    private static boolean covers(Rectangle r, List<Rectangle> placed) {
        for (Rectangle p : placed) if (p.getExpanded(GAP / 2, GAP / 2).intersects(r)) return true;
        return false;
    }

    private static Point end(Lettered l) { return l.arrow().getPoints().getLastPoint(); }

    /** The point the arrow's last segment starts at. */
    private static Point before(Lettered l) {
        PointList p = l.arrow().getPoints();
        return p.getPoint(p.size() - 2);
    }
}
