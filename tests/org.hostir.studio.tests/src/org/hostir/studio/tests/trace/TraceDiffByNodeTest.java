package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.cli.Main;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.PredictedTrace;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.trace.imported.TraceFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hirstudio trace diff A B --fusion F} (each side's device bars named by the Host IR node of the program
 * that ran, the difference per node with the side that lacks it) and {@code trace diff A --predict PROFILE
 * --fusion F} (a measured run against the simulator's prediction of the same fusion).
 */
class TraceDiffByNodeTest {
    private static final Path REPO = Path.of(System.getProperty("hirstudio.repo", "."));
    private static final Path FUSION = REPO.resolve("examples/ag_matmul_p2p_bf16.fusion");
    private static final Path STUDIO = REPO.resolve("examples/traces/studio_ag_matmul_p2p_bf16_8192x4096x4096_cuda.json");
    /** How the Studio's trace in examples/traces was made (its otherData and README). */
    private static final List<String> STUDIO_RUN = List.of("--fusion", FUSION.toString(), "--set", "M=4096", "--set",
            "K=4096", "--set", "N=4096", "--option", "numberOfStreams=4");

    @TempDir
    Path dir;

    /**
     * Two ranks that dispatch the fusion's five top-level nodes in nvFuser's NVTX ranges: an NCCL send/recv of
     * 3,000 ns launched at {@code ncclLaunch} (inside range 4, the second ForLoop, at 4,100; inside range 3, the
     * first ForLoop, at 3,200) and a GEMM of {@code gemmNs} launched in range 4.
     */
    private Path export(String name, long gemmNs, long ncclLaunch) throws Exception {
        Path file = dir.resolve(name + ".sqlite");
        try (NsightExport x = new NsightExport(file)) {
            for (int rank = 0; rank < 2; rank++) {
                int p = 100 + rank;
                x.nvtx(p, 1, 0, 20_000L, NsightExport.PUSH_POP, "HostIrEvaluator::runWithInputs");
                List<String> ops = List.of("kir::Allocate", "kir::Allocate", "hir::GetCurrentStream", "hir::ForLoop",
                        "hir::ForLoop");
                for (int i = 0; i < ops.size(); i++) {
                    x.nvtx(p, 1, 100 + i * 1000, 1000L + i * 1000, NsightExport.PUSH_POP, "HostIrEvaluator::dispatch " + ops.get(i));
                }
                x.runtime(p, 1, ncclLaunch, ncclLaunch + 100, 20, "cudaLaunchKernel_v7000");
                x.kernel(p, rank, 7, 5000, 8000, 20, "ncclDevKernel_SendRecv");
                x.runtime(p, 1, 4300, 4400, 21, "cudaLaunchKernel_v7000");
                x.kernel(p, rank, 7, 8000, 8000 + gemmNs, 21, "nvjet_sm90_tst_256x128");
            }
        }
        return file;
    }

    @Test
    void eachSideIsNamedByTheProgramsNodesAndTheDifferenceIsPerNode() throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.File(FUSION, FUSION.toString()), 2, Map.of());
        HostIrContainer rank0 = Engine.lowerRank(loaded, LoweringOptions.parse(Map.of()), 0);
        int first = rank0.topLevel().get(3).id(), second = rank0.topLevel().get(4).id();
        Path a = export("a", 1000, 4100), b = export("b", 3000, 3200);
        String[] r = run("trace", "diff", a.toString(), b.toString(), "--fusion", FUSION.toString());
        assertEquals("0", r[0], r[2]);
        String loop3 = "ForLoop #3 (node " + first + ")", loop4 = "ForLoop #4 (node " + second + ")";
        // by hand: A's loop 4 holds both kernels on both ranks (2 x (3,000 + 1,000) ns), B's only the GEMMs
        // (2 x 3,000 ns); B's send/recv launched in loop 3 (2 x 3,000 ns), which A lacks
        assertTrue(r[1].contains("device work aligned by the Host IR nodes of the program"), r[1]);
        assertTrue(r[1].matches("(?s).*\\n\\s+4\\s+8\\.00 us\\s+2\\s+6\\.00 us\\s+-2\\.00 us  " + java.util.regex.Pattern.quote(loop4) + "\\n.*"), r[1]);
        assertTrue(r[1].matches("(?s).*\\n\\s+0\\s+0\\.00 us\\s+2\\s+6\\.00 us\\s+6\\.00 us  " + java.util.regex.Pattern.quote(loop3)
                + "  \\(only in B\\)\\n.*"), r[1]);
        assertTrue(r[1].contains("device ops aligned by name"), "the per-kernel table follows: " + r[1]);
        assertTrue(r[1].matches("(?s).*\\n\\s+2\\s+2\\.00 us\\s+2\\s+6\\.00 us\\s+4\\.00 us  nvjet_sm90_tst_256x128\\n.*"), r[1]);
        assertTrue(!r[1].contains("note: "), r[1]);

        TraceComparison c = TraceComparison.of(open(a), open(b), PredictedTrace.nodes(loaded, LoweringOptions.parse(Map.of())));
        TraceComparison.Row only = c.rows().stream().filter(x -> x.key().equals(loop3)).findFirst().orElseThrow();
        assertEquals(Optional.of("B"), only.onlyIn());
        // bars paired per rank and node in start order: rank r's first bar of loop 4 is the send/recv in A, the GEMM in B
        List<TraceComparison.BarPair> loop4Pairs = c.bars().stream().filter(p -> p.key().equals(loop4)).toList();
        assertEquals(4, loop4Pairs.size());
        assertEquals(2, loop4Pairs.stream().filter(p -> p.b() == null).count(), "A's GEMMs have no counterpart in B");
        assertEquals(List.of(0L, 0L), loop4Pairs.stream().filter(p -> p.b() != null).map(TraceComparison.BarPair::deltaNs).toList());
        assertEquals(4, c.barsOfA(loop4).size());
    }

    @Test
    void theStudiosRunsAreAlignedByTheNodeNestedInTheLoop() throws Exception {
        String[] r = run(args("trace", "diff", STUDIO.toString(), STUDIO.toString()));
        assertEquals("0", r[0], r[2]);
        int matmulNode = open(STUDIO).timeline().events().stream().filter(e -> e.name().equals("matmul"))
                .mapToInt(TimelineEvent::nodeId).distinct().reduce((x, y) -> -1).orElseThrow();
        assertTrue(matmulNode >= 0, "one node issued every matmul");
        assertTrue(r[1].contains("> HostOp " + matmulNode), r[1]);
        assertTrue(!r[1].contains("only in") && !r[1].contains("note: "), r[1]);
    }

    @Test
    void aMeasuredRunIsComparedWithItsPredictionNodeByNode() throws Exception {
        String[] r = run(args("trace", "diff", STUDIO.toString(), "--predict", "h200x2-measured"));
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("B: predicted: ag_matmul_p2p_bf16 on 2 x h200x2-measured (simulated)"), r[1]);
        TraceRun measured = open(STUDIO);
        LoadedFusion loaded = Engine.load(new FusionSource.File(FUSION, FUSION.toString()), 2,
                Map.of("M", 4096L, "K", 4096L, "N", 4096L));
        TraceComparison c = PredictedTrace.compare(measured, loaded, LoweringOptions.parse(Map.of("numberOfStreams", "4")),
                "h200x2-measured", FUSION.toString(), s -> { });
        assertEquals(0, c.unnamedA(), "every measured bar names a node of the predicted run's program");
        assertEquals(0, c.unnamedB());
        long measuredMatmuls = measured.timeline().events().stream().filter(e -> e.name().equals("matmul"))
                .mapToLong(TimelineEvent::durationNs).sum();
        TraceComparison.Row matmul = c.rows().stream().filter(x -> x.key().contains("> HostOp ")
                && c.barsOfA(x.key()).stream().allMatch(e -> e.name().equals("matmul"))).findFirst().orElseThrow();
        assertEquals(4, matmul.countA());
        assertEquals(4, matmul.countB(), "the prediction runs the same four matmuls");
        assertEquals(measuredMatmuls, matmul.totalA());
        assertTrue(matmul.totalB() > 0);
        assertTrue(c.rows().stream().allMatch(x -> x.onlyIn().isEmpty()), c.rows().toString());
    }

    @Test
    void badInputGetsOneLine() throws Exception {
        Path garbage = Files.writeString(dir.resolve("g.json"), "hello\n");
        String[] r = run("trace", "diff", garbage.toString(), STUDIO.toString(), "--fusion", FUSION.toString());
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("error: " + garbage + ": ") && r[2].strip().endsWith("[trace.read]")
                && r[2].strip().lines().count() == 1, r[2]);
        String[] badFusion = run("trace", "diff", STUDIO.toString(), STUDIO.toString(), "--fusion", garbage.toString());
        assertEquals("2", badFusion[0], badFusion[2]);
        assertEquals(1, badFusion[2].strip().lines().count(), badFusion[2]);
        assertTrue(badFusion[2].startsWith("error: " + garbage), badFusion[2]);
        String[] twoWithPredict = run("trace", "diff", STUDIO.toString(), STUDIO.toString(), "--predict", "h200x2-measured",
                "--fusion", FUSION.toString());
        assertEquals("2", twoWithPredict[0]);
        assertTrue(twoWithPredict[2].contains("compares one trace, A, with the prediction, got 2"), twoWithPredict[2]);
        String[] noFusion = run("trace", "diff", STUDIO.toString(), "--predict", "h200x2-measured");
        assertEquals("2", noFusion[0]);
        assertTrue(noFusion[2].contains("add --fusion F.fusion"), noFusion[2]);
        String[] notDiff = run("trace", STUDIO.toString(), "--predict", "h200x2-measured");
        assertEquals("2", notDiff[0]);
        assertTrue(notDiff[2].contains("belongs to trace diff"), notDiff[2]);
        String[] badProfile = run(args("trace", "diff", STUDIO.toString(), "--predict", "nosuch"));
        assertEquals("2", badProfile[0], badProfile[2]);
        assertEquals(1, badProfile[2].strip().lines().count(), badProfile[2]);
        assertTrue(badProfile[2].contains("no profile named 'nosuch'"), badProfile[2]);
    }

    private static String[] args(String... head) {
        return java.util.stream.Stream.concat(java.util.Arrays.stream(head), STUDIO_RUN.stream()).toArray(String[]::new);
    }

    private static TraceRun open(Path file) throws java.io.IOException {
        return TraceFiles.open(List.of(file)).run();
    }

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = new Main().run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {String.valueOf(rc), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }
}
