package org.hostir.studio.ui.timeline;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.FontMetrics;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.ScrollBar;
import org.hostir.studio.trace.Counter;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.ui.timeline.model.RankGroups;
import org.hostir.studio.ui.timeline.model.TimeRuler;
import org.hostir.studio.ui.timeline.model.DifferenceTrack;
import org.hostir.studio.ui.timeline.model.TimelineRows;
import org.hostir.studio.ui.timeline.model.EventDetails;

/**
 * The timeline widget: rows of bars painted with plain GC calls. Only what is on screen is painted: rows outside
 * the vertical window are skipped, bars are found by binary search on start time, and bars narrower than a pixel
 * that fall on a pixel already painted are skipped, so 100,000 events cost little more than what fits on screen.
 * Mouse and keys are {@link TimelineInput}'s, the send-to-receive arrows {@link FlowPainter}'s; hovering shows a
 * bar's details; the triangle on a rank's first row (or C) folds the rank to that row.
 */
public final class TimelineCanvas {
    /** Where the colours come from (the view gives the theme's); the widget knows no registry. */
    public interface Palette {
        Color bar(EventKind kind);

        Color barText(EventKind kind);

        Color background();

        Color alternate();

        Color foreground();

        Color grid();

        Color arrow();

        Color selection();

        /** The outline of the critical path's bars and the lines between them. */
        Color criticalPath();

        /** The outline of the bars a table row stands for (a kernel's, a compared op's). */
        Color highlight();

        /** The counter tracks' steps. */
        Color counter();

        /** A difference track's bar: B took longer than A ({@code slower}), or less. */
        Color difference(boolean slower);
    }

    static final int LABEL_WIDTH = 150;
    static final int RULER_HEIGHT = 26;
    static final int ROW_HEIGHT = 24;
    /**
     * The least heights of a lane and of a track where the view is too short for every row and track at full
     * height: a bar's name and a track's one-line label still fit (issue 35: at 1280 x 800 a 2-rank run's memory
     * tracks took a wheel notch to be seen).
     */
    static final int MIN_ROW_HEIGHT = 16, MIN_TRACK_HEIGHT = 16;
    /** The heights in use: full, or compact in a short view. */
    private int laneHeight = ROW_HEIGHT, trackHeight = CounterPainter.TRACK_HEIGHT;
    /** The shown rows' height at full lane height: what the view is asked for, whichever heights are in use. */
    private int fullRowsHeight;
    /** The triangle at the left of a rank's header row: a click there folds or unfolds the rank. */
    static final int TOGGLE_WIDTH = 16;

    private final Canvas canvas;
    private final Palette palette;
    private TimelineRows rows;
    /** Top and height of each row in content pixels (stacked rows are two lanes high, hidden ones 0), the total. */
    private int[] rowTop = new int[0];
    private int[] rowHeight = new int[0];
    private final RankGroups groups = new RankGroups();
    private int contentHeight;
    private double viewStartNs;
    private double nsPerPixel = 1;
    private boolean fitted;
    /** Whether the window still shows the whole run as fit() left it: a resize or maximize then refits. */
    private boolean followFit = true;
    private TimelineEvent selected;
    /** The critical path's bars in path order (drawn outlined and linked), or empty. */
    private List<TimelineEvent> criticalPath = List.of();
    /** The bars a table row stands for (outlined), or empty. */
    private List<TimelineEvent> highlighted = List.of();
    /** The counter tracks drawn under the rows, or empty. */
    private List<Counter> counters = List.of();
    private final CounterPainter counterPainter = new CounterPainter();
    /** The difference tracks drawn under the rows while comparing (above the counters), or empty. */
    private List<DifferenceTrack> differences = List.of();
    private final DifferencePainter differencePainter = new DifferencePainter();
    private Consumer<TimelineEvent> selectionListener = e -> { };
    /** The time range chosen with Shift+drag (Perfetto's area selection), or null; and who wants to know. */
    private long[] range;
    private Consumer<long[]> rangeListener = r -> { };

    private final BarPainter bars = new BarPainter();
    private final FlowPainter flows = new FlowPainter();

    public TimelineCanvas(Composite parent, Palette palette) {
        this.palette = palette;
        canvas = new Canvas(parent, SWT.DOUBLE_BUFFERED | SWT.NO_BACKGROUND | SWT.V_SCROLL);
        canvas.addListener(SWT.Paint, e -> paint(e.gc, canvas.getClientArea()));
        canvas.addListener(SWT.Resize, e -> resized());
        new TimelineInput(this);
        canvas.getVerticalBar().addListener(SWT.Selection, e -> canvas.redraw());
        new BarToolTip(this);
    }

