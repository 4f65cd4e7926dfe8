package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.NodeMatching;
import org.hostir.studio.trace.imported.TraceFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kernels of a trace without nvFuser's NVTX ranges matched to Host IR nodes by their names. */
class NodeMatchingTest {
    private static final Path TRACES = Path.of(System.getProperty("hirstudio.repo", "."), "examples", "traces");

    @TempDir
    Path dir;

    @Test
    void ncclAndGemmKernelsAreNamedByTheirKernelNames() throws IOException {
        Path r0 = Files.writeString(dir.resolve("r0.json"), TraceImportTest.kineto(0, 20));
        Path r1 = Files.writeString(dir.resolve("r1.json"), TraceImportTest.kineto(1, 60));
        NodeMatching m = NodeMatching.of(TraceFiles.open(List.of(r0, r1)).run());
        assertEquals(4, m.matches().size());
        for (NodeMatching.Match match : m.matches()) {
            assertEquals(NodeMatching.How.KERNEL_NAME, match.how());
            assertEquals(-1, match.index());
            assertEquals(match.event().name().startsWith("nccl") ? "Communication AllReduce" : "matmul", match.node());
        }
        assertEquals(List.of("Communication AllReduce", "matmul"), m.byNode().stream().map(NodeMatching.NodeTime::node).toList());
        assertEquals(20_000 + 60_000, m.byNode().get(1).totalNs());
    }

    @Test
    void theStudiosOwnRunsNameTheirNodesAlready() throws IOException {
        TraceRun studio = TraceFiles.open(List.of(TRACES.resolve("studio_ag_matmul_p2p_bf16_8192x4096x4096_cuda.json"))).run();
        assertTrue(studio.fromStudio());
        assertEquals(List.of(), NodeMatching.of(studio).matches());
        TraceRun kineto = TraceFiles.open(List.of(TRACES.resolve("kineto_sequential_bf16_8192x4096x4096_rank0.json"))).run();
        assertTrue(NodeMatching.of(kineto).matches().stream().anyMatch(x -> x.node().equals("Communication AllGather")),
                NodeMatching.of(kineto).byNode().toString());
    }
}
