package org.hostir.studio.ui.studio;

import java.io.File;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.hostir.studio.ui.ThemeColors;

/**
 * How readable a region of a screenshot is, measured on its pixels as a person sees them: the region is cut into
 * cells of a text line's height; a cell's own background is its most frequent colour, its ink the pixels that
 * differ from it (lines and the edges of flat regions are not counted as ink: {@link #isText}), and the cell
 * reads when its strongest ink has a WCAG contrast ratio of at least
 * {@value #READABLE} against that background (what WCAG asks of large text; anti-aliasing softens only the edges
 * of a glyph, its core keeps the text's colour). Light text left on a light background, or dark magenta on
 * near-black, makes cells of ink that do not read, or no ink at all. The theme tests measure their screenshots
 * with it, and the product's smoke test its own (a start in Dark must show views that read).
 *
 * @param background the region's most frequent colour (the view's background)
 * @param inkCells   cells with ink (at least a few pixels unlike their background)
 * @param readable   of those, the cells whose ink reads
 */
public record Legibility(RGB background, int inkCells, int readable) {
    public static final double READABLE = 3.0;
    private static final int CELL = 14;
    /**
     * The least contrast with the background that counts as ink: fainter pixels are decoration (grid lines, a
     * column's shade, a focus rectangle); text that faint is text lost, which {@code inkCells} shows.
     */
    public static final double INK = 1.5;

    /** The share of the ink cells that do not read (0 when there is no ink). */
    public double unreadable() { return inkCells == 0 ? 0 : 1 - (double) readable / inkCells; }

    /** Whether the region's background is dark (WCAG luminance under 0.2). */
    public boolean dark() { return ThemeColors.luminance(background) < 0.2; }

    /**
     * The last picture read, and what it was read from: a test measures many regions of one screenshot. One picture
     * at most, as plain pixels on the Java heap ({@code ImageData} holds no handle of the display, so nothing ties it
     * to the display's life); the product reads pictures only in its smoke run (SmokeContrast), which then quits. Held
     * softly, so that a picture of a few MB is never kept against a need for memory.
     */
    private static java.lang.ref.SoftReference<ImageData> lastImage = new java.lang.ref.SoftReference<>(null);
    private static String lastKey;

    private static synchronized ImageData read(File png) {
        String key = png.getAbsolutePath() + " " + png.lastModified() + " " + png.length();
        ImageData image = key.equals(lastKey) ? lastImage.get() : null;
        if (image == null) {
            image = new ImageLoader().load(png.getPath())[0];
            lastImage = new java.lang.ref.SoftReference<>(image);
            lastKey = key;
        }
        return image;
    }

    public static Legibility of(File png, Rectangle r) {
        ImageData d = read(png);
        int x0 = Math.max(0, r.x), y0 = Math.max(0, r.y);
        int w = Math.min(d.width, r.x + r.width) - x0, h = Math.min(d.height, r.y + r.height) - y0;
        if (w < CELL || h < CELL) return new Legibility(new RGB(0, 0, 0), 0, 0);
        int[] pixels = new int[w * h];
        for (int y = 0; y < h; y++) d.getPixels(x0, y0 + y, w, pixels, y * w);
        Map<Integer, Double> luminance = new HashMap<>();
        Map<Integer, Integer> backgrounds = new HashMap<>();
        int[] cell = new int[CELL * CELL];
        int ink = 0, readable = 0;
        for (int cy = 0; cy + CELL <= h; cy += CELL) {
            for (int cx = 0; cx + CELL <= w; cx += CELL) {
                for (int y = 0; y < CELL; y++) System.arraycopy(pixels, (cy + y) * w + cx, cell, y * CELL, CELL);
                int[] top = twoMostFrequent(cell);
                backgrounds.merge(top[0], top[1], Integer::sum);
                double best = isText(d, cell, top, luminance);
                if (best < 0) continue;
                ink++;
                if (best >= READABLE) readable++;
            }
        }
        int back = backgrounds.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        return new Legibility(d.palette.getRGB(back), ink, readable);
    }

    /** {most frequent pixel, its count, count of the second most frequent}. */
    private static int[] twoMostFrequent(int[] cell) {
        int[] sorted = cell.clone();
        java.util.Arrays.sort(sorted);
        int best = sorted[0], bestN = 0, secondN = 0;
        for (int i = 0; i < sorted.length;) {
            int j = i;
            while (j < sorted.length && sorted[j] == sorted[i]) j++;
            int n = j - i;
            if (n > bestN) {
                secondN = bestN;
                bestN = n;
                best = sorted[i];
            } else if (n > secondN) {
                secondN = n;
            }
            i = j;
        }
        return new int[] { best, bestN, secondN };
    }

    /**
     * The strongest contrast of a cell's ink against its background, or -1 when the cell holds no ink that may be
     * text: a few pixels unlike the background, neither a line one or two pixels thick (a border, a grid line, a
     * focus rectangle) nor the edge between two flat regions (a second colour over 40% of the cell: a fill, a
     * highlighted row). A row or column of the cell in one colour other than the background is a band of a fill
     * (the edge of a selected row under 40% of the cell) and not ink: a glyph never spans a whole cell in one
     * colour. Counting those bands flagged the Dark Properties view, whose selected row's blue against the view's
     * grey (2.9 to 1) made a third of its "ink" cells, while its text reads (issue 35, the measure's calibration).
     */
    private static double isText(ImageData d, int[] cell, int[] top, Map<Integer, Double> luminance) {
        if (top[2] * 10 > 4 * CELL * CELL) return -1;
        boolean[] band = bands(cell, top[0]);
        double back = luminance.computeIfAbsent(top[0], px -> ThemeColors.luminance(d.palette.getRGB(px)));
        int x0 = CELL, y0 = CELL, x1 = -1, y1 = -1, differing = 0;
        double best = 1;
        for (int i = 0; i < cell.length; i++) {
            if (cell[i] == top[0] || band[i]) continue;
            double l = luminance.computeIfAbsent(cell[i], px -> ThemeColors.luminance(d.palette.getRGB(px)));
            double c = (Math.max(l, back) + 0.05) / (Math.min(l, back) + 0.05);
            if (c < INK) continue;
            best = Math.max(best, c);
            differing++;
            x0 = Math.min(x0, i % CELL);
            y0 = Math.min(y0, i / CELL);
            x1 = Math.max(x1, i % CELL);
            y1 = Math.max(y1, i / CELL);
        }
        return differing < 4 || x1 - x0 < 2 || y1 - y0 < 2 ? -1 : best;
    }

    /** The cell's pixels in a row or a column of one colour that is not {@code background}. */
    private static boolean[] bands(int[] cell, int background) {
        boolean[] band = new boolean[cell.length];
        for (int k = 0; k < CELL; k++) {
            boolean row = cell[k * CELL] != background, column = cell[k] != background;
            for (int j = 1; j < CELL; j++) {
                row &= cell[k * CELL + j] == cell[k * CELL];
                column &= cell[j * CELL + k] == cell[k];
            }
            for (int j = 0; j < CELL; j++) {
                if (row) band[k * CELL + j] = true;
                if (column) band[j * CELL + k] = true;
            }
        }
        return band;
    }

    /** WCAG contrast ratio, 1 to 21. */
    public static double contrast(RGB a, RGB b) {
        double la = ThemeColors.luminance(a), lb = ThemeColors.luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "background %s (%s), %d ink cells, %.0f%% unreadable", background,
                dark() ? "dark" : "light", inkCells, 100 * unreadable());
    }
}
