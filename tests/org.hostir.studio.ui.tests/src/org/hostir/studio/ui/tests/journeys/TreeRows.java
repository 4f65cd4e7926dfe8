package org.hostir.studio.ui.tests.journeys;

import java.util.Arrays;

import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.hostir.studio.ui.tests.input.Person;

/**
 * Clicks on a tree's rows as a person does: the wheel turned over the tree until the row is whole in sight, then a
 * click on the row once it rests. GTK animates a tree's scrolling (the wheel's and setTopItem's): a row's bounds
 * read at once are where it passes, not where it stops, and the click landed rows away from the one meant (round
 * 18: [top, w2] selected in the Outline for [offsets, top]).
 */
final class TreeRows {
    /** How long a row must keep its place to count as resting. */
    private static final int REST_MS = 300;

    private TreeRows() {}

    /** The first row under a top-level item whose text starts with {@code prefix}. */
    static TreeItem child(Tree tree, String prefix) {
        for (TreeItem group : tree.getItems()) {
            for (TreeItem row : group.getItems()) if (row.getText().startsWith(prefix)) return row;
        }
        throw new AssertionError("no row starting with '" + prefix + "' in " + tree);
    }

    /** Scrolls {@code row} whole into sight with the wheel and clicks it with {@code modifiers} held. */
    static void click(Person person, Tree tree, TreeItem row, int modifiers) {
        Rectangle r = resting(person, row);
        for (int notch = 0; notch < 60 && !inSight(tree, r); notch++) {
            Rectangle area = tree.getClientArea();
            person.wheel(tree, area.x + area.width / 2, area.y + area.height / 2, r.y < area.y ? 1 : -1, 0);
            r = resting(person, row);
        }
        if (!inSight(tree, r)) throw new AssertionError("the row " + row.getText() + " at " + r + " stays out of "
                + tree.getClientArea());
        Point at = new Point(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
        TreeItem hit = tree.getItem(at);   // said only: the selection after the click is what decides
        if (hit != row) System.out.println("the tree's hit test puts " + (hit == null ? "no row" : hit.getText())
                + " at " + at + ", where " + row.getText() + " rests (" + r + ")");
        person.click(tree, at.x, at.y, 1, modifiers);
        person.until(1000, () -> Arrays.asList(tree.getSelection()).contains(row));
        if (!Arrays.asList(tree.getSelection()).contains(row)) {
            throw new AssertionError("the click at " + at + " did not select " + row.getText() + ": selected "
                    + Arrays.stream(tree.getSelection()).map(TreeItem::getText).toList() + "; " + person.lastGesture());
        }
    }

    /** The row's bounds once they have not changed for {@link #REST_MS} (at most three seconds). */
    private static Rectangle resting(Person person, TreeItem row) {
        Rectangle last = row.getBounds();
        long since = System.currentTimeMillis(), end = since + 3000;
        while (System.currentTimeMillis() < end) {
            person.settle(50);
            Rectangle now = row.getBounds();
            if (!now.equals(last)) {
                last = now;
                since = System.currentTimeMillis();
            } else if (System.currentTimeMillis() - since >= REST_MS) {
                return now;
            }
        }
        throw new AssertionError("the row " + row.getText() + " did not come to rest (last at " + last + ")");
    }

    /** Whether the row is whole in the tree's client area (the overview's sash cuts the Outline's tree). */
    private static boolean inSight(Tree tree, Rectangle r) {
        Rectangle area = tree.getClientArea();
        int top = area.y + tree.getHeaderHeight();
        return r.height > 0 && r.y >= top && r.y + r.height <= area.y + area.height;
    }
}
