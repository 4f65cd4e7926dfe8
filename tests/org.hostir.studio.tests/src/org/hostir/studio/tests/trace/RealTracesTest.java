package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.hostir.studio.tests.TestPaths;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.CriticalPath;
import org.hostir.studio.trace.analysis.DependencyKind;
import org.hostir.studio.trace.analysis.IdleBreakdown;
import org.hostir.studio.trace.analysis.KernelTable;
import org.hostir.studio.trace.analysis.TraceAnalysis;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.trace.imported.TraceFiles;
import org.junit.jupiter.api.Test;

/**
 * The analyses on real traces of the AG+GEMM baseline on 2 x H200 (examples/traces/README.md), against what the
 * files show when read by hand (python's json, the events' ts/dur): in the sequential form rank 1 starts about
 * 494 ms after rank 0, and rank 0's first NCCL all-gather waits for it all that time.
 */
class RealTracesTest {
    private static TraceRun open(String... names) throws IOException {
        Path dir = TestPaths.repoRoot().resolve("examples/traces");
        return TraceFiles.open(Arrays.stream(names).map(dir::resolve).toList()).run();
    }

    private static TraceRun sequential() throws IOException {
        return open("kineto_sequential_bf16_8192x4096x4096_rank0.json", "kineto_sequential_bf16_8192x4096x4096_rank1.json");
    }

    @Test
    void sequentialRunWaitsForTheLateRank() throws IOException {
        TraceAnalysis a = TraceAnalysis.of(sequential());
        CriticalPath p = a.criticalPath().orElseThrow();
        CriticalPath.Segment first = p.segments().getFirst();
        assertEquals(DependencyKind.RUN_START, first.kind());
        assertEquals(1, first.event().rank(), "the path starts with rank 1's late start");
        assertTrue(p.share(first) > 0.98, "share " + p.share(first));
        IdleBreakdown.StreamIdle r0 = a.idle().streams().stream().filter(s -> s.rank() == 0).findFirst().orElseThrow();
        assertTrue(r0.peerWaitNs() > 490_000_000L && r0.peerWaitNs() < 495_000_000L, "peer wait " + r0.peerWaitNs());
        KernelTable.Row allGather = a.kernels().rows().getFirst();
        assertTrue(allGather.name().startsWith("ncclDevKernel_AllGather"), allGather.name());
        assertEquals(EventKind.COMMUNICATION, allGather.kind());
        assertEquals(6, allGather.count(), "3 iterations on 2 ranks");
        assertEquals(2, allGather.ranks());
        assertEquals(3, a.graph().communications().size(), "the k-th all-gather of each rank, matched");
    }

    @Test
    void asyncTpBarriersAreMatchedAndTheHostHoldsRankZeroUp() throws IOException {
        TraceAnalysis a = TraceAnalysis.of(open("kineto_async_tp_bf16_8192x4096x4096_rank0.json",
                "kineto_async_tp_bf16_8192x4096x4096_rank1.json"));
        assertEquals(9, a.graph().communications().size(), "9 symmetric-memory barriers per rank");
        CriticalPath p = a.criticalPath().orElseThrow();
        assertTrue(p.byKind().get(DependencyKind.HOST_ORDER) > p.lengthNs() / 2, p.byKind().toString());
        assertTrue(a.run().launches().size() > 20, "launches by correlation: " + a.run().launches().size());
        assertTrue(a.graph().problems().isEmpty(), a.graph().problems().toString());
    }

    @Test
    void studioRunAlignsByNodeWithItselfAndByNameWithAProfile() throws IOException {
        TraceRun studio = open("studio_ag_matmul_p2p_bf16_8192x4096x4096_cuda.json");
        assertTrue(studio.fromStudio());
        CriticalPath p = TraceAnalysis.of(studio).criticalPath().orElseThrow();
        assertEquals(List.of(0, 1), p.segments().stream().map(s -> s.event().rank()).distinct().sorted().toList(),
                "the transfers take the path across both ranks");
        assertTrue(p.byKind().containsKey(DependencyKind.TRANSFER));
        assertTrue(TraceComparison.of(studio, studio).byNode());
        TraceComparison vsProfile = TraceComparison.of(studio, sequential());
        assertTrue(!vsProfile.byNode());
        assertTrue(vsProfile.rows().stream().anyMatch(r -> r.key().equals("matmul") && r.countA() == 4 && r.countB() == 0));
    }
}
