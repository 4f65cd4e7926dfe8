package org.hostir.studio.ui.tests.theme;

import java.io.File;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.hostir.studio.ui.tests.journeys.Screens;

/**
 * How readable a region of a screenshot is, measured on its pixels as a person sees them: the region is cut into
 * cells of a text line's height; a cell's own background is its most frequent colour, its ink the pixels that
 * differ from it, and the cell reads when its strongest ink has a WCAG contrast ratio of at least
 * {@value #READABLE} against that background (what WCAG asks of large text; anti-aliasing softens only the edges
 * of a glyph, its core keeps the text's colour). Light text left on a light background, or dark magenta on
 * near-black, makes cells of ink that do not read, or no ink at all.
 *
 * @param background the region's most frequent colour (the view's background)
 * @param inkCells   cells with ink (at least a few pixels unlike their background)
 * @param readable   of those, the cells whose ink reads
 */
public record Legibility(RGB background, int inkCells, int readable) {
    static final double READABLE = 3.0;
    private static final int CELL = 14;

    /** The share of the ink cells that do not read (0 when there is no ink). */
    public double unreadable() { return inkCells == 0 ? 0 : 1 - (double) readable / inkCells; }

    /** Whether the region's background is dark (WCAG luminance under 0.2). */
    public boolean dark() { return Screens.luminance(background) < 0.2; }

    public static Legibility of(File png, Rectangle r) {
        ImageData d = new ImageLoader().load(png.getPath())[0];
        int x0 = Math.max(0, r.x), y0 = Math.max(0, r.y);
        int x1 = Math.min(d.width, r.x + r.width), y1 = Math.min(d.height, r.y + r.height);
        Map<Integer, Integer> all = new HashMap<>();
        int ink = 0, readable = 0;
        for (int cy = y0; cy + CELL <= y1; cy += CELL) {
            for (int cx = x0; cx + CELL <= x1; cx += CELL) {
                Map<Integer, Integer> counts = new HashMap<>();
                for (int y = cy; y < cy + CELL; y++) {
                    for (int x = cx; x < cx + CELL; x++) counts.merge(d.getPixel(x, y), 1, Integer::sum);
                }
                counts.forEach((px, n) -> all.merge(px, n, Integer::sum));
                RGB back = d.palette.getRGB(mostFrequent(counts));
                int differing = 0;
                double best = 1;
                for (var e : counts.entrySet()) {
                    double c = contrast(d.palette.getRGB(e.getKey()), back);
                    if (c > 1.15) differing += e.getValue();
                    best = Math.max(best, c);
                }
                if (differing < 4) continue;
                ink++;
                if (best >= READABLE) readable++;
            }
        }
        RGB background = all.isEmpty() ? new RGB(0, 0, 0) : d.palette.getRGB(mostFrequent(all));
        return new Legibility(background, ink, readable);
    }

    private static int mostFrequent(Map<Integer, Integer> counts) {
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    /** WCAG contrast ratio, 1 to 21. */
    public static double contrast(RGB a, RGB b) {
        double la = Screens.luminance(a), lb = Screens.luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "background %s (%s), %d ink cells, %.0f%% unreadable", background,
                dark() ? "dark" : "light", inkCells, 100 * unreadable());
    }
}