    public Canvas control() { return canvas; }

    public void setRows(TimelineRows newRows) {
        rows = newRows;
        range = null;
        groups.clear();
        layoutRows();
        selected = null;
        criticalPath = List.of();
        highlighted = List.of();
        counters = List.of();
        differences = List.of();
        fitted = false;
        // a new timeline opens at its first row (the last one's scrolling put rank 0 above the window)
        canvas.getVerticalBar().setSelection(0);
        resized();
        canvas.redraw();
    }

    /** Each row's top and height from the rows, the folded ranks and the canvas's height. */
    private void layoutRows() {
        chooseHeights();
        int n = rows == null ? 0 : rows.rows().size();
        rowTop = new int[n];
        rowHeight = new int[n];
        int y = 0;
        for (int i = 0; i < n; i++) {
            rowTop[i] = y;
            rowHeight[i] = groups.hidden(rows.rows(), i) ? 0 : height(rows.rows().get(i));
            y += rowHeight[i];
        }
        contentHeight = y;
    }

    /**
     * Full heights where the ruler, every shown row and track fit the canvas at them; else, where they fit at the
     * least heights, lanes and tracks shrunk alike to fit it (the tracks taking what the lanes leave), so that a
     * short view (the Timeline beside its details at 1280 x 800) shows a small run whole without scrolling. Folded
     * ranks count as unfolded: folding a rank moves the rows below it up and leaves their heights alone.
     */
    private void chooseHeights() {
        int lanes = 0;
        if (rows != null) {
            for (TimelineRows.Row row : rows.rows()) lanes += row.stacked() ? 2 : 1;
        }
        int tracks = differences.size() + counters.size();
        int room = canvas.getClientArea().height - RULER_HEIGHT;
        int full = lanes * ROW_HEIGHT + tracks * CounterPainter.TRACK_HEIGHT;
        fullRowsHeight = lanes * ROW_HEIGHT;
        laneHeight = ROW_HEIGHT;
        trackHeight = CounterPainter.TRACK_HEIGHT;
        // a run that scrolls even at the least heights (64 ranks) keeps the full ones: shrinking would not show it whole
        if (room <= 0 || full <= room || lanes * MIN_ROW_HEIGHT + tracks * MIN_TRACK_HEIGHT > room) return;
        laneHeight = Math.max(MIN_ROW_HEIGHT, ROW_HEIGHT * room / full);
        if (tracks > 0) {
            int left = (room - lanes * laneHeight) / tracks;
            trackHeight = Math.max(MIN_TRACK_HEIGHT, Math.min(CounterPainter.TRACK_HEIGHT, left));
        }
    }

    // ---- rank groups ----

    /** Folds {@code rank} to its header row, or unfolds it (the triangle on the header, or C). */
    public void toggleRank(int rank) {
        if (rows == null) return;
        groups.toggle(rank);
        layoutRows();
        resized();
        canvas.redraw();
    }

    /** Whether {@code rank} is folded to its header row. */
    public boolean collapsed(int rank) { return groups.collapsed(rank); }

    /** Whether row {@code r} of {@link #rows()} is shown (not folded away). */
    public boolean rowShown(int r) { return r >= 0 && r < rowHeight.length && rowHeight[r] > 0; }

    /** Where the triangle of {@code rank}'s header is on the canvas ({x, y}), or null (no such rank, or one row). */
    public int[] rankToggle(int rank) {
        if (rows == null) return null;
        for (int r = 0; r < rowTop.length; r++) {
            if (rows.rows().get(r).rank() == rank && RankGroups.header(rows.rows(), r)) {
                if (RankGroups.rowsOf(rows.rows(), rank) < 2) return null;
                return new int[] { TOGGLE_WIDTH / 2 + 2, RULER_HEIGHT + rowTop[r] - scroll() + laneHeight / 2 };
            }
        }
        return null;
    }

    public TimelineRows rows() { return rows; }

    /**
     * The height that shows every row, the ruler and the legend, in pixels: what the view gives the rows first. The
     * counter tracks come after the analyses, under the rows; where the view has no room left for them, the rows
     * scroll to them (the layout does not jump when they arrive).
     */
    public int preferredHeight() { return RULER_HEIGHT + fullRowsHeight + 2 * ROW_HEIGHT; }

