package org.hostir.studio.tests.trace;

import java.util.List;
import java.util.Map;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;

/** Hand-made timelines whose figures are known by construction. */
final class TraceFixtures {
    private TraceFixtures() {
    }

    static TimelineEvent bar(int rank, int stream, EventKind kind, String name, long startNs, long endNs) {
        return new TimelineEvent(rank, stream, kind, name, -1, -1, startNs, endNs, 0, 0, -1, 0);
    }

    static TimelineEvent p2p(int rank, int stream, String name, long startNs, long endNs, int peer, long flowId) {
        return new TimelineEvent(rank, stream, EventKind.P2P, name, 30, 1, startNs, endNs, 4096, 0, peer, flowId);
    }

    /**
     * Two ranks, two streams and a host row on rank 0.
     * <pre>
     * rank 0  host      [0, 500)       HOST dispatch
     *         Stream 0  [1000, 3200)   MATMUL       (overlaps half of the communication stream's 2400 ns)
     *         Stream 1  [2000, 4000)   COMMUNICATION Allgather
     *                   [4000, 4400)   P2P send, flow 7 -> rank 1
     *                   [4400, 5000)   COPY          (busy, neither compute nor communication)
     * rank 1  Stream 0  [4100, 4600)   P2P recv, flow 7
     *                   [4600, 6000)   LINEAR, with a KERNEL [4700, 4800) nested in it
     *         Stream 1  [5000, 5000)   KERNEL of zero duration
     * </pre>
     * Rank 0: compute 2200, communication 2400, overlap 1200 (exactly 50%), exposed 1200, span 5000.
     * Rank 1: compute 1400, communication 500, overlap 0, exposed 500, span 1900.
     */
    static Timeline twoRanks() {
        return new Timeline(List.of(
                bar(0, TimelineEvent.HOST_STREAM, EventKind.HOST, "dispatch", 0, 500),
                new TimelineEvent(0, 0, EventKind.MATMUL, "matmul", 5, 0, 1000, 3200, 0, 2_000_000_000L, -1, 0),
                new TimelineEvent(0, 1, EventKind.COMMUNICATION, "Allgather", 7, 0, 2000, 4000, 1 << 20, 0, -1, 0),
                p2p(0, 1, "send", 4000, 4400, 1, 7),
                bar(0, 1, EventKind.COPY, "copy T3", 4400, 5000),
                p2p(1, 0, "recv", 4100, 4600, 0, 7),
                bar(1, 0, EventKind.LINEAR, "linear", 4600, 6000),
                bar(1, 0, EventKind.KERNEL, "pointwise", 4700, 4800),
                bar(1, 1, EventKind.KERNEL, "marker", 5000, 5000)),
                Map.of(0, Map.of(1, "Stream 1 (comm)")));
    }

    static Timeline empty() {
        return new Timeline(List.of(), Map.of());
    }
}
