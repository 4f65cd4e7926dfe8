package org.hostir.studio.ui.tests.timeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.model.TimelineRows;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a timed test: a synthetic timeline of 100,000 events (8 ranks x 4 streams + host rows, with
 * send/recv flows) in the timeline view. Prints the medians of the first paint (model + paint of the whole run into
 * an image, and apart: the first paint in the view, with the summary and the on-screen paint) and of pan and zoom
 * repaints; targets 300 ms and 30 ms are reported, never asserted. A run of the JVM is cold: the first of the
 * repetitions include class loading and the JIT's warm-up, which a person's first open of a timeline pays too. The figures also go to
 * target/screenshots/timeline-benchmark.txt.
 */
public class TimelineBenchmarkTest {
    static final int EVENTS = 100_000;

    static Timeline synthetic() {
        Random random = new Random(7);
        List<TimelineEvent> events = new ArrayList<>(EVENTS);
        int ranks = 8, streams = 4;
        long[][] clock = new long[ranks][streams + 1];
        long flow = 1;
        while (events.size() < EVENTS) {
            int rank = random.nextInt(ranks);
            int s = random.nextInt(streams + 1) - 1;
            long start = clock[rank][s + 1] + random.nextInt(2_000);
            long dur = 500 + random.nextInt(20_000);
            EventKind kind = s < 0 ? EventKind.HOST : switch (random.nextInt(4)) {
                case 0 -> EventKind.MATMUL;
                case 1 -> EventKind.COMMUNICATION;
                case 2 -> EventKind.COPY;
                default -> EventKind.KERNEL;
            };
            clock[rank][s + 1] = start + dur;
            events.add(new TimelineEvent(rank, s, kind, kind.name().toLowerCase(Locale.ROOT) + " " + events.size(),
                    events.size(), -1, start, start + dur, 1 << 20, 1L << 30, -1, 0));
            if (s >= 0 && random.nextInt(50) == 0 && events.size() < EVENTS - 1) {
                int peer = (rank + 1) % ranks;
                long ps = Math.max(start, clock[peer][s + 1]);
                events.add(new TimelineEvent(rank, s, EventKind.P2P, "send", -1, -1, start, start + dur, 1 << 20, 0,
                        peer, flow));
                events.add(new TimelineEvent(peer, s, EventKind.P2P, "recv", -1, -1, ps, ps + dur, 1 << 20, 0, rank,
                        flow++));
                clock[peer][s + 1] = ps + dur;
            }
        }
        return new Timeline(events.subList(0, EVENTS), Map.of());
    }

