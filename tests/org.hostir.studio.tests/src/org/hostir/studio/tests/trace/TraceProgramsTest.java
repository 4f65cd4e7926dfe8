package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.cli.Main;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.LoweringOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hirstudio trace --fusion}: an imported trace's nvFuser dispatch ranges tied to the node ids of the
 * Studio's program for the fusion that ran.
 */
class TraceProgramsTest {
    private static final Path FUSION = Path.of(System.getProperty("hirstudio.repo", "."), "examples",
            "ag_matmul_p2p_bf16.fusion");

    @TempDir
    Path dir;

    /**
     * Both ranks dispatch the program's five top-level nodes (two Allocates, GetCurrentStream, two ForLoops) as
     * nvFuser names its ranges; the second loop launches an NCCL send/recv and a GEMM. {@code third} is the op of
     * the third range (GetCurrentStream when the trace is of this program).
     */
    private Path export(String third) throws Exception {
        Path file = dir.resolve(third + ".sqlite");
        try (NsightExport x = new NsightExport(file)) {
            for (int rank = 0; rank < 2; rank++) {
                int p = 100 + rank;
                x.nvtx(p, 1, 0, 10_000L, NsightExport.PUSH_POP, "HostIrEvaluator::runWithInputs");
                List<String> ops = List.of("kir::Allocate", "kir::Allocate", third, "hir::ForLoop", "hir::ForLoop");
                for (int i = 0; i < ops.size(); i++) {
                    x.nvtx(p, 1, 100 + i * 1000, 1000L + i * 1000, NsightExport.PUSH_POP, "HostIrEvaluator::dispatch " + ops.get(i));
                }
                x.runtime(p, 1, 4100, 4200, 20, "cudaLaunchKernel_v7000");
                x.kernel(p, rank, 7, 5000, 8000, 20, "ncclDevKernel_SendRecv");
                x.runtime(p, 1, 4300, 4400, 21, "cudaLaunchKernel_v7000");
                x.kernel(p, rank, 7, 8000, 9000, 21, "nvjet_sm90_tst_256x128");
            }
        }
        return file;
    }

    @Test
    void rangesAreTiedToTheNodeIdsOfTheFusionsProgram() throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.File(FUSION, FUSION.toString()), 2, Map.of());
        HostIrContainer rank0 = Engine.lowerRank(loaded, LoweringOptions.parse(Map.of()), 0);
        assertEquals("ForLoop", rank0.topLevel().get(4).getClass().getSimpleName());
        int loop = rank0.topLevel().get(4).id();
        String[] r = run("trace", export("hir::GetCurrentStream").toString(), "--fusion", FUSION.toString());
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("hir::ForLoop #4 (node " + loop + ") (nvFuser's NVTX range)"), r[1]);
        assertTrue(r[1].contains("nvjet_sm90_tst_256x128 [hir::ForLoop #4 (node " + loop + ")]"), r[1]);
        assertTrue(!r[1].contains("note: "), r[1]);
    }

    @Test
    void aTraceOfAnotherProgramIsSaidToBeOne() throws Exception {
        String[] r = run("trace", export("hir::Wait").toString(), "--fusion", FUSION.toString());
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("note: 2 of nvFuser's dispatch ranges name another op than the program's node"), r[1]);
        assertTrue(r[1].contains("hir::ForLoop #4 (node "), "the ranges that agree keep their node: " + r[1]);
        String[] both = run("trace", export("x").toString(), "--fusion", FUSION.toString(), "--dump", "log.txt");
        assertEquals("2", both[0]);
        assertTrue(both[2].contains("not both"), both[2]);
        String[] missing = run("trace", export("y").toString(), "--fusion", dir.resolve("none.fusion").toString());
        assertEquals("2", missing[0]);
        assertEquals(1, missing[2].strip().lines().count(), missing[2]);
    }

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = new Main().run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {String.valueOf(rc), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }
}
