package org.hostir.studio.exec.cuda;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.trace.TimelineEvent;

/**
 * CUDA events around every operation of one device, turned into timeline bars once the work is done. A
 * reference event recorded on the user stream when the timeline is reset is time zero of the device, which the
 * backend aligns with the host's clock at that moment, so bars of all devices share one axis.
 */
final class Timing {
    /** One bar, or several (a P2P group: one per send or recv) sharing the same pair of events. */
    record Bar(int stream, OpInfo info, long start, long end, List<Sub> parts) {}

    /** A send or recv inside a timed group. */
    record Sub(String name, long bytes, int peer, long flowId, int nodeId) {}

    private final Driver driver;
    private final Deque<Long> pool = new ArrayDeque<>();
    private final List<Long> used = new ArrayList<>();
    private final List<Bar> bars = new ArrayList<>();
    private long reference;

    Timing(Driver driver) { this.driver = driver; }

    synchronized long event() {
        Long e = pool.poll();
        long h = e != null ? e : driver.createEvent();
        used.add(h);
        return h;
    }

    synchronized void add(Bar b) { bars.add(b); }

    /** Starts a new timeline: every event is done (the run synchronised), so all go back to the pool. */
    synchronized void reset(long userStream) {
        pool.addAll(used);
        used.clear();
        bars.clear();
        reference = event();
        driver.record(reference, userStream);
    }

    synchronized void collect(int rank, long originOffsetNanos, List<TimelineEvent> into) {
        if (reference == 0) return;
        for (Bar b : bars) {
            long s = originOffsetNanos + (long) (driver.elapsedMillis(reference, b.start()) * 1e6);
            long e = originOffsetNanos + (long) (driver.elapsedMillis(reference, b.end()) * 1e6);
            OpInfo i = b.info();
            if (b.parts() == null) {
                into.add(i.event(rank, b.stream(), s, e, 0));
            } else {
                for (Sub p : b.parts()) {
                    into.add(new TimelineEvent(rank, b.stream(), i.kind(), p.name(), p.nodeId(), i.iteration(), s, e,
                            p.bytes(), 0, p.peer(), p.flowId(), i.breakdown()));
                }
            }
        }
    }
}
