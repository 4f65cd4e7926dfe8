package org.hostir.studio.trace.analysis;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.trace.IntervalSet;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * Where each device stream's time went between its first and last op, as HTA's idle time analysis splits it:
 * the gaps between its busy stretches by what the op after the gap waited for ({@link DependencyGraph#binding}
 * of its start: the host's launch, another stream, or nothing the trace shows), and, inside its communications,
 * the time before the last peer arrived (busy on the timeline, but the stream did nothing but wait).
 */
public record IdleBreakdown(List<StreamIdle> streams) {
    /** Why a stream was idle. */
    public enum Cause {
        /** The op after the gap was launched late: the host was the bottleneck. */
        HOST,
        /** The op after the gap waited for an op of another stream (an event wait, a Synchronize). */
        OTHER_STREAM,
        /** The trace shows no dependency that explains the gap (launch latency, an unrecorded wait). */
        OTHER
    }

    /** One stream: busy time, idle time by cause (indexed by {@link Cause#ordinal()}), and waiting on peers. */
    public record StreamIdle(int rank, int stream, String name, long spanNs, long busyNs, long[] idleNs,
                             long peerWaitNs) {
        public StreamIdle {
            idleNs = idleNs.clone();
        }

        public long idle(Cause cause) { return idleNs[cause.ordinal()]; }

        public long idleTotal() {
            long sum = 0;
            for (long v : idleNs) sum += v;
            return sum;
        }
    }

    public IdleBreakdown {
        streams = List.copyOf(streams);
    }

    public static IdleBreakdown of(DependencyGraph g, Timeline timeline) {
        List<StreamIdle> out = new ArrayList<>();
        List<TimelineEvent> events = g.events();
        int from = 0;
        for (int i = 1; i <= events.size(); i++) {
            if (i == events.size() || events.get(i).rank() != events.get(from).rank()
                    || events.get(i).stream() != events.get(from).stream()) {
                if (events.get(from).stream() >= 0) {
                    out.add(stream(g, from, i, timeline.streamName(events.get(from).rank(), events.get(from).stream())));
                }
                from = i;
            }
        }
        return new IdleBreakdown(out);
    }

    private static StreamIdle stream(DependencyGraph g, int from, int to, String name) {
        List<TimelineEvent> row = g.events().subList(from, to);
        List<IntervalSet.Interval> busy = IntervalSet.of(row).intervals();
        long[] idle = new long[Cause.values().length];
        int next = from;
        for (int k = 1; k < busy.size(); k++) {
            long gapStart = busy.get(k - 1).endNs(), gapEnd = busy.get(k).startNs();
            while (g.events().get(next).startNs() < gapEnd) next++;
            idle[cause(g.binding(DependencyGraph.start(next))).ordinal()] += gapEnd - gapStart;
        }
        List<IntervalSet.Interval> waits = new ArrayList<>(); // a union: coalesced transfers overlap
        for (int i = from; i < to; i++) {
            int arrived = g.arrivalOf(i);
            if (arrived < 0) continue;
            TimelineEvent e = g.events().get(i);
            waits.add(new IntervalSet.Interval(e.startNs(), Math.clamp(g.time(arrived), e.startNs(), e.endNs())));
        }
        long peerWait = IntervalSet.union(waits).totalNs();
        long span = busy.isEmpty() ? 0 : busy.getLast().endNs() - busy.getFirst().startNs();
        long busyNs = busy.stream().mapToLong(IntervalSet.Interval::lengthNs).sum();
        TimelineEvent first = g.events().get(from);
        return new StreamIdle(first.rank(), first.stream(), name, span, busyNs, idle, peerWait);
    }

    private static Cause cause(Dependency binding) {
        if (binding == null) return Cause.OTHER;
        return switch (binding.kind()) {
            case LAUNCH -> Cause.HOST;
            case STREAM_WAIT -> Cause.OTHER_STREAM;
            case WORK, TRANSFER, PEER_ARRIVAL, HOST_ORDER, STREAM_ORDER, NESTING, HOST_SYNC, RUN_START -> Cause.OTHER;
        };
    }
}
