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
import org.hostir.studio.ui.timeline.TimelineRows;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a timed test: a synthetic timeline of 100,000 events (8 ranks x 4 streams + host rows, with
 * send/recv flows) in the timeline view. Prints the medians of the first paint (model + paint of the whole run)
 * and of pan and zoom repaints; targets 300 ms and 30 ms are reported, never asserted. The figures also go to
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
            List<Double> first = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                long t0 = System.nanoTime();
                canvas.setRows(new TimelineRows(timeline));
                canvas.fit();
                canvas.paint(gc, paintArea);
                first.add((System.nanoTime() - t0) / 1e6);
            }
            canvas.fit();
            canvas.zoom(0.05, 400);
            List<Double> pan = new ArrayList<>(), zoom = new ArrayList<>(), fitPaint = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                long t0 = System.nanoTime();
                canvas.pan(i % 2 == 0 ? 37 : -31);
                canvas.paint(gc, paintArea);
                pan.add((System.nanoTime() - t0) / 1e6);
                t0 = System.nanoTime();
                canvas.zoom(i % 2 == 0 ? 0.8 : 1.25, 500);
                canvas.paint(gc, paintArea);
                zoom.add((System.nanoTime() - t0) / 1e6);
            }
            canvas.fit();
            for (int i = 0; i < 30; i++) {
                long t0 = System.nanoTime();
                canvas.pan(i % 2 == 0 ? 5 : -5);
                canvas.paint(gc, paintArea);
                fitPaint.add((System.nanoTime() - t0) / 1e6);
            }
            String report = String.format(Locale.ROOT,
                    "timeline benchmark, %d events, %d rows, paint area %dx%d%n"
                            + "first paint (rows model + fit + paint), median of %d: %.1f ms (target < 300 ms)%n"
                            + "pan repaint zoomed in, median of %d: %.2f ms (target < 30 ms)%n"
                            + "zoom repaint zoomed in, median of %d: %.2f ms (target < 30 ms)%n"
                            + "pan repaint of the whole run (all events in view), median of %d: %.2f ms%n",
                    EVENTS, canvas.rows().rows().size(), paintArea.width, paintArea.height, first.size(),
                    median(first), pan.size(), median(pan), zoom.size(), median(zoom), fitPaint.size(),
                    median(fitPaint));
            System.out.print(report);
            write(report);
        } finally {
            gc.dispose();
            image.dispose();
        }
    }

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
