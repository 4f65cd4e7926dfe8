package org.hostir.studio.ui.tests.timeline;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.analysis.TraceComparison.BarPair;
import org.hostir.studio.ui.timeline.model.DifferenceTrack;
import org.hostir.studio.ui.timeline.model.TimelineRows;
import org.junit.jupiter.api.Test;

/**
 * The Timeline's hit tests ({@code TimelineRows.Row.at}, {@code DifferenceTrack.at}) on generated traces, against
 * an oracle written plainly here: it scans every bar (no index, no early stop) and says which pixel columns a bar
 * is painted in from whole column numbers (its start's column up to the column before its end's, at least its
 * start's), where the code compares times. The bar a person means in a column: one painted there (in a row, the
 * first by lane and start unless a later one lies inside it and is shorter; in a difference track the shortest),
 * else the nearest to the column's middle within the slack, then the shortest, then the first by lane and start.
 * Seeded: a failure names its case and replays. The model is free of SWT: no workbench is needed.
 */
public class HitTestPropertyTest {
    /** Nanoseconds per pixel: below one (zoomed in), one, odd, and wide (a whole run on the screen). */
    private static final double[] SCALES = {0.125, 0.5, 1, 3, 10, 250, 1000, 40960};
    private static final int CASES = 2000, QUERIES = 10;

    @Test
    public void rowsAndDifferenceTracksNameTheBarUnderThePixel() {
        long began = System.nanoTime();
        int hits = 0;
        for (int c = 0; c < CASES; c++) {
            Random r = new Random(1700 + c);
            double w = SCALES[r.nextInt(SCALES.length)];
            List<TimelineEvent> bars = trace(r, w);
            TimelineRows.Row row = new TimelineRows(new Timeline(bars, Map.of())).rows().getFirst();
            List<BarPair> pairs = bars.stream().map(b -> new BarPair(b.name(), b, b)).toList();
            DifferenceTrack track = new DifferenceTrack(0, pairs, 0);
            long last = bars.stream().mapToLong(TimelineEvent::endNs).max().orElseThrow();
            for (int q = 0; q < QUERIES; q++) {
                long column = r.nextInt((int) (last / w) + 8) - 3;
                long slack = Math.round(w * r.nextInt(4));
                int lane = r.nextInt(3) - 1;
                double from = column * w, to = (column + 1) * w;
                final int k = c;
                java.util.function.Supplier<String> where = () -> "case " + k + " (" + w + " ns/px), column " + column
                        + ", slack " + slack + ", lane " + lane + ", bars " + bars.stream().map(b -> b.name() + "["
                        + b.startNs() + "," + b.endNs() + "]").toList();
                TimelineEvent meant = rowOracle(row, w, column, slack, lane);
                assertSame(meant, row.at(from, to, slack, lane), where);
                BarPair pair = trackOracle(pairs, w, column, slack);
                assertSame(pair, track.at(from, to, slack), () -> "difference track, " + where.get());
                if (meant != null) hits++;
            }
        }
        double ms = (System.nanoTime() - began) / 1e6;
        System.out.println("HitTestPropertyTest: " + CASES * QUERIES + " columns, " + hits + " on a bar, " + ms + " ms");
        assertTrue(hits > CASES, "the generated columns mostly miss the bars: " + hits);
    }

    /** One row's bars: sub-pixel to wide, with gaps and overlaps (a second lane), sorted by start. */
    private static List<TimelineEvent> trace(Random r, double w) {
        int n = 1 + r.nextInt(30);
        List<TimelineEvent> bars = new ArrayList<>();
        double t = r.nextInt(50) * w;
        for (int i = 0; i < n; i++) {
            double width = switch (r.nextInt(5)) {
                case 0 -> 0;
                case 1 -> w * r.nextDouble();        // sub-pixel
                case 2 -> w * (1 + r.nextInt(3));    // a few pixels
                case 3 -> w * (5 + r.nextInt(60));   // wide
                default -> r.nextInt(1000);          // any
            };
            long start = Math.round(t), end = Math.round(t + width);
            bars.add(new TimelineEvent(0, 0, EventKind.KERNEL, "bar" + i, i, 0, start, Math.max(start, end), 0, 0,
                    -1, 0));
            t = switch (r.nextInt(4)) {
                case 0 -> t + width;                          // touching
                case 1 -> t + width * r.nextDouble();         // overlapping: the next bar starts inside this one
                case 2 -> t + width + w * r.nextDouble();     // a sub-pixel gap
                default -> t + width + w * r.nextInt(40);     // a gap
            };
        }
        bars.sort(Comparator.comparingLong(TimelineEvent::startNs));
        return bars;
    }

    /** Whether the bar is painted in pixel column {@code c} at {@code w} ns/px, from whole column numbers. */
    private static boolean painted(TimelineEvent b, double w, long c) {
        long first = (long) Math.floor(b.startNs() / w);
        long last = Math.max(first, (long) Math.floor(b.endNs() / w) - 1);
        return first <= c && c <= last;
    }

    /** The distance from the column's middle to the bar (0 inside it). */
    private static double gap(TimelineEvent b, double w, long c) {
        double mid = (c + 0.5) * w;
        return Math.max(0, Math.max(b.startNs() - mid, mid - b.endNs()));
    }

    /** The row's bar meant in column {@code c}: bars in lane order, then by start. */
    private static TimelineEvent rowOracle(TimelineRows.Row row, double w, long c, long slack, int lane) {
        List<TimelineEvent> order = new ArrayList<>();
        for (int l = 0; l < 2; l++) {
            for (int i = 0; i < row.events().length; i++) {
                if (row.lanes()[i] == l && (lane < 0 || lane == l)) order.add(row.events()[i]);
            }
        }
        TimelineEvent chosen = null;
        for (TimelineEvent b : order) {
            if (!painted(b, w, c)) continue;
            boolean inside = chosen != null && b.startNs() >= chosen.startNs() && b.endNs() <= chosen.endNs()
                    && b.durationNs() < chosen.durationNs();
            if (chosen == null || inside) chosen = b;
        }
        return chosen != null ? chosen : nearest(order, w, c, slack);
    }

    /** The difference track's pair meant in column {@code c}: the shortest painted, else the nearest. */
    private static BarPair trackOracle(List<BarPair> pairs, double w, long c, long slack) {
        List<TimelineEvent> order = pairs.stream().map(BarPair::a).toList();
        TimelineEvent chosen = null;
        for (TimelineEvent b : order) {
            if (painted(b, w, c) && (chosen == null || b.durationNs() < chosen.durationNs())) chosen = b;
        }
        if (chosen == null) chosen = nearest(order, w, c, slack);
        for (BarPair p : pairs) if (p.a() == chosen) return p;
        return null;
    }

    /** The bar nearest the column's middle within {@code slack}, then the shortest, then the first. */
    private static TimelineEvent nearest(List<TimelineEvent> order, double w, long c, long slack) {
        TimelineEvent chosen = null;
        for (TimelineEvent b : order) {
            double g = gap(b, w, c);
            if (g > slack) continue;
            if (chosen == null || g < gap(chosen, w, c)
                    || g == gap(chosen, w, c) && b.durationNs() < chosen.durationNs()) chosen = b;
        }
        return chosen;
    }
}
