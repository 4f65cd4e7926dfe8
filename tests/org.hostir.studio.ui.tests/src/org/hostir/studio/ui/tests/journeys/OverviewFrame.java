package org.hostir.studio.ui.tests.journeys;

import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;

/**
 * The Outline overview's frame (the part of the graph the editor shows) as the screen shows it: Draw2d draws it as
 * a one-pixel rectangle of one colour over a tinted fill. Its sides are the long straight runs of that colour in a
 * picture of the overview; the shrunk nodes, drawn in other colours and a few pixels tall, make none.
 */
final class OverviewFrame {
    /** The shortest run of the frame's colour that counts as a side. */
    private static final int SIDE = 12;
    /** How far a pixel's channels may be from the frame's colour. */
    private static final int SLACK = 4;

    private OverviewFrame() {}

    /** The bounds {x, y, width, height} of the runs of {@code colour} at least {@link #SIDE} long, or null. */
    static int[] drawn(ImageData d, RGB colour) {
        int minX = Integer.MAX_VALUE, minY = Integer.MAX_VALUE, maxX = -1, maxY = -1;
        boolean[][] on = new boolean[d.height][d.width];
        for (int y = 0; y < d.height; y++) for (int x = 0; x < d.width; x++) on[y][x] = is(d, x, y, colour);
        for (int y = 0; y < d.height; y++) {
            for (int x = 0; x < d.width; x++) {
                if (!on[y][x] || !(run(on, x, y, 1, 0) >= SIDE || run(on, x, y, 0, 1) >= SIDE)) continue;
                minX = Math.min(minX, x);
                minY = Math.min(minY, y);
                maxX = Math.max(maxX, x);
                maxY = Math.max(maxY, y);
            }
        }
        return maxX < 0 ? null : new int[] { minX, minY, maxX - minX + 1, maxY - minY + 1 };
    }

    /** The length of the run of set pixels through (x, y) along (dx, dy). */
    private static int run(boolean[][] on, int x, int y, int dx, int dy) {
        int n = 1;
        for (int i = x - dx, j = y - dy; i >= 0 && j >= 0 && on[j][i]; i -= dx, j -= dy) n++;
        for (int i = x + dx, j = y + dy; j < on.length && i < on[0].length && on[j][i]; i += dx, j += dy) n++;
        return n;
    }

    private static boolean is(ImageData d, int x, int y, RGB c) {
        RGB p = d.palette.getRGB(d.getPixel(x, y));
        return Math.abs(p.red - c.red) <= SLACK && Math.abs(p.green - c.green) <= SLACK
                && Math.abs(p.blue - c.blue) <= SLACK;
    }
}