    /** The rows', the difference tracks' and the counter tracks' height in pixels. */
    private int tracksHeight() {
        return contentHeight + (shownDifferences().size() + shownCounters().size()) * trackHeight;
    }

    /** The counter tracks of the ranks not folded: a track folds with its rank. */
    public List<Counter> shownCounters() {
        return counters.stream().filter(c -> !groups.collapsed(c.rank())).toList();
    }

    /** The difference tracks of the ranks not folded. */
    public List<DifferenceTrack> shownDifferences() {
        return differences.stream().filter(t -> !groups.collapsed(t.rank())).toList();
    }

    public void onSelection(Consumer<TimelineEvent> listener) { selectionListener = listener; }

    public TimelineEvent selected() { return selected; }

    public void onRange(Consumer<long[]> listener) { rangeListener = listener; }

    /** The chosen range {from, to} in trace nanoseconds, or null. */
    public long[] range() { return range == null ? null : range.clone(); }

    /** Chooses a range (null clears it), as Shift+drag does. */
    public void selectRange(long[] r) {
        range = r == null ? null : new long[] { Math.min(r[0], r[1]), Math.max(r[0], r[1]) };
        canvas.redraw();
        rangeListener.accept(range());
    }

    public void select(TimelineEvent e) {
        selected = e;
        canvas.redraw();
        selectionListener.accept(e);
    }

    // ---- view window ----

    /** Shows the whole run, with a small margin. */
    public void fit() {
        if (rows == null) return;
        int w = Math.max(1, canvas.getClientArea().width - LABEL_WIDTH - 10);
        double span = rows.endNs() - rows.startNs();
        nsPerPixel = Math.max(1e-3, span * 1.02 / w);
        viewStartNs = rows.startNs() - span * 0.01;
        fitted = canvas.getClientArea().width > LABEL_WIDTH;
        followFit = true;
        canvas.redraw();
    }

    /** Zooms by {@code factor} (< 1 zooms in) around the pixel column {@code x}. */
    public void zoom(double factor, int x) {
        double t = timeAt(x);
        followFit = false;
        nsPerPixel = Math.max(1e-3, nsPerPixel * factor);
        viewStartNs = t - (x - LABEL_WIDTH) * nsPerPixel;
        canvas.redraw();
    }

    /** Scrolls so that {@code e} is on screen: centred in time when outside the window, its row in view. */
    public void reveal(TimelineEvent e) {
        if (rows == null) return;
        int width = canvas.getClientArea().width;
        int x1 = LABEL_WIDTH + (int) ((e.startNs() - viewStartNs) / nsPerPixel);
        int x2 = LABEL_WIDTH + (int) ((e.endNs() - viewStartNs) / nsPerPixel);
        if (x2 < LABEL_WIDTH || x1 > width) {
            followFit = false;
            viewStartNs = (e.startNs() + e.endNs()) / 2.0 - (width - LABEL_WIDTH) / 2.0 * nsPerPixel;
        }
        int r = rows.rowOf(e);
        if (r >= 0 && !rowShown(r)) toggleRank(e.rank());   // a search hit in a folded rank unfolds it
        ScrollBar bar = canvas.getVerticalBar();
        int visible = canvas.getClientArea().height - RULER_HEIGHT;
        if (r >= 0 && bar.getVisible() && (rowTop[r] < scroll() || rowTop[r] + laneHeight > scroll() + visible)) {
            bar.setSelection(Math.max(0, rowTop[r] - visible / 3));
        }
        canvas.redraw();
    }

    /** Moves the window by {@code pixels} (positive: later in time). */
    public void pan(int pixels) {
        followFit = false;
        viewStartNs += pixels * nsPerPixel;
        canvas.redraw();
    }

    public double viewStartNs() { return viewStartNs; }

    /** What the last paint did, for the benchmark: rectangles filled, bars looked at, arrows drawn. */
    public String paintCounts() {
        return bars.rectangles + " rectangles, " + bars.visited + " bars looked at, " + flows.arrows() + " arrows";
    }

    public double nsPerPixel() { return nsPerPixel; }

    double timeAt(int x) { return viewStartNs + (x - LABEL_WIDTH) * nsPerPixel; }

    private int height(TimelineRows.Row row) { return row.stacked() ? 2 * laneHeight : laneHeight; }

