package org.hostir.studio.tests.trace;

import static org.hostir.studio.tests.trace.TraceFixtures.p2p;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.trace.FlowPairing;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

class FlowPairingTest {
    private static FlowPairing.Result pair(TimelineEvent... events) {
        return FlowPairing.pair(new Timeline(List.of(events), Map.of()));
    }

    @Test
    void namesDecideTheDirectionEvenWhenTheRecvStartsFirst() {
        TimelineEvent recv = p2p(1, 0, "recv", 0, 100, 0, 9), send = p2p(0, 2, "SEND", 50, 80, 1, 9);
        FlowPairing.Result r = pair(recv, send);
        assertEquals(List.of(new FlowPairing.Flow(9, send, recv)), r.flows());
        assertEquals(List.of(), r.problems());
    }

    @Test
    void oneNamedEndIsEnough() {
        TimelineEvent other = p2p(1, 0, "transfer", 0, 100, 0, 3), recv = p2p(0, 0, "recv T1", 10, 20, 1, 3);
        assertEquals(List.of(new FlowPairing.Flow(3, other, recv)), pair(recv, other).flows());
    }

    @Test
    void withoutNamesTheEarlierStartSends() {
        TimelineEvent a = p2p(1, 0, "copy", 10, 100, 0, 5), b = p2p(0, 0, "copy", 20, 30, 1, 5);
        assertEquals(List.of(new FlowPairing.Flow(5, a, b)), pair(b, a).flows());
        // tie on start: the lower rank sends
        TimelineEvent c = p2p(1, 0, "copy", 10, 100, 0, 6), d = p2p(0, 0, "copy", 10, 30, 1, 6);
        assertEquals(List.of(new FlowPairing.Flow(6, d, c)), pair(c, d).flows());
    }

    @Test
    void flowIdZeroIsNoFlow() {
        assertEquals(List.of(), pair(p2p(0, 0, "send", 0, 1, 1, 0), p2p(1, 0, "recv", 0, 1, 0, 0)).flows());
    }

    @Test
    void brokenGroupsAreProblemsWithoutArrows() {
        FlowPairing.Result r = pair(p2p(0, 0, "send", 0, 1, 1, 1),
                p2p(0, 0, "send", 0, 1, 1, 2), p2p(1, 0, "send", 0, 1, 0, 2),
                p2p(0, 0, "send", 0, 1, 1, 3), p2p(1, 0, "recv", 0, 1, 0, 3), p2p(1, 1, "recv", 0, 1, 0, 3),
                p2p(0, 0, "send", 5, 6, 1, 4), p2p(1, 0, "recv", 5, 6, 0, 4));
        assertEquals(1, r.flows().size());
        assertEquals(4, r.flows().getFirst().id());
        assertEquals(3, r.problems().size(), r.problems().toString());
        assertTrue(r.problems().get(0).startsWith("flow 1 has 1 events"), r.problems().get(0));
        assertTrue(r.problems().get(1).startsWith("flow 2 has two send events"), r.problems().get(1));
        assertTrue(r.problems().get(2).startsWith("flow 3 has 3 events"), r.problems().get(2));
    }

    @Test
    void fixtureHasOneFlowFromRankZeroToRankOne() {
        FlowPairing.Result r = FlowPairing.pair(TraceFixtures.twoRanks());
        assertEquals(1, r.flows().size());
        assertEquals(0, r.flows().getFirst().send().rank());
        assertEquals(1, r.flows().getFirst().recv().rank());
    }
}
