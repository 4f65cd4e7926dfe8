package org.hostir.studio.ui.tests.journeys;

import java.io.File;

import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.PaletteData;
import org.eclipse.swt.graphics.RGB;

/** Checks on the screenshots the tests save: what a person would see wrong in them. */
public final class Screens {
    private Screens() {}

    /** Where a control's top left corner is in a screenshot of {@code shell} (which starts at the shell's bounds). */
    public static org.eclipse.swt.graphics.Point inShot(org.eclipse.swt.widgets.Shell shell, org.eclipse.swt.widgets.Control c) {
        var p = c.toDisplay(0, 0);
        return new org.eclipse.swt.graphics.Point(p.x - shell.getBounds().x, p.y - shell.getBounds().y);
    }

    static ImageData read(File png) { return new ImageLoader().load(png.getPath())[0]; }

    /** WCAG relative luminance, 0 (black) to 1 (white). */
    public static double luminance(RGB c) {
        return 0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue);
    }

    private static double channel(int v) {
        double s = v / 255.0;
        return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    }

    private static RGB rgb(ImageData d, int x, int y) {
        PaletteData p = d.palette;
        return p.getRGB(d.getPixel(x, y));
    }

    /**
     * The share of the pixels of a rectangle of the picture that stand out from {@code background} as text must
     * (a contrast ratio of 3 or more): none where nothing readable is drawn.
     */
    public static double contrastingFraction(File png, int x, int y, int w, int h, RGB background) {
        ImageData d = read(png);
        double bg = luminance(background);
        long contrasting = 0, all = 0;
        for (int j = Math.max(0, y); j < Math.min(d.height, y + h); j++) {
            for (int i = Math.max(0, x); i < Math.min(d.width, x + w); i++) {
                all++;
                double l = luminance(rgb(d, i, j));
                if ((Math.max(l, bg) + 0.05) / (Math.min(l, bg) + 0.05) >= 3) contrasting++;
            }
        }
        return all == 0 ? 0 : (double) contrasting / all;
    }

    /** The share of the pixels of a rectangle of the picture that are nearly black. */
    public static double darkFraction(File png, int x, int y, int w, int h) {
        ImageData d = read(png);
        long dark = 0, all = 0;
        for (int j = Math.max(0, y); j < Math.min(d.height, y + h); j += 2) {
            for (int i = Math.max(0, x); i < Math.min(d.width, x + w); i += 2) {
                all++;
                if (luminance(rgb(d, i, j)) < 0.05) dark++;
            }
        }
        return all == 0 ? 0 : (double) dark / all;
    }

    /**
     * The largest square block of one flat colour in a rectangle of the picture, as a share of the rectangle's
     * area: a big one is a region nothing painted (or a view that lost its contents).
     */
    public static double largestFlatBlock(File png, int x, int y, int w, int h, RGB flat) {
        ImageData d = read(png);
        int x0 = Math.max(0, x), y0 = Math.max(0, y), x1 = Math.min(d.width, x + w), y1 = Math.min(d.height, y + h);
        int cols = x1 - x0, rows = y1 - y0;
        if (cols <= 0 || rows <= 0) return 0;
        int[] prev = new int[cols + 1], cur = new int[cols + 1];
        int best = 0;
        for (int j = 0; j < rows; j++) {
            for (int i = 0; i < cols; i++) {
                cur[i + 1] = rgb(d, x0 + i, y0 + j).equals(flat) ? 1 + Math.min(prev[i], Math.min(prev[i + 1], cur[i])) : 0;
                best = Math.max(best, cur[i + 1]);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return (double) best * best / ((double) cols * rows);
    }

    /**
     * The largest square of one flat colour other than {@code background} in a rectangle of the picture, as a
     * share of the rectangle's area: a block no widget painted, or a popup that covers the view.
     */
    public static double largestFlatBlockOtherThan(File png, int x, int y, int w, int h, RGB background) {
        ImageData d = read(png);
        int x0 = Math.max(0, x), y0 = Math.max(0, y), x1 = Math.min(d.width, x + w), y1 = Math.min(d.height, y + h);
        int cols = x1 - x0, rows = y1 - y0;
        if (cols <= 1 || rows <= 1) return 0;
        int[] prev = new int[cols], cur = new int[cols];
        int[] prevPix = new int[cols], curPix = new int[cols];
        int bg = d.palette.getPixel(background);
        int best = 0;
        for (int j = 0; j < rows; j++) {
            for (int i = 0; i < cols; i++) {
                int px = d.getPixel(x0 + i, y0 + j);
                curPix[i] = px;
                if (px == bg) {
                    cur[i] = 0;
                } else if (i > 0 && j > 0 && px == curPix[i - 1] && px == prevPix[i] && px == prevPix[i - 1]) {
                    cur[i] = 1 + Math.min(prev[i - 1], Math.min(prev[i], cur[i - 1]));
                } else {
                    cur[i] = 1;
                }
                best = Math.max(best, cur[i]);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
            t = prevPix;
            prevPix = curPix;
            curPix = t;
        }
        return (double) best * best / ((double) cols * rows);
    }
}
