package org.hostir.studio.ui.timeline.model;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.OverlapFigures;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/** The text below the bars: the overlap figures (HTA's), the events per rank and kind, and how to use the view. */
public final class TimelineSummary {
    /** The last line: what the mouse and keys do. */
    public static final String HINT =
            "Wheel: scroll rows, Ctrl+wheel: zoom, Shift+wheel or A/D: pan, W/S: zoom, drag: pan, 0: fit, C or the "
                    + "triangle of a rank: fold it; click a bar: "
                    + "its details, and its Host IR node in the Lowering view.";

    private TimelineSummary() {}

    /** Counts, per-rank totals, overlap and exposed communication; a pass over every event. */
    public static String of(Timeline t) {
        StringBuilder s = new StringBuilder();
        Map<Integer, Map<EventKind, Integer>> counts = new TreeMap<>();
        for (TimelineEvent e : t.events()) {
            counts.computeIfAbsent(e.rank(), r -> new EnumMap<>(EventKind.class)).merge(e.kind(), 1, Integer::sum);
        }
        s.append(OverlapFigures.of(t).format());
        counts.forEach((rank, byKind) -> {
            s.append("rank ").append(rank).append(" events:");
            byKind.forEach((k, n) -> s.append(' ').append(k.key()).append(' ').append(n));
            s.append('\n');
        });
        s.append(HINT);
        return s.toString();
    }
}
