package org.hostir.studio.trace.imported;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.trace.StreamWait;
import org.hostir.studio.trace.TimelineEvent;

/**
 * Turns the event record/wait pairs a profiler states into {@link StreamWait}s between device bars, as HTA's
 * critical path analysis does with PyTorch's CUDA sync events: correlation ids grow with each CUDA call of a
 * process, so the bar an event record follows is the recording stream's last bar launched before the record, and
 * the bar the wait holds back is the waiting stream's first bar launched after the wait.
 */
final class WaitPairing {
    /**
     * One stated wait: in process {@code process} (any key that makes correlation ids unique), the event recorded
     * on {@code recordStream} by the call {@code recordCorrelation}, waited for on {@code waitStream} by the call
     * {@code waitCorrelation}.
     */
    record Stated(Object process, long recordStream, long recordCorrelation, long waitStream, long waitCorrelation) {
    }

    private final Map<List<Object>, TreeMap<Long, TimelineEvent>> byStream = new HashMap<>();
    private int unmatched;

    /** A device bar and the correlation id of the call that launched it. */
    void bar(Object process, long stream, long correlation, TimelineEvent bar) {
        if (correlation >= 0) byStream.computeIfAbsent(List.of(process, stream), k -> new TreeMap<>()).put(correlation, bar);
    }

    List<StreamWait> pair(List<Stated> stated) {
        List<StreamWait> waits = new ArrayList<>();
        for (Stated s : stated) {
            var before = byStream.getOrDefault(List.of(s.process(), s.recordStream()), new TreeMap<>())
                    .lowerEntry(s.recordCorrelation());
            var after = byStream.getOrDefault(List.of(s.process(), s.waitStream()), new TreeMap<>())
                    .higherEntry(s.waitCorrelation());
            if (before != null && after != null && s.recordStream() != s.waitStream()) {
                waits.add(new StreamWait(before.getValue(), after.getValue()));
            } else {
                unmatched++;
            }
        }
        return waits;
    }

    /** The note for waits that could not be paired, or null. */
    String note() {
        return unmatched == 0 ? null
                : unmatched + " stream waits without a recorded event or work on both streams were left out";
    }
}
