package org.hostir.studio.ui.timeline.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * A predicted and a measured run of one program as one timeline, each rank's predicted rows just above its measured
 * rows: the predicted run's streams are renumbered below every real stream (rows sort by rank, then stream) and
 * named {@code predicted S1} (stream 1), {@code predicted host}, the measured run's {@code measured S1}: short, as
 * the row labels have little room. Both runs start at 0, so the
 * bars line up on one ruler; their flows are kept apart. Free of SWT.
 */
public final class StackedRuns {
    public static final String PREDICTED = "predicted";
    public static final String MEASURED = "measured";
    /** Predicted stream s is shown as stream s - SHIFT: below the host stream (-1) of any real run. */
    static final int SHIFT = 1 << 20;

    private StackedRuns() {}

    public static Timeline of(Timeline predicted, Timeline measured) {
        List<TimelineEvent> events = new ArrayList<>(predicted.events().size() + measured.events().size());
        Map<Integer, Map<Integer, String>> names = new HashMap<>();
        long flows = add(measured, 0, MEASURED, 0, events, names);
        add(predicted, SHIFT, PREDICTED, flows, events, names);
        return new Timeline(events, names);
    }

    /** Whether a row of a stacked timeline is the predicted run's. */
    public static boolean predicted(int stream) { return stream < -1; }

    /**
     * The bars of {@code t} from the same run as {@code e} (predicted or measured), so that what gathers a bar's
     * peers across ranks (an exchange's matrix) does not mix the two runs; {@code t} itself when it is not stacked.
     */
    public static Timeline sideOf(Timeline t, TimelineEvent e) {
        boolean side = predicted(e.stream());
        if (t.events().stream().allMatch(x -> predicted(x.stream()) == side)) return t;
        return new Timeline(t.events().stream().filter(x -> predicted(x.stream()) == side).toList(), t.streamNames());
    }

    /** Adds {@code t}'s events moved to start at 0, streams shifted down and flows renumbered; returns the top flow. */
    private static long add(Timeline t, int shift, String label, long flowBase, List<TimelineEvent> out,
                            Map<Integer, Map<Integer, String>> names) {
        long start = t.events().stream().mapToLong(TimelineEvent::startNs).min().orElse(0);
        long top = flowBase;
        for (TimelineEvent e : t.events()) {
            long flow = e.flowId() == 0 ? 0 : flowBase + e.flowId();
            top = Math.max(top, flow);
            out.add(new TimelineEvent(e.rank(), e.stream() - shift, e.kind(), e.name(), e.nodeId(), e.iteration(),
                    e.startNs() - start, e.endNs() - start, e.bytes(), e.flops(), e.peer(), flow, e.breakdown()));
            names.computeIfAbsent(e.rank(), r -> new HashMap<>()).putIfAbsent(e.stream() - shift,
                    label + " " + (e.stream() == TimelineEvent.HOST_STREAM ? "host" : "S" + e.stream()));
        }
        return top;
    }
}
