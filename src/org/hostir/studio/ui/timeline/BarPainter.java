package org.hostir.studio.ui.timeline;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.Font;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Path;
import org.eclipse.swt.graphics.Rectangle;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.timeline.model.TimelineRows;

/**
 * Paints one lane of bars for a time window, at a cost bounded by the pixels of the lane rather than the bars of
 * the run: bars are read from the lane's primitive arrays, the first visible one is found by binary search, bars
 * that fall on pixels already painted are jumped over by a second binary search (on the running maximum of the
 * ends), and neighbouring sub-pixel bars of one kind merge into one rectangle, so at most one rectangle is kept
 * per pixel column. The rectangles are filled at the end, one path per kind (one fill call per colour instead of
 * one per bar, which is what cairo charges for), then the labels of the bars wide enough to hold three characters
 * are drawn over them ({@link BarLabel}: on the bar in the colour that reads on it, off it in the canvas's text
 * colour). Nothing is allocated per bar.
 */
final class BarPainter {
    private static final EventKind[] KINDS = EventKind.values();
    static final int LABEL_MIN_WIDTH = 30;

    private final Color[] fill = new Color[KINDS.length];
    /** Per kind, the rectangles of this paint as x, y, width, height. */
    private final int[][] rects = new int[KINDS.length][64];
    private final int[] rectCount = new int[KINDS.length];
    /** The labels of this paint: x1, x2, y, kind, and the bar. */
    private int[] labelAt = new int[64];
    private TimelineEvent[] labelOf = new TimelineEvent[16];
    private int labels;
    private final Color[] text = new Color[KINDS.length];
    /** The canvas's text colour: a label's parts that lie on the lane, off a thin bar. */
    private Color laneText;
    private double viewStartNs;
    private double nsPerPixel = 1;
    private int xMin;
    private int xMax;
    private double charWidth = 1;
    private int fontHeight;
    /**
     * Each label's width in {@link #measuredIn}, measured once: the same names are drawn on every paint. Kept by
     * this painter, so one canvas's, and dropped with it; emptied when the canvas's font changes.
     */
    private final Map<String, Integer> labelWidths = new HashMap<>();
    /** How many label widths are kept before they are measured anew (a zoom clips names to new lengths). */
    private static final int MEASURED_LABELS = 4096;
    private Font measuredIn;
    /** A lane's height (full or compact, as the canvas chose). */
    private int laneHeight = TimelineCanvas.ROW_HEIGHT;
    /** Counters of the last paint, for the benchmark: rectangles filled and bars looked at. */
    int rectangles;
    int visited;

    /**
     * Takes the colours, the window and the lane height for the paint that follows (colours are looked up once
     * per paint).
     */
    void begin(TimelineCanvas.Palette palette, double viewStartNs, double nsPerPixel, int xMin, int xMax,
               double charWidth, int fontHeight, int laneHeight) {
        for (EventKind k : KINDS) {
            fill[k.ordinal()] = palette.bar(k);
            text[k.ordinal()] = palette.barText(k);
        }
        laneText = palette.foreground();
        this.viewStartNs = viewStartNs;
        this.nsPerPixel = nsPerPixel;
        this.xMin = xMin;
        this.xMax = xMax;
        this.charWidth = charWidth;
        this.fontHeight = fontHeight;
        this.laneHeight = laneHeight;
        rectangles = 0;
        visited = 0;
        Arrays.fill(rectCount, 0);
        labels = 0;
    }

    /** Fills the rectangles collected since {@link #begin}, one path per colour, then draws the labels. */
    void finish(GC gc) {
        for (int k = 0; k < KINDS.length; k++) {
            int n = rectCount[k];
            if (n == 0) continue;
            int[] r = rects[k];
            gc.setBackground(fill[k]);
            if (n == 4) {
                gc.fillRectangle(r[0], r[1], r[2], r[3]);
                continue;
            }
            Path path = new Path(gc.getDevice());
            try {
                for (int i = 0; i < n; i += 4) path.addRectangle(r[i], r[i + 1], r[i + 2], r[i + 3]);
                gc.fillPath(path);
            } finally {
                path.dispose();
            }
        }
        for (int i = 0; i < labels; i++) {
            int x1 = labelAt[4 * i], x2 = labelAt[4 * i + 1], y = labelAt[4 * i + 2], k = labelAt[4 * i + 3];
            label(gc, labelOf[i].name(), x1, x2, k, y);
        }
        labels = 0;
        Arrays.fill(labelOf, null);
    }

    /** The pixel column of time {@code t}, clamped to just outside the window. */
    int x(long t) {
        double x = TimelineCanvas.LABEL_WIDTH + (t - viewStartNs) / nsPerPixel;
        return (int) Math.max(xMin - 1, Math.min(xMax + 1, x));
    }

