package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.CoalescedSide;
import org.hostir.studio.trace.analysis.ProgramNode;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.junit.jupiter.api.Test;

/**
 * A trace recorded before coalesced transfers' bars named their P2PCommunication names the group's EndCoalescing
 * (node 14 here); aligned with the program, such a bar is work of the group's P2PCommunication of the same direction
 * and peer, and a bar that names its P2PCommunication already stays as it is.
 */
class CoalescedTraceNamingTest {
    /** Rank 0's loop 20 holds a group 11..14: send (12) to a computed peer, recv (13); a group 31..35: sends to 1 and 2. */
    private static final List<ProgramNode> PROGRAM = List.of(new ProgramNode(0, 0, 20, "ForLoop",
            Map.of(11, "StartCoalescing", 12, "P2PCommunication", 13, "P2PCommunication", 14, "EndCoalescing",
                    31, "StartCoalescing", 32, "P2PCommunication", 33, "P2PCommunication", 35, "EndCoalescing"),
            List.of(new CoalescedSide(14, 12, true, -1), new CoalescedSide(14, 13, false, -1),
                    new CoalescedSide(35, 32, true, 1), new CoalescedSide(35, 33, true, 2))));

    private static TimelineEvent bar(String name, int node, int peer, long start) {
        return new TimelineEvent(0, 1, EventKind.P2P, name, node, 0, start, start + 100, 64, 0, peer, 0);
    }

    private static TraceRun run(TimelineEvent... bars) {
        return TraceRun.of("t", Timeline.ofBackend(List.of(bars)));
    }

    private static List<String> keys(TraceRun a, TraceRun b) {
        return TraceComparison.of(a, b, PROGRAM).rows().stream().map(TraceComparison.Row::key).sorted().toList();
    }

    @Test
    void anOlderBarNamingTheEndCoalescingIsWorkOfItsP2PCommunication() {
        TraceRun older = run(bar("send to 1", 14, 1, 0), bar("recv from 1", 14, 1, 0),
                bar("send to 2", 35, 2, 200), bar("send to 1", 35, 1, 200));
        TraceRun newer = run(bar("send to 1", 12, 1, 0), bar("recv from 1", 13, 1, 0),
                bar("send to 2", 33, 2, 200), bar("send to 1", 32, 1, 200));
        String loop = "ForLoop #0 (node 20) > P2PCommunication ";
        List<String> expected = List.of(loop + 12, loop + 13, loop + 32, loop + 33);
        assertEquals(expected, keys(older, newer));
        assertEquals(expected, keys(newer, newer), "a bar naming its P2PCommunication is unchanged");
        TraceComparison c = TraceComparison.of(older, newer, PROGRAM);
        assertEquals(List.of("send to 2"), c.barsOfA(loop + 33).stream().map(TimelineEvent::name).toList());
        assertEquals(0, c.rows().stream().filter(r -> r.onlyIn().isPresent()).count(), c.rows().toString());
    }

    @Test
    void aBarOfNoSideOfTheGroupKeepsTheEndCoalescing() {
        // no send to 3 in group 35: the bar is not guessed into one of its sends
        assertEquals(35, PROGRAM.getFirst().postedBy(35, true, 3));
        assertEquals(32, PROGRAM.getFirst().postedBy(35, true, 1));
        assertEquals(12, PROGRAM.getFirst().postedBy(12, true, 1));
    }
}
