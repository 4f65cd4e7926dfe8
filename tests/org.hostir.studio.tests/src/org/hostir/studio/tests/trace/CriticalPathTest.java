package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.CriticalPath;
import org.hostir.studio.trace.analysis.DependencyGraph;
import org.hostir.studio.trace.analysis.DependencyKind;
import org.hostir.studio.trace.analysis.IdleBreakdown;
import org.hostir.studio.trace.analysis.IdleBreakdown.Cause;
import org.hostir.studio.trace.analysis.KernelTable;
import org.hostir.studio.trace.analysis.TraceAnalysis;
import org.junit.jupiter.api.Test;

/**
 * The critical path, idle breakdown and kernel table of a hand-built two-rank run whose figures are worked out
 * by hand (times in ns):
 * <pre>
 * rank 0 host      A n1 [0,10)  B n2 [10,20)  D n4 [20,28)  E n5 [28,30)
 *        stream 0  gemm n1 [12,50)            allreduce n2 [50,100)
 *        stream 1  copy n4 [30,35)   add n5 [55,60)   (add waits for gemm, which ends at 50)
 * rank 1 host      C n3 [0,4)  B n2 [4,8)  F n6 [8,9)  G n7 [9,29)
 *        stream 0  slow n3 [5,70)                allreduce n2 [70,100)
 *        stream 1  k1 n6 [10,12)   k2 n7 [30,32)  (k2 launched late: G ends at 29)
 * </pre>
 * The allreduce can end only after rank 1 arrives at 70, so the path is: dispatch C (4), launch (1), slow (65),
 * then the allreduce after the last peer arrived (30) = 100, the span.
 */
class CriticalPathTest {
    static TimelineEvent host(int rank, String name, int node, long start, long end) {
        return new TimelineEvent(rank, TimelineEvent.HOST_STREAM, EventKind.HOST, name, node, -1, start, end, 0, 0, -1, 0);
    }

    static TimelineEvent op(int rank, int stream, EventKind kind, String name, int node, long start, long end) {
        long bytes = kind == EventKind.COMMUNICATION ? 1000 : 0;
        return new TimelineEvent(rank, stream, kind, name, node, -1, start, end, bytes, 0, -1, 0);
    }

    static TraceRun handBuilt() {
        return TraceRun.of("hand-built", new Timeline(List.of(
                host(0, "dispatch A", 1, 0, 10), host(0, "dispatch B", 2, 10, 20), host(0, "dispatch D", 4, 20, 28),
                host(0, "dispatch E", 5, 28, 30),
                op(0, 0, EventKind.MATMUL, "gemm", 1, 12, 50), op(0, 0, EventKind.COMMUNICATION, "allreduce", 2, 50, 100),
                op(0, 1, EventKind.COPY, "copy", 4, 30, 35), op(0, 1, EventKind.KERNEL, "add", 5, 55, 60),
                host(1, "dispatch C", 3, 0, 4), host(1, "dispatch B", 2, 4, 8), host(1, "dispatch F", 6, 8, 9),
                host(1, "dispatch G", 7, 9, 29),
                op(1, 0, EventKind.KERNEL, "slow", 3, 5, 70), op(1, 0, EventKind.COMMUNICATION, "allreduce", 2, 70, 100),
                op(1, 1, EventKind.KERNEL, "k1", 6, 10, 12), op(1, 1, EventKind.KERNEL, "k2", 7, 30, 32)), Map.of()));
    }

    @Test
    void pathCrossesToTheRankThatArrivedLast() {
        CriticalPath p = CriticalPath.of(DependencyGraph.of(handBuilt())).orElseThrow();
        assertEquals(100, p.lengthNs());
        List<String> timed = p.segments().stream().filter(s -> s.durationNs() > 0)
                .map(s -> s.kind() + " " + s.event().name() + "@" + s.event().rank() + " " + s.durationNs()).toList();
        assertEquals(List.of("WORK dispatch C@1 4", "LAUNCH slow@1 1", "WORK slow@1 65", "TRANSFER allreduce@0 30"),
                timed);
        assertEquals(Map.of(DependencyKind.WORK, 69L, DependencyKind.TRANSFER, 30L, DependencyKind.LAUNCH, 1L), p.byKind());
        assertEquals(0.65, p.share(p.segments().stream().filter(s -> s.event().name().equals("slow")
                && s.kind() == DependencyKind.WORK).findFirst().orElseThrow()), 1e-12);
        assertEquals(p.lengthNs(), p.walk().getWeight(), 0.0, "JGraphT's walk carries the path's length");
        assertEquals(p.segments().size(), p.walk().getLength());
    }

