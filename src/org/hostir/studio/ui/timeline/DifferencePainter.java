package org.hostir.studio.ui.timeline;

import java.util.List;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.hostir.studio.trace.TimeText;
import org.hostir.studio.trace.analysis.TraceComparison.BarPair;
import org.hostir.studio.ui.timeline.model.DifferenceTrack;

/**
 * The difference tracks under the stream rows while two runs are compared: per rank, each of A's paired bars drawn
 * at its own time as a bar of B − A from the track's middle line, up in the theme's "slower" colour where B took
 * longer, down in its "faster" colour where B took less (a bar B lacks counts as B's 0), scaled to the largest
 * difference, which the label states.
 */
final class DifferencePainter {

    /** Paints {@code tracks} one under the other from canvas pixel {@code top}. */
    void paint(GC gc, TimelineCanvas.Palette palette, List<DifferenceTrack> tracks, int top, Rectangle area,
               TimelineCanvas canvas, double charWidth, int fontHeight, int height) {
        for (int i = 0; i < tracks.size(); i++) {
            int y = top + i * height;
            if (y > area.height || y + height < TimelineCanvas.RULER_HEIGHT) continue;
            DifferenceTrack t = tracks.get(i);
            gc.setForeground(palette.grid());
            gc.drawLine(0, y, area.width, y);
            int middle = y + height / 2;
            gc.drawLine(TimelineCanvas.LABEL_WIDTH, middle, area.width, middle);
            bars(gc, palette, t, middle, height / 2 - 3, area, canvas);
            CounterPainter.label(gc, palette, y, height, "rank " + t.rank() + " B \u2212 A",
                    "\u00b1" + time(t.maxAbsNs()), charWidth, fontHeight);
        }
    }

    private static void bars(GC gc, TimelineCanvas.Palette palette, DifferenceTrack t, int middle, int room,
                             Rectangle area, TimelineCanvas canvas) {
        if (t.maxAbsNs() <= 0) return;
        for (BarPair p : t.pairs()) {
            int x1 = Math.max(TimelineCanvas.LABEL_WIDTH, canvas.xOf(p.a().startNs()));
            int x2 = Math.min(area.width, canvas.xOf(p.a().endNs()));
            if (x1 > area.width || x2 < TimelineCanvas.LABEL_WIDTH) continue;
            long d = p.deltaNs();
            int h = (int) Math.max(d == 0 ? 0 : 1, Math.round((double) Math.abs(d) * room / t.maxAbsNs()));
            gc.setBackground(palette.difference(d > 0));
            gc.fillRectangle(x1, d > 0 ? middle - h : middle + 1, Math.max(1, x2 - x1), h);
        }
    }

    /** What the hover shows over a difference bar: the key, both times and B − A. */
    static String hoverText(BarPair p, long originNs) {
        String b = p.b() == null ? "none (not in B)" : time(p.b().durationNs());
        return p.key() + "\nrank " + p.a().rank() + ", A at " + time(p.a().startNs() - originNs) + ": "
                + time(p.a().durationNs()) + "\nB: " + b + "\nB \u2212 A: " + time(p.deltaNs());
    }

    private static String time(long ns) {
        return TimeText.of(Math.abs(ns)).format(ns);
    }
}
