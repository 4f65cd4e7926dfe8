package org.hostir.studio.ui.timeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.hostir.studio.engine.ScheduleSweep;
import org.hostir.studio.ui.ThemeColors;

/**
 * The sweep's plot: one horizontal bar per point, its length the predicted span (on one scale for all), labelled
 * with the device count and varied options, the span and the mean overlap at its end; the best schedule of each
 * device count (shortest span) is drawn in the palette's highlight, every other schedule in its plain colour (both
 * colorDefinitions of plugin.xml, {@link #BEST} and {@link #OTHER}: the slower bars were teal like the best ones,
 * issue 35). A point that failed is a line saying so. Spans
 * more than a decade apart (2 against 64 GPUs) are drawn on a log scale: on a linear one the small machine's
 * bars were slivers (issue 35, "the sweep plot's linear scale").
 */
final class SweepPlot {
    /** The highlighted series: the best schedule of each device count. */
    static final String BEST = "org.hostir.studio.ui.sweep.best";
    /** Every other schedule: never the highlight's colour. */
    static final String OTHER = "org.hostir.studio.ui.sweep.other";
    private static final int ROW = 22;
    private final Canvas canvas;
    private final List<ScheduleSweep.Point> points = new ArrayList<>();
    private final List<Bar> bars = new ArrayList<>();
    private String title = "";

    SweepPlot(Composite parent) {
        canvas = new Canvas(parent, SWT.DOUBLE_BUFFERED | SWT.BORDER);
        canvas.addPaintListener(e -> paint(e.gc));
        ThemeColors.follow(canvas, canvas::redraw);   // the palette is the theme's: a theme switch repaints
    }

    Canvas control() { return canvas; }

    void reset(String heading) {
        points.clear();
        title = heading;
        canvas.redraw();
    }

    void add(ScheduleSweep.Point p) {
        points.add(p);
        canvas.redraw();
    }

    private void paint(GC gc) {
        var display = canvas.getDisplay();
        var area = canvas.getClientArea();
        int labelWidth = 40;
        for (ScheduleSweep.Point p : points) labelWidth = Math.max(labelWidth, gc.textExtent(label(p)).x + 12);
        double max = points.stream().flatMap(p -> p.figures().stream()).mapToDouble(ScheduleSweep.Figures::spanMs)
                .max().orElse(1);
        double min = points.stream().flatMap(p -> p.figures().stream()).mapToDouble(ScheduleSweep.Figures::spanMs)
                .filter(v -> v > 0).min().orElse(max);
        boolean log = max > 10 * min;
        gc.drawText(title + (log ? ", log scale" : ""), 6, 4, true);
        bars.clear();
        Map<Integer, Double> best = new HashMap<>(); // the shortest span per device count
        for (ScheduleSweep.Point p : points) {
            p.figures().ifPresent(f -> best.merge(p.devices(), f.spanMs(), Math::min));
        }
        int barSpace = Math.max(40, area.width - labelWidth - 230); // room for the figures after the bar
        int y = 26;
        for (ScheduleSweep.Point p : points) {
            gc.setForeground(display.getSystemColor(SWT.COLOR_WIDGET_FOREGROUND));
            gc.drawText(label(p), 6, y + 3, true);
            if (p.figures().isEmpty()) {
                gc.drawText("failed: " + p.failure().stream().findFirst().orElse(""), labelWidth, y + 3, true);
            } else {
                ScheduleSweep.Figures f = p.figures().get();
                int w = (int) Math.max(2, Math.round(barSpace * (log ? logShare(f.spanMs(), min, max)
                        : f.spanMs() / max)));
                boolean highlighted = f.spanMs() == best.get(p.devices());
                Bar bar = new Bar(new Rectangle(labelWidth, y + 2, w, ROW - 5), highlighted);
                bars.add(bar);
                gc.setBackground(highlighted ? ThemeColors.get(BEST, SWT.COLOR_DARK_YELLOW)
                        : ThemeColors.get(OTHER, SWT.COLOR_GRAY));
                gc.fillRectangle(bar.area());
                gc.drawText(value(f), labelWidth + w + 6, y + 3, true);
            }
            y += ROW;
        }
    }

    /** A bar as last drawn: where on the canvas, and whether it is the best of its device count. */
    record Bar(Rectangle area, boolean best) {}

    /** The bars' lengths in pixels as last drawn, in the points' order (failed points have none). */
    List<Integer> widths() { return bars.stream().map(b -> b.area().width).toList(); }

    /** The bars as last drawn, in the points' order (failed points have none). */
    List<Bar> bars() { return List.copyOf(bars); }

    /** A span's share of the bar space on a log scale whose shortest bar is one decade's share, not nothing. */
    static double logShare(double span, double min, double max) {
        double decades = Math.log10(max / min);
        return (Math.log10(Math.max(span, min) / min) + 1) / (decades + 1);
    }

    static String label(ScheduleSweep.Point p) { return p.devices() + " GPUs  " + p.label(); }

    static String value(ScheduleSweep.Figures f) {
        return String.format(Locale.ROOT, "%.3f ms", f.spanMs()) + (f.overlap().isPresent()
                ? String.format(Locale.ROOT, ", overlap %.0f %%", 100 * f.overlap().getAsDouble()) : "");
    }

    Point preferredSize(int rows) { return new Point(700, 30 + ROW * Math.max(rows, 4)); }
}
