package org.hostir.studio.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The counters a timeline implies, per rank: the memory its program holds (each Allocate's bytes from the end of
 * its dispatch, given back at its Deallocate's) and the bytes of communications in flight (each communication or
 * transfer bar's bytes from its start to its end). A rank gets a counter only when it has such events.
 */
public final class CounterTracks {
    public static final String MEMORY = "memory in use", IN_FLIGHT = "communication bytes in flight";
    static final String ALLOCATE = "dispatch Allocate", DEALLOCATE = "dispatch Deallocate";

    private CounterTracks() {
    }

    public static List<Counter> of(Timeline timeline) {
        List<Counter> out = new ArrayList<>();
        for (int rank : timeline.ranks()) {
            Map<Long, Long> memory = new TreeMap<>(), inFlight = new TreeMap<>();
            for (TimelineEvent e : timeline.of(rank)) {
                if (e.bytes() <= 0) continue;
                if (e.stream() < 0 && e.name().equals(ALLOCATE)) memory.merge(e.endNs(), e.bytes(), Long::sum);
                else if (e.stream() < 0 && e.name().equals(DEALLOCATE)) memory.merge(e.endNs(), -e.bytes(), Long::sum);
                else if (e.stream() >= 0 && e.kind().isCommunication()) {
                    inFlight.merge(e.startNs(), e.bytes(), Long::sum);
                    inFlight.merge(e.endNs(), -e.bytes(), Long::sum);
                }
            }
            if (!memory.isEmpty()) out.add(new Counter(rank, MEMORY, "bytes", running(memory)));
            if (!inFlight.isEmpty()) out.add(new Counter(rank, IN_FLIGHT, "bytes", running(inFlight)));
        }
        return out;
    }

    /** Changes at points in time as the running sum from each point on. */
    public static List<Counter.Sample> running(Map<Long, Long> changes) {
        List<Counter.Sample> samples = new ArrayList<>();
        long value = 0;
        for (Map.Entry<Long, Long> c : changes.entrySet()) {
            value += c.getValue();
            samples.add(new Counter.Sample(c.getKey(), value));
        }
        return samples;
    }
}