    /** The row at content pixel {@code y}, or -1. */
    private int rowAt(int y) {
        if (y < 0 || y >= contentHeight) return -1;
        int lo = 0, hi = rowTop.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (rowTop[mid] <= y) lo = mid; else hi = mid - 1;
        }
        return lo;
    }

    private int scroll() {
        return canvas.getVerticalBar().getVisible() ? canvas.getVerticalBar().getSelection() : 0;
    }

    private void resized() {
        layoutRows();   // the heights follow the canvas's
        ScrollBar bar = canvas.getVerticalBar();
        Rectangle area = canvas.getClientArea();
        int content = rows == null ? 0 : tracksHeight() + 3 * ROW_HEIGHT;
        int visible = Math.max(1, area.height - RULER_HEIGHT);
        bar.setMaximum(Math.max(content, 1));
        bar.setThumb(Math.min(visible, Math.max(content, 1)));
        bar.setPageIncrement(visible);
        bar.setIncrement(ROW_HEIGHT);
        bar.setVisible(content > visible);
        // a new size (the view resized or maximized) refits unless the user has zoomed or panned since
        if ((!fitted || followFit) && rows != null) fit();
    }

    // ---- painting ----

    /** Paints the visible part of the timeline into {@code gc} over {@code area} (also used for PNG export). */
    public void paint(GC gc, Rectangle area) {
        gc.setBackground(palette.background());
        gc.fillRectangle(area);
        if (rows == null || rows.rows().isEmpty()) {
            gc.setForeground(palette.foreground());
            gc.drawString(rows == null ? "No timeline: run a fusion (Run on CPU) or open a Chrome trace."
                    : "The timeline has no events.", 10, 10, true);
            return;
        }
        FontMetrics fm = gc.getFontMetrics();
        double charWidth = Math.max(1, fm.getAverageCharacterWidth());
        bars.begin(palette, viewStartNs, nsPerPixel, LABEL_WIDTH, area.width, charWidth, fm.getHeight(), laneHeight);
        int scroll = scroll();
        int first = Math.max(0, rowAt(scroll));
        long from = (long) Math.floor(timeAt(LABEL_WIDTH));
        long to = (long) Math.ceil(timeAt(area.width));
        gc.setClipping(0, RULER_HEIGHT, area.width, area.height - RULER_HEIGHT);
        int last = first;
        // row backgrounds, and the bars collected (filled below, one path per colour)
        for (int r = first; r < rowTop.length && rowTop[r] < scroll + area.height - RULER_HEIGHT; r++) {
            if (rowHeight[r] == 0) continue;   // in a folded rank
            int y = RULER_HEIGHT + rowTop[r] - scroll;
            TimelineRows.Row row = rows.rows().get(r);
            if (r % 2 == 1) {
                gc.setBackground(palette.alternate());
                gc.fillRectangle(0, y, area.width, rowHeight[r]);
            }
            if (r > 0 && rows.rows().get(r - 1).rank() != row.rank()) {
                gc.setForeground(palette.grid());
                gc.drawLine(0, y, area.width, y);
            }
            for (int l = 0; l < row.laneCount(); l++) {
                bars.paint(gc, row.lane(l), row.events(), y + l * laneHeight, from, to);
            }
            last = r;
        }
        bars.finish(gc);
        List<DifferenceTrack> diffs = shownDifferences();
        differencePainter.paint(gc, palette, diffs, RULER_HEIGHT + contentHeight - scroll, area, this, charWidth,
                fm.getHeight(), trackHeight);
        counterPainter.paint(gc, palette, shownCounters(), RULER_HEIGHT + contentHeight - scroll
                + diffs.size() * trackHeight, area, this, charWidth, fm.getHeight(), trackHeight);
        paintRange(gc, area);
        paintCriticalPath(gc, scroll, from, to);
        paintHighlights(gc, scroll, from, to);
        paintSelection(gc, scroll, from, to);
        // the row labels, over the left margin
        for (int r = first; r <= last; r++) {
            if (rowHeight[r] > 0) paintLabel(gc, r, scroll, charWidth, fm.getHeight());
        }
        paintLegend(gc, legendTop(), area, charWidth, fm.getHeight());
        gc.setClipping(LABEL_WIDTH, RULER_HEIGHT, area.width - LABEL_WIDTH, area.height - RULER_HEIGHT);
        flows.paint(gc, palette, rows, rowTop, rowHeight, bars, scroll, area.width, area.height);
        gc.setClipping((Rectangle) null);
        gc.setForeground(palette.grid());
        gc.drawLine(LABEL_WIDTH - 2, RULER_HEIGHT, LABEL_WIDTH - 2, area.height);
        paintRuler(gc, area, fm);
    }

    /** A row's label; a rank's header row with more rows has a triangle (pointing right when folded, with the count hidden). */
    private void paintLabel(GC gc, int r, int scroll, double charWidth, int fontHeight) {
        int y = RULER_HEIGHT + rowTop[r] - scroll;
        TimelineRows.Row row = rows.rows().get(r);
        int h = rowHeight[r];
        gc.setForeground(palette.foreground());
        gc.setBackground(r % 2 == 1 ? palette.alternate() : palette.background());
        gc.fillRectangle(0, y + 1, LABEL_WIDTH - 4, h - 1);
        String label = row.label();
        int ty = y + (h - fontHeight) / 2;
        if (RankGroups.header(rows.rows(), r)) {
            int count = RankGroups.rowsOf(rows.rows(), row.rank());
            if (count > 1) {
                boolean folded = groups.collapsed(row.rank());
                gc.drawString(folded ? "\u25b8" : "\u25be", 3, ty, true);
                if (folded) label += " (+" + (count - 1) + ")";
            }
        }
        gc.drawString(clip(label, (LABEL_WIDTH - TOGGLE_WIDTH - 6) / charWidth), TOGGLE_WIDTH + 2, ty, true);
    }

    /**
     * The selected bar's outline, when it is in the window: white or black with a ring of the other, so that it
     * shows on a bar of any colour (the list-selection blue vanished on the blue matmuls).
     */
    private void paintSelection(GC gc, int scroll, long from, long to) {
        TimelineEvent s = selected;
        if (s == null || s.endNs() < from || s.startNs() > to) return;
        int r = rows.rowOf(s);
        if (r < 0 || rowHeight[r] == 0) return;
        int lane = Math.max(0, rows.rows().get(r).laneOf(s));
        int y = RULER_HEIGHT + rowTop[r] - scroll + lane * laneHeight;
        int x1 = bars.x(s.startNs()), x2 = bars.x(s.endNs());
        int w = Math.max(1, x2 - x1);
        // white or black, whichever stands out more from this bar's colour, ringed by the other
        boolean white = contrastsMoreWithWhite(palette.bar(s.kind()).getRGB());
        Display d = canvas.getDisplay();
        gc.setLineWidth(2);
        gc.setForeground(d.getSystemColor(white ? SWT.COLOR_BLACK : SWT.COLOR_WHITE));
        gc.drawRectangle(x1 - 2, y - 1, w + 4, laneHeight + 1);
        gc.setForeground(d.getSystemColor(white ? SWT.COLOR_WHITE : SWT.COLOR_BLACK));
        gc.drawRectangle(x1, y + 1, w, laneHeight - 3);
        gc.setLineWidth(1);
    }

    /** Shows the critical path's bars, in path order (the analysis of the shown run), or none with an empty list. */
    public void setCriticalPath(List<TimelineEvent> bars) {
        criticalPath = List.copyOf(bars);
        canvas.redraw();
    }

    public List<TimelineEvent> criticalPath() { return criticalPath; }

    /** Outlines {@code bars} (those of a kernel table's or comparison's row); an empty list outlines none. */
    public void setHighlighted(List<TimelineEvent> bars) {
        highlighted = List.copyOf(bars);
        canvas.redraw();
    }

    public List<TimelineEvent> highlighted() { return highlighted; }

    /** Draws {@code tracks} under the rows (the shown run's counters); an empty list draws none. */
    public void setCounters(List<Counter> tracks) {
        counters = List.copyOf(tracks);
        resized();
        canvas.redraw();
    }

    public List<Counter> counters() { return counters; }

    /** Draws {@code tracks} under the rows, above the counters (a comparison's); an empty list draws none. */
    public void setDifferences(List<DifferenceTrack> tracks) {
        differences = List.copyOf(tracks);
        resized();
        canvas.redraw();
    }

    public List<DifferenceTrack> differences() { return differences; }

    /**
     * The highlighted bars in the window: an outline two pixels wide in the palette's highlight colour with a ring
     * of black or white inside it (whichever stands out from the highlight), so that it shows on bars of any
     * colour; inside the selection's rings and the critical path's outline so that all three show on one bar.
     */
    private void paintHighlights(GC gc, int scroll, long from, long to) {
        if (highlighted.isEmpty() || rows == null) return;
        Color ring = canvas.getDisplay().getSystemColor(contrastsMoreWithWhite(palette.highlight().getRGB())
                ? SWT.COLOR_WHITE : SWT.COLOR_BLACK);
        for (TimelineEvent e : highlighted) {
            int r = rows.rowOf(e);
            if (r < 0 || rowHeight[r] == 0 || e.endNs() < from || e.startNs() > to) continue;
            int y = RULER_HEIGHT + rowTop[r] - scroll + Math.max(0, rows.rows().get(r).laneOf(e)) * laneHeight;
            int x1 = bars.x(e.startNs()), x2 = bars.x(e.endNs());
            // a bar too narrow to hold the outline gets it around it
            int left = x2 - x1 >= 10 ? x1 + 2 : x1 - 4, width = x2 - x1 >= 10 ? x2 - x1 - 4 : x2 - x1 + 8;
            gc.setLineWidth(2);
            gc.setForeground(palette.highlight());
            gc.drawRectangle(left, y + 4, width, laneHeight - 9);
            gc.setLineWidth(1);
            gc.setForeground(ring);
            gc.drawRectangle(left + 2, y + 6, Math.max(1, width - 4), laneHeight - 13);
        }
    }

    /**
     * The critical path: each of its bars outlined in the palette's path colour, and a line from each bar's end to
     * the next one's start where the path changes row (a launch, a wait on another stream or rank).
     */
    private void paintCriticalPath(GC gc, int scroll, long from, long to) {
        if (criticalPath.isEmpty() || rows == null) return;
        gc.setForeground(palette.criticalPath());
        gc.setLineWidth(2);
        int[] previous = null;
        for (TimelineEvent e : criticalPath) {
            int r = rows.rowOf(e);
            if (r < 0 || rowHeight[r] == 0) {
                previous = null;
                continue;
            }
            int y = RULER_HEIGHT + rowTop[r] - scroll + Math.max(0, rows.rows().get(r).laneOf(e)) * laneHeight;
            int x1 = bars.x(e.startNs()), x2 = bars.x(e.endNs());
            if (e.endNs() >= from && e.startNs() <= to) gc.drawRectangle(x1, y, Math.max(1, x2 - x1), laneHeight - 1);
            if (previous != null && previous[1] != y) gc.drawLine(previous[0], previous[1] + laneHeight / 2, x1, y + laneHeight / 2);
            previous = new int[] { x2, y };
        }
        gc.setLineWidth(1);
    }

    /** Whether white contrasts more than black with {@code c} (WCAG relative luminance). */
    static boolean contrastsMoreWithWhite(RGB c) {
        double l = 0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue);
        return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05;
    }

    private static double channel(int v) {
        double s = v / 255.0;
        return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    }

    /** Where the selection outline is drawn (x, y, width, height in canvas pixels), or null (for tests). */
    public int[] selectionOutline() {
        TimelineEvent s = selected;
        if (s == null || rows == null || !rowShown(rows.rowOf(s))) return null;
        int r = rows.rowOf(s);
        int y = RULER_HEIGHT + rowTop[r] - scroll() + Math.max(0, rows.rows().get(r).laneOf(s)) * laneHeight;
        int x1 = LABEL_WIDTH + (int) ((s.startNs() - viewStartNs) / nsPerPixel);
        int x2 = LABEL_WIDTH + (int) ((s.endNs() - viewStartNs) / nsPerPixel);
        return new int[] { x1, y + 1, Math.max(1, x2 - x1), laneHeight - 3 };
    }

    /** Canvas pixel of the middle of a bar (x, y), for tests and tools that click it; null when not shown. */
    public int[] centerOf(TimelineEvent e) {
        if (rows == null || !rowShown(rows.rowOf(e))) return null;
        int r = rows.rowOf(e);
        int y = RULER_HEIGHT + rowTop[r] - scroll() + Math.max(0, rows.rows().get(r).laneOf(e)) * laneHeight;
        double mid = (e.startNs() + e.endNs()) / 2.0;
        return new int[] { LABEL_WIDTH + (int) ((mid - viewStartNs) / nsPerPixel), y + laneHeight / 2 };
    }

    /** The Shift+drag range: a translucent band over the rows, edged. */
    private void paintRange(GC gc, Rectangle area) {
        long[] r = range;
        if (r == null) return;
        int x1 = Math.max(LABEL_WIDTH, bars.x(r[0])), x2 = Math.min(area.width, bars.x(r[1]));
        if (x2 < x1) return;
        gc.setBackground(palette.selection());
        gc.setAlpha(50);
        gc.fillRectangle(x1, RULER_HEIGHT, Math.max(1, x2 - x1), area.height - RULER_HEIGHT);
        gc.setAlpha(255);
        gc.setForeground(palette.selection());
        gc.drawLine(x1, RULER_HEIGHT, x1, area.height);
        gc.drawLine(x2, RULER_HEIGHT, x2, area.height);
    }

    /** The legend's name of the critical path's outline. */
    public static final String CRITICAL_PATH = "critical path";

    /** What the legend names, in order: each kind of bar the timeline has, then the critical path while it shows. */
    public List<String> legendEntries() {
        List<String> out = new ArrayList<>(rows == null ? List.of() : rows.kinds().stream().map(EventKind::key).toList());
        if (!criticalPath.isEmpty()) out.add(CRITICAL_PATH);
        return out;
    }

    /** Where the legend's line is drawn now, in the canvas's pixels (below the last row and track). */
    public int legendTop() { return RULER_HEIGHT + tracksHeight() - scroll() + 8; }

    /**
     * A swatch and name per kind of bar the timeline has, below the last row; then the critical path's outline, whose
     * red is near the p2p bars' own: unnamed, a path of many short hops (64 ranks) read as a run of p2p time.
     */
    private void paintLegend(GC gc, int y, Rectangle area, double charWidth, int fontHeight) {
        if (y > area.height - fontHeight) return;
        int x = LABEL_WIDTH;
        gc.setForeground(palette.foreground());
        gc.drawString("legend:", 6, y, true);
        for (EventKind k : rows.kinds()) {
            gc.setBackground(palette.bar(k));
            gc.fillRectangle(x, y + 2, 14, fontHeight - 4);
            String name = k.key();
            gc.drawString(name, x + 18, y, true);
            x += 18 + (int) (name.length() * charWidth) + 16;
        }
        if (!criticalPath.isEmpty()) {
            gc.setForeground(palette.criticalPath());
            gc.setLineWidth(2);
            gc.drawRectangle(x + 1, y + 3, 12, fontHeight - 6);
            gc.setLineWidth(1);
            gc.setForeground(palette.foreground());
            gc.drawString(CRITICAL_PATH, x + 18, y, true);
            x += 18 + (int) (CRITICAL_PATH.length() * charWidth) + 16;
        }
        gc.drawString("arrows: send \u2192 recv", x, y, true);
    }

    private void paintRuler(GC gc, Rectangle area, FontMetrics fm) {
        gc.setBackground(palette.background());
        gc.fillRectangle(0, 0, area.width, RULER_HEIGHT);
        gc.setForeground(palette.grid());
        gc.drawLine(0, RULER_HEIGHT - 1, area.width, RULER_HEIGHT - 1);
        double step = TimeRuler.step(nsPerPixel * 100);
        // ticks at whole steps from the run's start, which the labels count from
        long start = rows.startNs();
        long first = (long) Math.ceil((timeAt(LABEL_WIDTH) - start) / step);
        gc.setForeground(palette.foreground());
        for (long k = first; start + k * step <= timeAt(area.width); k++) {
            double t = start + k * step;
            int x = LABEL_WIDTH + (int) ((t - viewStartNs) / nsPerPixel);
            gc.drawLine(x, RULER_HEIGHT - 6, x, RULER_HEIGHT - 1);
            gc.drawString(TimeRuler.label(k * step, step), x + 3, (RULER_HEIGHT - fm.getHeight()) / 2 - 2, true);
        }
        gc.drawString("time", 6, (RULER_HEIGHT - fm.getHeight()) / 2 - 2, true);
    }

    static String clip(String s, double chars) {
        int n = (int) chars;
        if (s.length() <= n) return s;
        return n <= 1 ? "" : s.substring(0, n - 1) + "\u2026";
    }

    // ---- mouse and keys ----

    /** The bar under a point of the canvas, or null. */
    public TimelineEvent eventAt(int x, int y) {
        if (rows == null || x < LABEL_WIDTH || y < RULER_HEIGHT) return null;
        int contentY = y - RULER_HEIGHT + scroll();
        int r = rowAt(contentY);
        if (r < 0) return null;
        TimelineRows.Row row = rows.rows().get(r);
        int lane = row.stacked() ? (contentY - rowTop[r]) / laneHeight : -1;
        // the pixel's whole time span: the bars painted in it are the ones the person sees under the pointer
        return row.at(timeAt(x), timeAt(x + 1), (long) Math.ceil(2 * nsPerPixel), lane);
    }

    /** The first visible row's scroll offset in pixels (0 at the top). */
    public int verticalScroll() { return scroll(); }

    /**
     * The hover text of the bar under a point, times on the ruler's origin, or of the counter track's value there;
     * null over neither.
     */
    public String hoverText(int x, int y) {
        if (x >= 0 && x < LABEL_WIDTH) return labelAt(y);
        TimelineEvent at = eventAt(x, y);
        if (at != null) return EventDetails.of(at, rows.startNs());
        TraceComparison.BarPair p = differenceAt(x, y);
        if (p != null) return DifferencePainter.hoverText(p, rows.startNs());
        Counter c = counterAt(x, y);
        return c == null ? null : CounterPainter.hoverText(c, (long) timeAt(x), rows.startNs());
    }

    /**
     * The whole label of the row or track at canvas pixel {@code y}, as the hover over the label column shows it:
     * the column clips long ones ("rank 0 communicat\u2026"). Null below them all.
     */
    public String labelAt(int y) {
        if (rows == null || y < RULER_HEIGHT) return null;
        int r = rowAtCanvasY(y);
        if (r >= 0) return rows.rows().get(r).label();
        int i = Math.floorDiv(y - RULER_HEIGHT + scroll() - contentHeight, trackHeight);
        List<DifferenceTrack> differences = shownDifferences();
        if (i >= 0 && i < differences.size()) return "rank " + differences.get(i).rank() + " B \u2212 A";
        i -= differences.size();
        List<Counter> shown = shownCounters();
        if (i < 0 || i >= shown.size()) return null;
        Counter c = shown.get(i);
        return "rank " + c.rank() + " " + c.name() + "\npeak " + CounterPainter.format(c.peak(), c.unit());
    }

    /** The track under a point below the rows (right of the labels): difference tracks first, then counters; or -1. */
    private int trackAt(int x, int y) {
        if (rows == null || x < LABEL_WIDTH || y < RULER_HEIGHT) return -1;
        return Math.floorDiv(y - RULER_HEIGHT + scroll() - contentHeight, trackHeight);
    }

    /** The counter track under a point of the canvas (right of the labels), or null. */
    public Counter counterAt(int x, int y) {
        int i = trackAt(x, y) - shownDifferences().size();
        List<Counter> shown = shownCounters();
        return i >= 0 && i < shown.size() ? shown.get(i) : null;
    }

    /** The compared bar pair under a point of a difference track, or null. */
    public TraceComparison.BarPair differenceAt(int x, int y) {
        int i = trackAt(x, y);
        List<DifferenceTrack> shown = shownDifferences();
        return i >= 0 && i < shown.size() ? shown.get(i).at(timeAt(x), timeAt(x + 1),
                (long) Math.ceil(2 * nsPerPixel)) : null;
    }

    /** Canvas pixel of the middle of shown counter track {@code i} at time {@code ns} ({x, y}), for tests and tools. */
    public int[] counterPoint(int i, double ns) {
        return trackPoint(shownDifferences().size() + i, ns);
    }

    /** Canvas pixel of the middle of shown difference track {@code i} at time {@code ns} ({x, y}). */
    public int[] differencePoint(int i, double ns) { return trackPoint(i, ns); }

    private int[] trackPoint(int i, double ns) {
        return new int[] { xOf(ns), RULER_HEIGHT + contentHeight - scroll() + i * trackHeight
                + trackHeight / 2 };
    }

    // ---- what TimelineInput and FlowPainter reach ----

    Canvas canvas() { return canvas; }

    /** The row at canvas pixel {@code y} (below the ruler), or -1. */
    int rowAtCanvasY(int y) { return y < RULER_HEIGHT ? -1 : rowAt(y - RULER_HEIGHT + scroll()); }

    /** Moves the window to start at {@code ns} and the rows to {@code scroll}, as a drag does. */
    void dragTo(double ns, int scrollPixels) {
        followFit = false;
        viewStartNs = ns;
        canvas.getVerticalBar().setSelection(scrollPixels);
        canvas.redraw();
    }

    /** The range being dragged out with Shift held (not yet chosen), or null. */
    void dragRange(long[] r) {
        range = r;
        canvas.redraw();
    }

    /** The canvas pixel column of trace time {@code ns} in the current window. */
    int xOf(double ns) { return LABEL_WIDTH + (int) ((ns - viewStartNs) / nsPerPixel); }
}
