package org.hostir.studio.ui.editor;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

import org.eclipse.draw2d.geometry.Dimension;
import org.eclipse.draw2d.parts.Thumbnail;

/**
 * Draws the overview's new picture at once when its size changes, before the overview paints. Draw2d's thumbnail
 * (3.2, pinned) meets a new size at its next paint by replacing its picture with a new blank image (white) and
 * drawing the graph into it one tile per {@code asyncExec}, showing the blank image until the last tile. A theme
 * switch changes the graph's extent (Dark's fonts: 250 to 252 pixels wide), and while the switch's styling fills
 * the event queue each tile waits behind it: the overview stayed white for seconds, behind the restart question and
 * after it (issue 35, round 16, by hand). Draw2d offers no hook for this, and ScrollableThumbnail is final, so the
 * updater is reached by reflection; where that fails (another Draw2d), the overview draws as Draw2d does.
 */
final class ThumbnailCatchUp {
    /** A pass of a 1,000-op graph is a few hundred tiles; the bound only guards against a loop that never ends. */
    private static final int MOST_TILES = 100_000;
    private static final Field UPDATER = field("updater"), IMAGE_SIZE = field("thumbnailImageSize");
    private static final Method IMAGE = method(Thumbnail.class, "getThumbnailImage");

    private ThumbnailCatchUp() {}

    /** Before {@code t} paints: where its picture is to change size, draws the new one now, whole. */
    static void beforePaint(Thumbnail t) {
        if (UPDATER == null || IMAGE_SIZE == null || IMAGE == null) return;
        try {
            Dimension shown = (Dimension) IMAGE_SIZE.get(t);
            // the first picture, or one of the same size: the tiles draw over the picture shown, as Draw2d does
            if (shown == null || wanted(t).equals(shown) || wanted(t).isEmpty()) return;
            drawWhole(t);
        } catch (ReflectiveOperationException | ClassCastException e) {
            // left to Draw2d's tiles
        }
    }

    /**
     * Draws {@code t}'s picture again now, whole, and shows it: after a theme switch, whose queued styling the tiles
     * would wait behind (the overview kept the old theme's picture for a second after the graph showed the new one).
     * Where the first picture is not drawn yet, or reflection fails, Draw2d's tiles draw it.
     */
    static void drawNow(Thumbnail t) {
        t.setDirty(true);
        try {
            if (UPDATER != null && IMAGE_SIZE != null && IMAGE != null && IMAGE_SIZE.get(t) != null) drawWhole(t);
        } catch (ReflectiveOperationException | ClassCastException e) {
            // left to Draw2d's tiles
        }
        t.repaint();
    }

    /** Draw2d's own steps, run to the end: the image (of the new size) and the updater started on it, every tile. */
    private static void drawWhole(Thumbnail t) throws ReflectiveOperationException {
        IMAGE.invoke(t);
        Object updater = UPDATER.get(t);
        Method running = method(updater.getClass(), "isRunning"), run = method(updater.getClass(), "run");
        if (running == null || run == null) return;
        for (int i = 0; i < MOST_TILES && (Boolean) running.invoke(updater); i++) run.invoke(updater);
    }

    /** The picture's size as Draw2d's getThumbnailImage computes it (the preferred size within the insets). */
    private static Dimension wanted(Thumbnail t) {
        return t.getPreferredSize().getCopy().expand(-t.getInsets().getWidth(), -t.getInsets().getHeight());
    }

    private static Field field(String name) {
        try {
            Field f = Thumbnail.class.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static Method method(Class<?> c, String name) {
        try {
            Method m = c.getDeclaredMethod(name);
            m.setAccessible(true);
            return m;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
