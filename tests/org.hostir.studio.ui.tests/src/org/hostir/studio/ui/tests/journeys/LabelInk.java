package org.hostir.studio.ui.tests.journeys;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Rectangle;
import org.hostir.studio.ui.studio.Legibility;

/**
 * How a label drawn over a picture reads, measured against what lies under each of its pixels: the same picture
 * without the label (a twin region, {@code dx}, {@code dy} away, that holds the same things unlabelled). The
 * label's pixels are those unlike the twin's; each is set against the twin's pixel under it, by WCAG contrast
 * ({@link Legibility#contrast}). They are grouped by column block (a character's width) and by what lies under
 * them, so a glyph half on a thin bar and half on the lane counts twice: a dark label on a grey bar reads where it
 * is on the bar and not where it sticks out onto a near-black lane (a cell of {@link Legibility} would take the
 * bar as the background of both). A group reads when its strongest pixel reaches {@link Legibility#READABLE}
 * (anti-aliasing softens only a glyph's edges).
 *
 * @param pixels   the label's pixels (unlike the twin's)
 * @param groups   groups of at least {@value #LEAST} of them
 * @param readable the groups that read
 * @param worst    the weakest group's strongest contrast (21 when there is none)
 */
public record LabelInk(int pixels, int groups, int readable, double worst) {
    private static final int BLOCK = 8;
    /** Fewer pixels than this under one colour in a block are a glyph's anti-aliased fringe, not a part of it. */
    static final int LEAST = 3;

    public static LabelInk of(ImageData d, Rectangle box, int dx, int dy) {
        Map<Long, double[]> group = new HashMap<>();   // block and colour under it -> {pixels, strongest}
        int pixels = 0;
        for (int y = box.y; y < box.y + box.height; y++) {
            for (int x = box.x; x < box.x + box.width; x++) {
                int shown = d.getPixel(x, y), under = d.getPixel(x + dx, y + dy);
                if (shown == under) continue;
                pixels++;
                double c = Legibility.contrast(d.palette.getRGB(shown), d.palette.getRGB(under));
                double[] g = group.computeIfAbsent(((long) ((x - box.x) / BLOCK) << 32) | (under & 0xffffffffL),
                        k -> new double[2]);
                g[0]++;
                g[1] = Math.max(g[1], c);
            }
        }
        int groups = 0, readable = 0;
        double worst = 21;
        for (double[] g : group.values()) {
            if (g[0] < LEAST) continue;
            groups++;
            if (g[1] >= Legibility.READABLE) readable++;
            worst = Math.min(worst, g[1]);
        }
        return new LabelInk(pixels, groups, readable, worst);
    }

    /** The share of the groups that do not read (0 when there is none). */
    public double unreadable() { return groups == 0 ? 0 : 1 - (double) readable / groups; }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d label pixels in %d groups, %d read (%.0f%% do not), weakest %.2f:1",
                pixels, groups, readable, 100 * unreadable(), worst);
    }
}
