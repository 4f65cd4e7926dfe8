package org.hostir.studio.tests.trace;

import static org.hostir.studio.tests.trace.TraceFixtures.bar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.OverlapFigures;
import org.hostir.studio.trace.RankOverlap;
import org.hostir.studio.trace.RankOverlap.StreamBusy;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

class OverlapFiguresTest {
    @Test
    void matmulOverlappingHalfTheCommunicationIsFiftyPercent() {
        RankOverlap r0 = OverlapFigures.of(TraceFixtures.twoRanks()).ranks().get(0);
        assertEquals(0, r0.rank());
        assertEquals(2200, r0.computeNs());
        assertEquals(2400, r0.communicationNs(), "Allgather [2000,4000) and the send [4000,4400) merge");
        assertEquals(1200, r0.overlapNs());
        assertEquals(0.5, r0.overlapRatio().getAsDouble(), 0.0);
        assertEquals(1200, r0.exposedCommunicationNs());
        assertEquals(0, r0.spanStartNs());
        assertEquals(5000, r0.spanNs());
        assertEquals(List.of(new StreamBusy(-1, "host", 500), new StreamBusy(0, "Stream 0", 2200),
                new StreamBusy(1, "Stream 1 (comm)", 3000)), r0.streams(), "the copy keeps stream 1 busy too");
    }

    @Test
    void secondRankHasNestedComputeAndNoOverlap() {
        RankOverlap r1 = OverlapFigures.of(TraceFixtures.twoRanks()).ranks().get(1);
        assertEquals(1400, r1.computeNs(), "the nested kernel adds nothing to the union");
        assertEquals(500, r1.communicationNs());
        assertEquals(0, r1.overlapNs());
        assertEquals(0.0, r1.overlapRatio().getAsDouble(), 0.0);
        assertEquals(500, r1.exposedCommunicationNs());
        assertEquals(4100, r1.spanStartNs());
        assertEquals(1900, r1.spanNs());
        assertEquals(List.of(new StreamBusy(0, "Stream 0", 1900), new StreamBusy(1, "Stream 1", 0)), r1.streams());
    }

    @Test
    void aggregatesAndCriticalRank() {
        OverlapFigures f = OverlapFigures.of(TraceFixtures.twoRanks());
        OverlapFigures.Spread ratio = f.overlapRatio().orElseThrow();
        assertEquals(0.0, ratio.min(), 0.0);
        assertEquals(0.25, ratio.mean(), 0.0);
        assertEquals(0.5, ratio.max(), 0.0);
        assertEquals(2, ratio.count());
        assertEquals(0, f.criticalRank().orElseThrow().rank());
        assertEquals(5000, f.criticalRank().orElseThrow().spanNs());
    }

    @Test
    void computeOnAnotherRankDoesNotHideCommunication() {
        Timeline t = new Timeline(List.of(bar(0, 0, EventKind.COMMUNICATION, "Allreduce", 0, 1000),
                bar(1, 0, EventKind.MATMUL, "matmul", 0, 1000)), Map.of());
        RankOverlap r0 = OverlapFigures.of(t).ranks().get(0);
        assertEquals(0, r0.overlapNs());
        assertEquals(1000, r0.exposedCommunicationNs());
        assertTrue(OverlapFigures.of(t).ranks().get(1).overlapRatio().isEmpty(), "rank 1 does not communicate");
        assertEquals(1, OverlapFigures.of(t).overlapRatio().orElseThrow().count());
    }

    @Test
    void computeOnTwoStreamsIsCountedOnce() {
        Timeline t = new Timeline(List.of(bar(0, 0, EventKind.MATMUL, "a", 0, 1000),
                bar(0, 1, EventKind.KERNEL, "b", 500, 1500), bar(0, 2, EventKind.P2P, "send", 0, 2000),
                bar(0, 3, EventKind.COPY, "copy", 0, 3000)), Map.of());
        RankOverlap r = OverlapFigures.of(t).ranks().getFirst();
        assertEquals(1500, r.computeNs());
        assertEquals(2000, r.communicationNs(), "a copy is neither compute nor communication");
        assertEquals(1500, r.overlapNs());
        assertEquals(500, r.exposedCommunicationNs());
        assertEquals(0.75, r.overlapRatio().getAsDouble(), 0.0);
        assertEquals(3000, r.spanNs());
    }

    @Test
    void zeroDurationBarsCountNoTimeButExtendTheSpan() {
        Timeline t = new Timeline(List.of(bar(0, 0, EventKind.MATMUL, "m", 100, 100),
                bar(0, 0, EventKind.COMMUNICATION, "c", 100, 100), bar(0, 0, EventKind.HOST, "h", 900, 900)),
                Map.of());
        RankOverlap r = OverlapFigures.of(t).ranks().getFirst();
        assertEquals(0, r.computeNs());
        assertEquals(0, r.communicationNs());
        assertTrue(r.overlapRatio().isEmpty());
        assertEquals(800, r.spanNs());
    }

    @Test
    void emptyTimelineHasNoFigures() {
        OverlapFigures f = OverlapFigures.of(TraceFixtures.empty());
        assertEquals(List.of(), f.ranks());
        assertTrue(f.overlapRatio().isEmpty());
        assertTrue(f.criticalRank().isEmpty());
        assertEquals("no events\n", f.format());
    }

    @Test
    void formatGivesReadableLines() {
        assertEquals("""
                rank 0: compute 2.20 us, communication 2.40 us, overlap 1.20 us (50%), exposed communication 1.20 us, span 5.00 us
                  host: busy 0.50 us (10% of span)
                  Stream 0: busy 2.20 us (44% of span)
                  Stream 1 (comm): busy 3.00 us (60% of span)
                rank 1: compute 1.40 us, communication 0.50 us, overlap 0.00 us (0%), exposed communication 0.50 us, span 1.90 us
                  Stream 0: busy 1.90 us (100% of span)
                  Stream 1: busy 0.00 us (0% of span)
                overlap ratio over 2 communicating ranks: min 0%, mean 25%, max 50%
                critical path (longest span): rank 0, 5.00 us
                """, OverlapFigures.of(TraceFixtures.twoRanks()).format());
    }

    @Test
    void formatPicksMillisecondsForLongRuns() {
        Timeline t = new Timeline(List.of(bar(0, 0, EventKind.MATMUL, "m", 0, 3_100_000),
                bar(0, 1, EventKind.COMMUNICATION, "c", 2_000_000, 3_200_000),
                bar(0, TimelineEvent.HOST_STREAM, EventKind.HOST, "h", 0, 4_000_000)), Map.of());
        String text = OverlapFigures.of(t).format();
        assertTrue(text.startsWith("rank 0: compute 3.10 ms, communication 1.20 ms, overlap 1.10 ms (92%), "
                + "exposed communication 0.10 ms, span 4.00 ms\n"), text);
        assertTrue(text.contains("overlap ratio over 1 communicating rank: min 92%"), text);
    }
}