    @Test
    void streamWaitIsInferredAndIdleIsSplitByCause() {
        DependencyGraph g = DependencyGraph.of(handBuilt());
        TimelineEvent add = g.events().stream().filter(e -> e.name().equals("add")).findFirst().orElseThrow();
        int addIndex = g.events().indexOf(add);
        assertEquals(DependencyKind.STREAM_WAIT, g.binding(DependencyGraph.start(addIndex)).kind());
        assertEquals("gemm", g.events().get(g.eventOf(g.binding(DependencyGraph.start(addIndex)).from())).name());
        IdleBreakdown idle = IdleBreakdown.of(g, handBuilt().timeline());
        IdleBreakdown.StreamIdle r0s0 = find(idle, 0, 0), r0s1 = find(idle, 0, 1), r1s1 = find(idle, 1, 1);
        assertEquals(20, r0s0.peerWaitNs(), "rank 0's allreduce waits from 50 until rank 1 arrives at 70");
        assertEquals(0, r0s0.idleTotal());
        assertEquals(20, r0s1.idle(Cause.OTHER_STREAM), "add waits [35,55) for gemm on stream 0");
        assertEquals(0, r0s1.idle(Cause.HOST));
        assertEquals(18, r1s1.idle(Cause.HOST), "k2 waits [12,30) for its launch");
        assertEquals(0, find(idle, 1, 0).peerWaitNs(), "rank 1 arrives last");
    }

    @Test
    void kernelTableCountsTotalsAndSpreadAcrossRanks() {
        KernelTable t = KernelTable.of(handBuilt().timeline());
        assertEquals(List.of("allreduce", "slow", "gemm", "add", "copy", "k1", "k2"),
                t.rows().stream().map(KernelTable.Row::name).toList());
        KernelTable.Row ar = t.rows().getFirst();
        assertEquals(2, ar.count());
        assertEquals(80, ar.totalNs());
        assertEquals(40.0, ar.meanNs(), 0.0);
        assertEquals(2, ar.ranks());
        assertEquals(30, ar.minRankNs());
        assertEquals(50, ar.maxRankNs());
        assertEquals(0.4, ar.spread(), 1e-12);
        assertEquals(List.of("add", "allreduce", "copy", "gemm", "k1", "k2", "slow"),
                t.sorted(KernelTable.Column.NAME, true).rows().stream().map(KernelTable.Row::name).toList());
        assertEquals(2, KernelTable.barsOf(handBuilt().timeline(), ar).size());
    }

    @Test
    void sendAndRecvJoinAcrossRanks() {
        // rank 0 sends at [0,50); rank 1 posts its recv only at 40, after a kernel [0,40): the transfer can end
        // only after the last of the two arrived, so the path is the kernel (40), then 10 of transfer
        TraceRun run = TraceRun.of("p2p", new Timeline(List.of(
                new TimelineEvent(0, 0, EventKind.P2P, "send to 1", 9, -1, 0, 50, 64, 0, 1, 5),
                op(1, 0, EventKind.KERNEL, "before", 8, 0, 40),
                new TimelineEvent(1, 0, EventKind.P2P, "recv from 0", 9, -1, 40, 50, 64, 0, 0, 5)), Map.of()));
        CriticalPath p = CriticalPath.of(DependencyGraph.of(run)).orElseThrow();
        assertEquals(List.of("WORK before@1 40", "TRANSFER send to 1@0 10"), p.segments().stream()
                .filter(s -> s.durationNs() > 0)
                .map(s -> s.kind() + " " + s.event().name() + "@" + s.event().rank() + " " + s.durationNs()).toList());
    }

    @Test
    void clocksThatDisagreeAreReportedNotFollowed() {
        // rank 1's member ends before rank 0's starts: no transfer edge can go back in time
        TraceRun run = TraceRun.of("skew", new Timeline(List.of(
                op(0, 0, EventKind.COMMUNICATION, "allgather", 2, 100, 150),
                op(1, 0, EventKind.COMMUNICATION, "allgather", 2, 0, 50)), Map.of()));
        DependencyGraph g = DependencyGraph.of(run);
        assertEquals(1, g.problems().size());
        assertTrue(g.problems().getFirst().contains("clocks disagree"), g.problems().toString());
        assertEquals(150, CriticalPath.of(g).orElseThrow().lengthNs());
    }

    @Test
    void emptyRunHasNoPath() {
        TraceAnalysis a = TraceAnalysis.of(TraceRun.of("empty", new Timeline(List.of(), Map.of())));
        assertTrue(a.criticalPath().isEmpty());
        assertTrue(a.kernels().rows().isEmpty());
    }

    private static IdleBreakdown.StreamIdle find(IdleBreakdown idle, int rank, int stream) {
        return idle.streams().stream().filter(s -> s.rank() == rank && s.stream() == stream).findFirst().orElseThrow();
    }
}