    @Test
    public void paintsOneHundredThousandEvents() throws Exception {
        Display display = Display.getCurrent();
        Timeline timeline = synthetic();
        TimelineView view = TimelineView.show(timeline, "benchmark: " + EVENTS + " events");
        ViewTestSupport.spin(display, 300);
        TimelineCanvas canvas = view.canvas();
        Rectangle area = canvas.control().getClientArea();
        Rectangle paintArea = new Rectangle(0, 0, Math.max(area.width, 1200), Math.max(area.height, 700));
        Image image = new Image(display, paintArea.width, paintArea.height);
        GC gc = new GC(image);
        try {
            // first paint as the benchmark has always measured it: the rows model (built once per timeline) +
            // fit + paint of the whole run into an image; the two parts are also given apart
            List<Double> first = new ArrayList<>(), model = new ArrayList<>(), paint = new ArrayList<>();
            List<Double> firstCpu = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                long c0 = cpu();
                long t0 = System.nanoTime();
                TimelineRows rows = new TimelineRows(timeline);
                long t1 = System.nanoTime();
                canvas.setRows(rows);
                canvas.fit();
                canvas.paint(gc, paintArea);
                long t2 = System.nanoTime();
                firstCpu.add((cpu() - c0) / 1e6);
                first.add((t2 - t0) / 1e6);
                model.add((t1 - t0) / 1e6);
                paint.add((t2 - t1) / 1e6);
            }
            String wholeRun = canvas.paintCounts();
            // what a person waits for: the view shown a new timeline (rows model) and its bars painted on the
            // screen (update() paints synchronously); then until the summary's overlap figures, computed by a
            // background job, are shown too
            List<Double> inView = new ArrayList<>(), withSummary = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                view.setTimeline(timeline, "benchmark: " + EVENTS + " events", null);
                canvas.control().redraw();
                canvas.control().update();
                inView.add((System.nanoTime() - t0) / 1e6);
                while (view.summaryText().startsWith("Computing") && System.nanoTime() - t0 < 30_000_000_000L) {
                    if (!display.readAndDispatch()) Thread.sleep(1);
                }
                withSummary.add((System.nanoTime() - t0) / 1e6);
            }
            canvas.fit();
            canvas.zoom(0.05, 400);
            List<Double> pan = new ArrayList<>(), zoom = new ArrayList<>(), fitPaint = new ArrayList<>();
            List<Double> panCpu = new ArrayList<>(), zoomCpu = new ArrayList<>(), fitCpu = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                long c0 = cpu();
                long t0 = System.nanoTime();
                canvas.pan(i % 2 == 0 ? 37 : -31);
                canvas.paint(gc, paintArea);
                pan.add((System.nanoTime() - t0) / 1e6);
                panCpu.add((cpu() - c0) / 1e6);
                c0 = cpu();
                t0 = System.nanoTime();
                canvas.zoom(i % 2 == 0 ? 0.8 : 1.25, 500);
                canvas.paint(gc, paintArea);
                zoom.add((System.nanoTime() - t0) / 1e6);
                zoomCpu.add((cpu() - c0) / 1e6);
            }
            canvas.fit();
            for (int i = 0; i < 30; i++) {
                long c0 = cpu();
                long t0 = System.nanoTime();
                canvas.pan(i % 2 == 0 ? 5 : -5);
                canvas.paint(gc, paintArea);
                fitPaint.add((System.nanoTime() - t0) / 1e6);
                fitCpu.add((cpu() - c0) / 1e6);
            }
            String report = String.format(Locale.ROOT,
                    "timeline benchmark, %d events, %d rows, paint area %dx%d; medians, wall clock (UI thread CPU)%n"
                            + "first paint (rows model + fit + paint), median of %d: %.1f ms (%.1f ms CPU)"
                            + " (target < 300 ms)%n"
                            + "  of which the rows model %.1f ms, fit + paint %.1f ms (%s)%n"
                            + "first paint in the view (setTimeline: rows model + on-screen paint), median of %d:"
                            + " %.1f ms; the summary's figures shown after %.1f ms%n"
                            + "pan repaint zoomed in, median of %d: %.2f ms (%.2f ms CPU) (target < 30 ms)%n"
                            + "zoom repaint zoomed in, median of %d: %.2f ms (%.2f ms CPU) (target < 30 ms)%n"
                            + "pan repaint of the whole run (all events in view), median of %d: %.2f ms (%.2f ms CPU)%n",
                    EVENTS, canvas.rows().rows().size(), paintArea.width, paintArea.height, first.size(),
                    median(first), median(firstCpu), median(model), median(paint), wholeRun, inView.size(),
                    median(inView), median(withSummary), pan.size(), median(pan), median(panCpu), zoom.size(), median(zoom),
                    median(zoomCpu), fitPaint.size(), median(fitPaint), median(fitCpu));
            System.out.print(report);
            write(report);
        } finally {
            gc.dispose();
            image.dispose();
        }
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    /** The UI thread's CPU time in ns: on a loaded machine the wall clock also counts the waits for a core. */
    private static long cpu() { return THREADS.getCurrentThreadCpuTime(); }

    private static double median(List<Double> xs) {
        List<Double> s = xs.stream().sorted().toList();
        return s.get(s.size() / 2);
    }

    private static void write(String report) throws IOException {
        String dir = System.getProperty("hirstudio.screenshots");
        if (dir == null || dir.isBlank()) return;
        Files.createDirectories(Path.of(dir));
        Files.writeString(Path.of(dir, "timeline-benchmark.txt"), report);
    }
}
