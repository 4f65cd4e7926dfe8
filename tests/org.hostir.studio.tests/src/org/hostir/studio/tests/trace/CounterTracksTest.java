package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.hostir.studio.trace.Counter;
import org.hostir.studio.trace.Counter.Sample;
import org.hostir.studio.trace.CounterTracks;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

class CounterTracksTest {
    private static TimelineEvent host(String name, long start, long end, long bytes) {
        return new TimelineEvent(0, TimelineEvent.HOST_STREAM, EventKind.HOST, name, 1, -1, start, end, bytes, 0, -1, 0);
    }

    @Test
    void memoryInUseFollowsAllocateAndDeallocateAndBytesInFlightTheTransfers() {
        Timeline t = new Timeline(List.of(
                host("dispatch Allocate", 0, 1, 100), host("dispatch Allocate", 1, 2, 50),
                host("dispatch Deallocate", 5, 6, 100), host("dispatch Allocate", 6, 7, 0),
                new TimelineEvent(0, 1, EventKind.P2P, "send to 1", 3, -1, 2, 8, 64, 0, 1, 9),
                new TimelineEvent(0, 2, EventKind.COMMUNICATION, "Allgather", 4, -1, 4, 6, 32, 0, -1, 0),
                new TimelineEvent(0, 0, EventKind.MATMUL, "matmul", 5, -1, 0, 9, 4096, 1, -1, 0)), Map.of());
        List<Counter> counters = CounterTracks.of(t);
        assertEquals(2, counters.size());
        assertEquals(new Counter(0, CounterTracks.MEMORY, "bytes", List.of(new Sample(1, 100), new Sample(2, 150),
                new Sample(6, 50))), counters.get(0), "an Allocate that took nothing (a buffer it had) adds no sample");
        assertEquals(new Counter(0, CounterTracks.IN_FLIGHT, "bytes", List.of(new Sample(2, 64), new Sample(4, 96),
                new Sample(6, 64), new Sample(8, 0))), counters.get(1), "the matmul's bytes are not in flight");
        assertEquals(150, counters.get(0).peak());
    }
}
