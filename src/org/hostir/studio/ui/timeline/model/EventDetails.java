package org.hostir.studio.ui.timeline.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.hostir.studio.trace.TimelineEvent;

/** The hover text of a bar: what it was, how long, and the rates a performance engineer checks first. */
public final class EventDetails {
    private EventDetails() {}

    /** The details with the start as the trace records it (from the trace's own origin). */
    public static String of(TimelineEvent e) { return of(e, 0); }

    /**
     * The details with the start counted from {@code originNs}, the time the ruler's 0 stands for (the run's
     * first event), so that the tooltip and the ruler agree.
     */
    public static String of(TimelineEvent e, long originNs) {
        List<String> lines = new ArrayList<>();
        lines.add(e.name() + "  (" + e.kind().name().toLowerCase(Locale.ROOT) + ")");
        lines.add("rank " + e.rank() + ", " + (e.stream() == TimelineEvent.HOST_STREAM ? "host" : "stream " + e.stream()));
        lines.add("start " + duration(e.startNs() - originNs) + ", duration " + duration(e.durationNs()));
        double seconds = e.durationNs() / 1e9;
        if (e.bytes() > 0) {
            lines.add(String.format(Locale.ROOT, "bytes %,d%s", e.bytes(), seconds > 0
                    ? String.format(Locale.ROOT, ", %.2f GB/s", e.bytes() / seconds / 1e9) : ""));
        }
        if (e.flops() > 0) {
            lines.add(String.format(Locale.ROOT, "flops %,d%s", e.flops(), seconds > 0
                    ? String.format(Locale.ROOT, ", %.3f TFLOP/s", e.flops() / seconds / 1e12) : ""));
        }
        if (e.peer() >= 0) lines.add("peer rank " + e.peer());
        if (e.iteration() >= 0) lines.add("loop iteration " + e.iteration());
        if (e.nodeId() >= 0) lines.add("Host IR node " + e.nodeId() + " (click to reveal it in the Lowering view)");
        return String.join("\n", lines);
    }

    public static String duration(long ns) {
        if (ns >= 1_000_000) return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
        if (ns >= 1_000) return String.format(Locale.ROOT, "%.2f \u00b5s", ns / 1e3);
        return ns + " ns";
    }
}