    /** The gap above and below a bar of kind {@code kind} (an ordinal) in its row, from the kind's {@link EventKind.Bar}. */
    static int inset(int kind) { return INSETS[kind]; }

    private static final int[] INSETS = Arrays.stream(KINDS).mapToInt(k -> switch (k.bar()) {
        case FULL -> 3;
        case THIN -> 7;
    }).toArray();

    /** Paints the bars of {@code lane} between {@code fromNs} and {@code toNs} in the lane whose top is {@code y}. */
    void paint(GC gc, TimelineRows.Lane lane, TimelineEvent[] events, int y, long fromNs, long toNs) {
        int n = lane.size();
        long[] start = lane.start(), end = lane.end();
        byte[] kind = lane.kind();
        int painted = Integer.MIN_VALUE; // columns left of this are painted (or before the window)
        int runX = 0, runEnd = Integer.MIN_VALUE, runKind = -1;
        int i = lane.first(fromNs);
        while (i < n && start[i] <= toNs) {
            visited++;
            if (end[i] < fromNs) { // a bar that ended before the window, found because a longer one had not
                i++;
                continue;
            }
            int x1 = x(start[i]);
            int x2 = x(end[i]);
            int barEnd = Math.max(x1 + 1, x2);
            if (barEnd <= painted) {
                // on painted pixels: jump to the first bar that reaches past them
                i = nextUncovered(lane, i + 1, painted);
                continue;
            }
            int k = kind[i];
            int from = Math.max(x1, painted);
            if (x2 - x1 > LABEL_MIN_WIDTH) {
                // wide enough for a label: its own rectangle, then its name
                if (runKind >= 0) flush(gc, runX, runEnd, runKind, y);
                runKind = -1;
                flush(gc, from, barEnd, k, y);
                addLabel(events[lane.index()[i]], x1, x2, k, y);
            } else if (k == runKind && from <= runEnd) {
                runEnd = Math.max(runEnd, barEnd);
            } else {
                if (runKind >= 0) flush(gc, runX, runEnd, runKind, y);
                runX = from;
                runEnd = barEnd;
                runKind = k;
            }
            painted = Math.max(painted, barEnd);
            i++;
        }
        if (runKind >= 0) flush(gc, runX, runEnd, runKind, y);
    }

    /** The first bar at or after {@code from} that ends right of column {@code painted} or starts at or past it. */
    private int nextUncovered(TimelineRows.Lane lane, int from, int painted) {
        int lo = from, hi = lane.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (x(lane.maxEnd()[mid]) > painted || x(lane.start()[mid]) + 1 > painted) hi = mid; else lo = mid + 1;
        }
        return lo;
    }

    private void flush(GC gc, int x1, int x2, int kind, int y) {
        int inset = inset(kind);
        int n = rectCount[kind];
        if (n + 4 > rects[kind].length) rects[kind] = Arrays.copyOf(rects[kind], 2 * rects[kind].length);
        int[] r = rects[kind];
        r[n] = x1;
        r[n + 1] = y + inset;
        r[n + 2] = Math.max(1, x2 - x1);
        r[n + 3] = laneHeight - 2 * inset;
        rectCount[kind] = n + 4;
        rectangles++;
    }

    private void addLabel(TimelineEvent e, int x1, int x2, int kind, int y) {
        if (4 * labels + 4 > labelAt.length) labelAt = Arrays.copyOf(labelAt, 2 * labelAt.length);
        if (labels == labelOf.length) labelOf = Arrays.copyOf(labelOf, 2 * labelOf.length);
        labelAt[4 * labels] = x1;
        labelAt[4 * labels + 1] = x2;
        labelAt[4 * labels + 2] = y;
        labelAt[4 * labels + 3] = kind;
        labelOf[labels++] = e;
    }

    private void label(GC gc, String name, int x1, int x2, int kind, int y) {
        int left = Math.max(x1, TimelineCanvas.LABEL_WIDTH);
        int chars = (int) ((Math.min(x2, xMax) - left - 6) / charWidth);
        if (chars < 3) return;
        int inset = inset(kind);
        String shown = TimelineCanvas.clip(name, chars);
        BarLabel.draw(gc, shown, width(gc, shown), left + 3, y + (laneHeight - fontHeight) / 2, fontHeight,
                new Rectangle(x1, y + inset, x2 - x1, laneHeight - 2 * inset), text[kind], laneText);
    }

    /** {@code text}'s width in the GC's font, measured once per font (a zoom clips names anew: kept bounded). */
    private int width(GC gc, String text) {
        Font font = gc.getFont();
        // a disposed font's handle may be reused by the next one, which Font.equals would take for the same font
        if (measuredIn == null || measuredIn.isDisposed() || !font.equals(measuredIn)
                || labelWidths.size() > MEASURED_LABELS) {
            labelWidths.clear();
            measuredIn = font;
        }
        return labelWidths.computeIfAbsent(text, t -> gc.stringExtent(t).x);
    }
}
