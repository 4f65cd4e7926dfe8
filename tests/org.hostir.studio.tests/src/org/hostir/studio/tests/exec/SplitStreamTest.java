package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * Stream on the outer part of an outer split (nvFuser's test_column_parallel_linear_forward: {@code outer_split(0,
 * d)}, {@code swizzle1d}, then Stream): the stream loop runs over the split's outer part and each iteration handles
 * one chunk of the logical axis, which keeps its place (nvFuser's ShardByStream), while the forms nvFuser refuses
 * (the inner part of a split, a merge) stay refused by {@code loop.stream}.
 */
class SplitStreamTest {

    /** {@code z = y + x} with {@code y = set(x)}, {@code [M, N]}; y's and z's loop steps are {@code loop}. */
    private static String pipeline(String loop, long m) {
        return """
                {"format": "hostir-fusion/2", "name": "sp", "symbols": {"M": %d, "N": 3},
                 "tensors": [
                  {"name": "x", "dtype": "float", "axes": ["M", "N"]},
                  {"name": "y", "dtype": "float", "axes": ["M", "N"], "loop": %s},
                  {"name": "z", "dtype": "float", "axes": ["M", "N"], "loop": %s}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y"}, {"op": "add", "inputs": ["y", "x"], "output": "z"}],
                 "inputs": ["x"], "outputs": ["z"]}
                """.formatted(m, loop, loop);
    }

    private static final String SPLIT = "[{\"outer_split\": 0, \"factor\": 4}, {\"parallelize\": 0, \"type\": \"Stream\"}]";

    private static LoadedFusion load(String text, int devices) throws Exception {
        return Engine.load(new FusionSource.Text(text, "sp.fusion"), devices, Map.of());
    }

    private static String lowered(LoadedFusion loaded, int rank) throws Exception {
        return HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.options(Map.of()), rank));
    }

    private static RunResult run(LoadedFusion loaded, int devices) throws Exception {
        try (CpuBackend backend = new CpuBackend(devices, 10_000)) {
            return Runs.run(loaded, devices, Map.of(), backend, s -> { });
        }
    }

    @Test
    void theExampleIsWrittenInNvFusersSchedule() throws Exception {
        String text = Files.readString(RepoPaths.repo().resolve(
                "examples/parallelism/column_parallel_linear_collective_permute.fusion"));
        var agOut = FusionReader.read(text, "cp.fusion").document().tensors().get(2);
        assertEquals("ag_out", agOut.name());
        // test_overlap.py: ag_out.outer_split(0, d); ag_out.swizzle1d(0, mesh_x); ag_out.axis(0).parallelize(stream)
        assertEquals(List.of(new LoopStep.Split(0, new ExtentSpec.Symbol("D"), false),
                new LoopStep.Swizzle1D(0, ParallelType.DIDX), new LoopStep.Parallelize(0, ParallelType.STREAM)),
                agOut.loop());
        assertEquals(2, agOut.axes().size(), "ag_out is [t, h], as nvFuser's");
    }

    /** Rank k's loop runs over the split's outer part (d iterations) and receives chunk (i + k) % d of t. */
    @Test
    void theCollectivePermuteLoopRunsOverTheSplitsOuterPart() throws Exception {
        LoadedFusion loaded = Runs.load("parallelism/column_parallel_linear_collective_permute", 4, Map.of());
        String rank1 = lowered(loaded, 1);
        Matcher loop = Pattern.compile("FOR StreamIdx in iStreamIdx(\\d+)\\{4\\}:").matcher(rank1);
        assertTrue(loop.find(), rank1);
        assertTrue(rank1.contains("recv_peer=( ( StreamIdx + 1 ) % 4 )"), rank1);
        // the chunk keeps the logical axis t, sharded on Stream: [Stream{4}, ceilDiv(t, 4), h]
        assertTrue(Pattern.compile("T4_g_float\\[iStreamIdx\\d+\\{4\\}, iS\\d+\\{\\( ceilDiv\\(i0, 4\\) \\)\\}, iS\\d+\\{i2\\}\\]")
                .matcher(rank1).find(), rank1);
        assertTrue(rank1.contains("axis = iStreamIdx" + loop.group(1) + "{4}, index = ( ( StreamIdx + 1 ) % 4 )"), rank1);
        for (int d : new int[] {1, 2, 4, 8}) {
            RunResult r = Runs.run("parallelism/column_parallel_linear_collective_permute", d, Map.of());
            assertTrue(r.validation().orElseThrow().passed(), d + " devices: " + r.validation().orElseThrow().line());
        }
    }

    @Test
    void aSplitStreamAxisIsChunkedAndComputesTheReference() throws Exception {
        LoadedFusion split = load(pipeline(SPLIT, 8), 1);
        String program = lowered(split, 0);
        assertTrue(program.contains("FOR StreamIdx in iStreamIdx"), program);
        assertEquals(2, program.split("\\{4\\}:", -1).length - 1, "both loops over 4 chunks: " + program);
        // the input x, which has no loop steps, is read in the same chunks
        assertTrue(Pattern.compile("T3_l_float\\[iStreamIdx\\d+\\{4\\}, iS\\d+\\{\\( ceilDiv\\(i0, 4\\) \\)\\}, iS\\d+\\{i2\\}\\]\\n"
                + "\\s+= HirAliasSelect\\( T0_g_float\\[iS0\\{i0\\}, iS1\\{i2\\}\\]").matcher(program).find(), program);
        RunResult r = run(split, 1);
        assertTrue(r.validation().orElseThrow().passed(), r.validation().orElseThrow().line());
        // a logical Stream axis of the same fusion selects rows instead (one iteration per row of M)
        String logical = lowered(load(pipeline("[{\"parallelize\": 0, \"type\": \"Stream\"}]", 8), 1), 0);
        assertFalse(logical.contains("ceilDiv"), logical);
        assertTrue(logical.contains("FOR StreamIdx in iStreamIdx2{i0}:"), logical);
    }

    @Test
    void theSplitFormReadsBackFromItsDump() throws Exception {
        String printed = lowered(Runs.load("parallelism/column_parallel_linear_collective_permute", 4, Map.of()), 2);
        ParsedDump d = HostIrDumpReader.read(printed);
        assertTrue(d.opaqueNodes().isEmpty(), d.warnings().toString());
        assertEquals(printed, d.reprint());
    }

    private static Diagnostic refusal(String text) {
        EngineFailure e = assertThrows(EngineFailure.class, () -> Engine.check(load(text, 1),
                SeedGeneration.options(Map.of())));
        return e.diagnostics().getFirst();
    }

    /**
     * nvFuser refuses a Stream axis that is the inner part of a split (getProducingLogicalAxis: "we don't support
     * DID on inner splits") or comes from a merge (shardAllocationAsLoop: "Expected a swizzle1d or split transform").
     */
    @Test
    void whatNvFuserRefusesStaysRefused() throws Exception {
        Diagnostic inner = refusal(pipeline("[{\"outer_split\": 0, \"factor\": 4}, {\"parallelize\": 1, \"type\": \"Stream\"}]", 8));
        assertEquals("loop.stream", inner.rule(), inner.toString());
        assertTrue(inner.message().contains("inner part of a split"), inner.message());
        assertEquals(4, inner.line(), inner.toString()); // y's loop
        Diagnostic merge = refusal(pipeline("[{\"merge\": 0}, {\"parallelize\": 0, \"type\": \"Stream\"}]", 8));
        assertEquals("loop.stream", merge.rule(), merge.toString());
        // stricter than nvFuser: the outer part of an inner split (its loop extent would be ceilDiv(M, f))
        Diagnostic innerSplit = refusal(pipeline("[{\"split\": 0, \"factor\": 4}, {\"parallelize\": 0, \"type\": \"Stream\"}]", 8));
        assertEquals("loop.stream", innerSplit.rule(), innerSplit.toString());
        // M = 6 is not cut into 4 equal chunks
        Diagnostic uneven = refusal(pipeline(SPLIT, 6));
        assertEquals("loop.indivisible", uneven.rule(), uneven.toString());
    }

    private static void validates(String tensors, String ops, int devices) throws Exception {
        String text = "{\"format\": \"hostir-fusion/2\", \"name\": \"found\", \"tensors\": [" + tensors
                + "], \"ops\": [" + ops + "], \"inputs\": [\"x\"], \"outputs\": [\"" + (ops.contains("\"z\"") ? "z" : "y")
                + "\"]}";
        RunResult r = run(load(text, devices), devices);
        assertTrue(r.validation().orElseThrow().passed(), r.validation().orElseThrow().line() + "\n" + text);
    }

    /** Found by LoweredImpliesCorrectTest once it generated split Stream axes (seeds 15, 21, 24; shrunk). */
    @Test
    void foundByThePropertyTest() throws Exception {
        String set = "{\"op\": \"set\", \"inputs\": [\"x\"], \"output\": \"y\"}";
        // a chunk of a DIDx-sharded tensor without loop steps stays sharded (the Gather delivered 1 element of 7)
        validates("""
                {"name": "x", "dtype": "float", "axes": [2, 7, 2], "mesh": [4]},
                {"name": "y", "dtype": "float", "axes": [{"extent": 2, "iter": "reduction"}, {"extent": 7, "parallel": "DIDx"}, 2], "mesh": [4, 2, 5, 1, 3, 0, 6]},
                {"name": "z", "dtype": "float", "axes": [7, 2], "mesh": [4], "loop": [{"outer_split": 1, "factor": 2}, {"parallelize": 1, "type": "Stream"}]}
                """, "{\"op\": \"sum\", \"inputs\": [\"x\"], \"output\": \"y\", \"axes\": [0]},"
                + " {\"op\": \"set\", \"inputs\": [\"y\"], \"output\": \"z\"}", 7);
        // a tensor streamed over another axis is chunked along the loop's (it was replayed: a copy of [3, 6] into [6, 2])
        validates("""
                {"name": "x", "dtype": "float", "axes": [6, 6]},
                {"name": "y", "dtype": "float", "axes": [6, 6], "loop": [{"outer_split": 0, "factor": 2}, {"parallelize": 0, "type": "Stream"}]},
                {"name": "z", "dtype": "float", "axes": [6, 6], "loop": [{"outer_split": 1, "factor": 3}, {"parallelize": 1, "type": "Stream"}]}
                """, set + ", {\"op\": \"set\", \"inputs\": [\"y\"], \"output\": \"z\"}", 1);
        // a chunk keeps the split axis, so a Scatter of an inner axis is reordered (ReorderShardedAxisPass)
        validates("""
                {"name": "x", "dtype": "float", "axes": [4, 7], "mesh": [0]},
                {"name": "y", "dtype": "float", "axes": [4, 7], "mesh": [0, 1, 2, 3, 4, 5, 6], "loop": [{"parallelize": 1, "type": "DIDx"}, {"outer_split": 0, "factor": 2}, {"parallelize": 0, "type": "Stream"}]},
                {"name": "z", "dtype": "float", "axes": [4, 7], "mesh": [0]}
                """, set + ", {\"op\": \"add\", \"inputs\": [\"y\", \"y\"], \"output\": \"z\"}", 7);
        // and so is a ReduceScatter of an inner axis into chunks
        validates("""
                {"name": "x", "dtype": "float", "axes": [2, 7, {"extent": 7, "parallel": "DIDx"}], "mesh": [0, 1, 2, 3, 4, 5, 6]},
                {"name": "y", "dtype": "float", "axes": [2, 7, {"extent": 7, "iter": "reduction"}], "mesh": [0, 1, 2, 3, 4, 5, 6], "loop": [{"parallelize": 1, "type": "DIDx"}, {"outer_split": 0, "factor": 1}, {"parallelize": 0, "type": "Stream"}]}
                """, "{\"op\": \"sum\", \"inputs\": [\"x\"], \"output\": \"y\", \"axes\": [2]}", 7);
    }

    /** The pipelined allgather into chunks moves one shard per iteration: the split's factor is the device count. */
    @Test
    void anAllgatherIntoChunksOfAnotherCountIsRefused() throws Exception {
        String text = Files.readString(RepoPaths.repo().resolve(
                "examples/parallelism/column_parallel_linear_collective_permute.fusion"))
                .replace("\"loop\": [{\"outer_split\": 0, \"factor\": \"D\"}, {\"swizzle1d\": 0, \"type\": \"DIDx\"},\n"
                        + "              {\"parallelize\": 0, \"type\": \"Stream\"}]}", "\"loop\": [{\"outer_split\": 0, \"factor\": 2},"
                        + " {\"parallelize\": 0, \"type\": \"Stream\"}]}");
        assertTrue(text.contains("\"factor\": 2}"), text);
        EngineFailure e = assertThrows(EngineFailure.class, () -> Engine.check(load(text, 4),
                SeedGeneration.options(Map.of())));
        assertEquals("stream.allgather-axis", e.diagnostics().getFirst().rule(), e.diagnostics().toString());
    }
}
