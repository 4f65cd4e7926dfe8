package org.hostir.studio.ui.timeline.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.hostir.studio.trace.OverlapFigures;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/**
 * The figures of a time range chosen on the timeline (Perfetto's area selection): the events cut to the range,
 * then the same overlap figures as the whole run's (busy time per stream, compute, communication, their overlap),
 * and the bytes the communications moved in it (a transfer partly inside counts for the part inside).
 */
public final class RangeFigures {
    private RangeFigures() {}

    /**
     * The events of {@code t} cut to {@code [fromNs, toNs)}; those outside it are left out. Each keeps its
     * breakdown (the whole bar's bytes per rank or rows per group), so its details still show the matrix.
     */
    public static Timeline cut(Timeline t, long fromNs, long toNs) {
        List<TimelineEvent> in = new ArrayList<>();
        for (TimelineEvent e : t.events()) {
            long s = Math.max(e.startNs(), fromNs), end = Math.min(e.endNs(), toNs);
            if (end <= s) continue;
            in.add(new TimelineEvent(e.rank(), e.stream(), e.kind(), e.name(), e.nodeId(), e.iteration(), s, end,
                    part(e, e.bytes(), s, end), part(e, e.flops(), s, end), e.peer(), e.flowId(), e.breakdown()));
        }
        return new Timeline(in, t.streamNames());
    }

    private static long part(TimelineEvent e, long amount, long s, long end) {
        long d = e.endNs() - e.startNs();
        return d <= 0 ? amount : Math.round(amount * ((double) (end - s) / d));
    }

    /** The text for the range {@code [fromNs, toNs)}, its times counted from {@code originNs} (the ruler's 0). */
    public static String of(Timeline t, long fromNs, long toNs, long originNs) {
        Timeline cut = cut(t, fromNs, toNs);
        long bytes = cut.events().stream().filter(e -> e.kind().isCommunication()).mapToLong(TimelineEvent::bytes).sum();
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "range %s to %s (%s), %d events%n", EventDetails.duration(fromNs - originNs),
                EventDetails.duration(toNs - originNs), EventDetails.duration(toNs - fromNs), cut.events().size()));
        s.append(String.format(Locale.ROOT, "bytes moved by communications in the range: %,d%n", bytes));
        if (!cut.events().isEmpty()) s.append(OverlapFigures.of(cut).format());
        return s.toString();
    }
}
