package org.hostir.studio.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * One rank's overlap figures, in nanoseconds, with HTA's definitions: compute time is the union of the compute
 * bars ({@link EventKind#isCompute()}) over all the rank's streams, communication time the union of the
 * communication and P2P bars, overlap their intersection; the overlap ratio is overlap / communication and the
 * exposed communication is communication minus compute, the transfer time nothing hides. The span runs from
 * the rank's first start to its last end, over every bar. A stream's busy time is the union of its bars.
 */
public record RankOverlap(int rank, long computeNs, long communicationNs, long overlapNs,
                          long exposedCommunicationNs, long spanStartNs, long spanEndNs, List<StreamBusy> streams) {
    public record StreamBusy(int stream, String name, long busyNs) {
    }

    public RankOverlap {
        streams = List.copyOf(streams);
    }

    public long spanNs() { return spanEndNs - spanStartNs; }

    /** Overlap / communication; empty for a rank that does not communicate, where the ratio means nothing. */
    public OptionalDouble overlapRatio() {
        return communicationNs == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) overlapNs / communicationNs);
    }

    /** The figures of one rank of the timeline (all zero if it has no events there). */
    public static RankOverlap of(Timeline timeline, int rank) {
        List<TimelineEvent> events = timeline.of(rank);
        List<TimelineEvent> compute = new ArrayList<>(), communication = new ArrayList<>();
        Map<Integer, List<TimelineEvent>> work = new TreeMap<>();
        long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
        for (TimelineEvent e : events) {
            if (e.kind().isCompute()) compute.add(e);
            if (e.kind().isCommunication()) communication.add(e);
            work.computeIfAbsent(e.stream(), s -> new ArrayList<>()).add(e);
            first = Math.min(first, e.startNs());
            last = Math.max(last, e.endNs());
        }
        IntervalSet computeTime = IntervalSet.of(compute), communicationTime = IntervalSet.of(communication);
        IntervalSet overlap = computeTime.intersect(communicationTime);
        List<StreamBusy> streams = new ArrayList<>();
        work.forEach((stream, bars) -> streams.add(
                new StreamBusy(stream, timeline.streamName(rank, stream), IntervalSet.of(bars).totalNs())));
        if (events.isEmpty()) first = last = 0;
        return new RankOverlap(rank, computeTime.totalNs(), communicationTime.totalNs(), overlap.totalNs(),
                communicationTime.minus(computeTime).totalNs(), first, last, streams);
    }
}
