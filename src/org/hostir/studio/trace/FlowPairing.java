package org.hostir.studio.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Pairs each send with its receive, for the trace's flow arrows and the timeline view's arrows. The rule a
 * backend follows:
 * <ol>
 * <li>the two events of one transfer carry the same non-zero {@link TimelineEvent#flowId()}, unique in the run,
 * and no other event carries it;</li>
 * <li>the sending event's name starts with {@code "send"} and the receiving event's with {@code "recv"}
 * (ignoring case), as the Host IR dump names P2P communications;</li>
 * <li>if neither name says, the event that starts first is taken as the send (ties: lower rank, then lower
 * stream), so a pair always gets an arrow.</li>
 * </ol>
 * A flow id carried by one event, by more than two, or by two that both say send (or both recv) is reported as
 * a problem and gets no arrow.
 */
public final class FlowPairing {
    /** One transfer: its id and the two bars it links. */
    public record Flow(long id, TimelineEvent send, TimelineEvent recv) {
    }

    /** The flows found, in timeline order of their sends, and why the other flow ids got no arrow. */
    public record Result(List<Flow> flows, List<String> problems) {
        public Result {
            flows = List.copyOf(flows);
            problems = List.copyOf(problems);
        }
    }

    private enum Direction { SEND, RECV, UNKNOWN }

    private FlowPairing() {
    }

    public static Result pair(Timeline timeline) {
        Map<Long, List<TimelineEvent>> byId = new LinkedHashMap<>();
        for (TimelineEvent e : timeline.events()) {
            if (e.flowId() != 0) byId.computeIfAbsent(e.flowId(), id -> new ArrayList<>()).add(e);
        }
        List<Flow> flows = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        byId.forEach((id, events) -> {
            if (events.size() != 2) {
                problems.add("flow " + id + " has " + events.size() + " events (" + describe(events) + "), not 2");
                return;
            }
            TimelineEvent a = events.get(0), b = events.get(1);
            Direction da = direction(a), db = direction(b);
            if (da == db && da != Direction.UNKNOWN) {
                problems.add("flow " + id + " has two " + da.name().toLowerCase(Locale.ROOT) + " events ("
                        + describe(events) + ")");
                return;
            }
            boolean aSends = switch (da) {
                case SEND -> true;
                case RECV -> false;
                case UNKNOWN -> db == Direction.RECV || (db == Direction.UNKNOWN && EARLIER.compare(a, b) <= 0);
            };
            flows.add(aSends ? new Flow(id, a, b) : new Flow(id, b, a));
        });
        flows.sort(Comparator.comparing(Flow::send, EARLIER).thenComparingLong(Flow::id));
        return new Result(flows, problems);
    }

    private static final Comparator<TimelineEvent> EARLIER = Comparator.comparingLong(TimelineEvent::startNs)
            .thenComparingInt(TimelineEvent::rank).thenComparingInt(TimelineEvent::stream);

    private static Direction direction(TimelineEvent e) {
        String name = e.name().toLowerCase(Locale.ROOT);
        if (name.startsWith("send")) return Direction.SEND;
        if (name.startsWith("recv")) return Direction.RECV;
        return Direction.UNKNOWN;
    }

    private static String describe(List<TimelineEvent> events) {
        return String.join(", ", events.stream()
                .map(e -> "'" + e.name() + "' on rank " + e.rank() + " stream " + e.stream()).toList());
    }
}
