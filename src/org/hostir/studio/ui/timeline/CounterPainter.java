package org.hostir.studio.ui.timeline;

import java.util.List;
import java.util.Locale;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.hostir.studio.trace.Counter;
import org.hostir.studio.trace.TimeText;

/**
 * The counter tracks under the stream rows, as Perfetto draws counters: one track per counter (memory in use, bytes
 * in flight, per rank), each value a step that holds until the next sample, filled from the track's base up to
 * the value, scaled to the counter's peak, which the label states. Only the samples in the window are drawn.
 */
public final class CounterPainter {
    static final int TRACK_HEIGHT = 36;

    CounterPainter() {
    }

    /** Paints {@code counters} one under the other from canvas pixel {@code top}. */
    void paint(GC gc, TimelineCanvas.Palette palette, List<Counter> counters, int top, Rectangle area,
               TimelineCanvas canvas, double charWidth, int fontHeight, int height) {
        for (int i = 0; i < counters.size(); i++) {
            int y = top + i * height;
            if (y > area.height || y + height < TimelineCanvas.RULER_HEIGHT) continue;
            Counter c = counters.get(i);
            gc.setForeground(palette.grid());
            gc.drawLine(0, y, area.width, y);
            steps(gc, palette, c, y, height, area, canvas);
            label(gc, palette, y, height, "rank " + c.rank() + " " + c.name(), "peak " + format(c.peak(), c.unit()),
                    charWidth, fontHeight);
        }
    }

    /**
     * A track's label over the left margin (drawn after the track, so a bar never covers it): two lines, or the
     * first only in a track too low for two (a compact one; the second is in the track's hover text).
     */
    static void label(GC gc, TimelineCanvas.Palette palette, int y, int height, String first, String second,
                      double charWidth, int fontHeight) {
        gc.setBackground(palette.background());
        gc.fillRectangle(0, y + 1, TimelineCanvas.LABEL_WIDTH - 4, height - 1);
        gc.setForeground(palette.foreground());
        double chars = (TimelineCanvas.LABEL_WIDTH - TimelineCanvas.TOGGLE_WIDTH - 6) / charWidth;
        int x = TimelineCanvas.TOGGLE_WIDTH + 2;
        if (height < 2 * fontHeight + 2) {
            gc.drawString(TimelineCanvas.clip(first, chars), x, y + Math.max(1, (height - fontHeight) / 2), true);
            return;
        }
        gc.drawString(TimelineCanvas.clip(first, chars), x, y + 2, true);
        gc.drawString(TimelineCanvas.clip(second, chars), x, y + 2 + fontHeight, true);
    }

    /** The steps of one counter in the window, filled in the counter colour, the value's line on top. */
    private static void steps(GC gc, TimelineCanvas.Palette palette, Counter c, int y, int height, Rectangle area,
                              TimelineCanvas canvas) {
        long peak = c.peak();
        if (peak <= 0 || c.samples().isEmpty()) return;
        int base = y + height - 3, room = height - 8;
        List<Counter.Sample> s = c.samples();
        int from = Math.max(0, index(s, (long) Math.floor(canvas.timeAt(TimelineCanvas.LABEL_WIDTH))));
        gc.setBackground(palette.counter());
        gc.setForeground(palette.counter());
        for (int i = from; i < s.size(); i++) {
            int x1 = Math.max(TimelineCanvas.LABEL_WIDTH, canvas.xOf(s.get(i).timeNs()));
            if (x1 > area.width) break;
            int x2 = i + 1 < s.size() ? Math.min(area.width, canvas.xOf(s.get(i + 1).timeNs())) : x1;
            int h = (int) Math.round((double) Math.max(0, s.get(i).value()) * room / peak);
            gc.setAlpha(110);
            if (x2 > x1 && h > 0) gc.fillRectangle(x1, base - h, x2 - x1, h);
            gc.setAlpha(255);
            gc.drawLine(x1, base - h, Math.max(x1, x2), base - h);
        }
    }

    /** The index of the last sample at or before {@code timeNs}; -1 before the first. */
    static int index(List<Counter.Sample> samples, long timeNs) {
        int lo = 0, hi = samples.size() - 1, found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (samples.get(mid).timeNs() <= timeNs) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** What the hover shows over a counter at {@code timeNs}: its value there, or that it has no sample yet. */
    static String hoverText(Counter c, long timeNs, long originNs) {
        int i = index(c.samples(), timeNs);
        String where = "rank " + c.rank() + " " + c.name();
        if (i < 0) return where + "\nno sample before " + time(timeNs - originNs);
        Counter.Sample s = c.samples().get(i);
        return where + "\n" + format(s.value(), c.unit()) + " from " + time(s.timeNs() - originNs)
                + (i + 1 < c.samples().size() ? " to " + time(c.samples().get(i + 1).timeNs() - originNs) : " on")
                + "\npeak " + format(c.peak(), c.unit());
    }

    /** A value in its unit; bytes in binary multiples, as memory is counted. */
    public static String format(long value, String unit) {
        if (!unit.equals("bytes") || Math.abs(value) < 1024) return value + " " + unit;
        String[] units = { "KiB", "MiB", "GiB", "TiB" };
        double v = value;
        int u = -1;
        while (Math.abs(v) >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.2f %s", v, units[u]);
    }

    private static String time(long ns) {
        return TimeText.of(ns).format(ns);
    }
}
