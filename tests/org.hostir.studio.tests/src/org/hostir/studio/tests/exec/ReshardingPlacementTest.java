package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * Issue 30, items 4 and 9: where DecomposeReshardings puts the set that moves data, as nvFuser's
 * csrc/preseg_passes/decompose_reshardings.cpp does at 81c4b22fd: after an op of one input (whereToReshard, lines
 * 40-50; insertReshardingSetsAfter, 156-244), and in front of the others sharded loop-like the op's output
 * (insertReshardingSetsBefore, shardLoopLike at lines 147-151), Stream chunks included.
 */
class ReshardingPlacementTest {
    private static String agMatmul(String yLoop) {
        return """
                {"format": "hostir-fusion/2", "name": "ag_matmul", "symbols": {"M": 24, "K": 5, "N": 3},
                 "tensors": [
                   {"name": "x", "dtype": "float", "axes": ["M", "K"], "mesh": "all",
                    "loop": [{"outer_split": 0, "factor": "D"}, {"parallelize": 0, "type": "DIDx"}]},
                   {"name": "w", "dtype": "float", "axes": ["K", "N"], "mesh": "all"},
                   {"name": "y", "dtype": "float", "axes": ["M", "N", {"extent": "K", "iter": "reduction"}], "mesh": "all",
                    "loop": %s}],
                 "ops": [{"op": "matmul", "inputs": ["x", "w"], "output": "y"}],
                 "inputs": ["x", "w"], "outputs": ["y"]}""".formatted(yLoop);
    }

    /**
     * Item 4: Stream chunks of M (M != D) over a loop-split x. The set in front of the matmul lost the chunking
     * and looped over M with peer = StreamIdx: "rank 0 receives 5 elements from 1, which sent 60" (P2P), a
     * Broadcast rooted at rank 2 of 2 (broadcast).
     */
    @Test
    void aLoopSplitAgMatmulWithStreamChunksLoopsOverTheChunks() throws Exception {
        String text = agMatmul("[{\"outer_split\": 0, \"factor\": \"D\"}, {\"parallelize\": 0, \"type\": \"Stream\"}]");
        String program = CommunicationLayoutTest.program(text, 2, 0);
        assertTrue(program.contains("FOR StreamIdx"), program);
        for (String allgather : List.of("p2p", "broadcast", "collective")) {
            for (int d : List.of(1, 2, 3, 4)) CommunicationLayoutTest.validates(text, d, Map.of("allgather", allgather));
        }
    }

    /** Item 4: a Stream axis on the logical M of such an x would address ranks that do not exist: refused. */
    @Test
    void aStreamAxisOverTheRowsOfASplitShardedInputIsRefusedAtItsLine() throws Exception {
        String text = agMatmul("[{\"parallelize\": 0, \"type\": \"Stream\"}]");
        for (String allgather : List.of("p2p", "broadcast", "collective")) {
            EngineFailure e = assertThrows(EngineFailure.class, () -> Engine.check(
                    CommunicationLayoutTest.load(text, 2), SeedGeneration.options(Map.of("allgather", allgather))));
            Diagnostic d = e.diagnostics().getFirst();
            assertEquals("stream.allgather-split-input", d.rule(), d.message());
            assertTrue(d.line() > 0, "a file line: " + e.lines());
        }
    }

    /** Item 9: a cast of a replicated half tensor into a sharded float one casts first, then scatters floats. */
    @Test
    void aOneInputOpComputesFirstAndMovesItsResult() throws Exception {
        String text = """
                {"format": "hostir-fusion/1", "name": "cast_scatter", "symbols": {"N": 3},
                 "tensors": [
                   {"name": "x", "dtype": "half", "axes": ["D", "N"], "mesh": "all"},
                   {"name": "y", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, "N"], "mesh": "all"}],
                 "ops": [{"op": "cast", "inputs": ["x"], "output": "y"}],
                 "inputs": ["x"], "outputs": ["y"]}""";
        String program = CommunicationLayoutTest.program(text, 2, 0);
        int cast = program.indexOf("__half2float");
        int scatter = program.indexOf("type=Scatter");
        assertTrue(cast >= 0 && scatter > cast, "cast, then Scatter: " + program);
        assertTrue(program.substring(scatter).startsWith("type=Scatter, team=(0 1), root=0, input=T2_g_float"),
                "the Scatter moves the float result: " + program);
        for (int d : List.of(1, 2, 3)) CommunicationLayoutTest.validates(text, d, Map.of());
    }

    /** y = sum(x[DIDx D, N, R], axes), R reduced; y's first axis as given (replicated, or reduced too). */
    private static String sumOfDidxInput(String yFirstAxis, String axes) {
        return """
                {"format": "hostir-fusion/1", "name": "sum_of_didx", "symbols": {"N": 3, "R": 4},
                 "tensors": [
                   {"name": "x", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, "N", "R"], "mesh": "all"},
                   {"name": "y", "dtype": "float", "axes": [%s, "N", {"extent": "R", "iter": "reduction"}], "mesh": "all"}],
                 "ops": [{"op": "sum", "inputs": ["x"], "output": "y", "axes": [%s]}],
                 "inputs": ["x"], "outputs": ["y"]}""".formatted(yFirstAxis, axes);
    }

    /**
     * Item 9 for a reduction: a sum over R of x[DIDx D, N, R] into a replicated y sums each device's rows first
     * and allgathers the [D, N] sums (insertReshardingSetsAfter, decompose_reshardings.cpp:156-244 at 81c4b22fd:
     * the reduction's output takes the input's sharding, a set after it moves the result), not the [D, N, R] input.
     */
    @Test
    void aReductionOverAKeptShardedAxisSumsFirstAndMovesTheSums() throws Exception {
        String text = sumOfDidxInput("\"D\"", "2");
        String program = CommunicationLayoutTest.program(text, 2, 0);
        int sum = program.indexOf("= reduction(");
        int allgather = program.indexOf("type=Allgather");
        assertTrue(sum >= 0 && allgather > sum, "sum, then Allgather: " + program);
        assertTrue(program.substring(allgather).matches(
                "(?s)type=Allgather, team=\\(0 1\\), input=T\\d+_g_float\\[ideviceIdx\\.x\\d+\\{i0\\}, iS\\d+\\{i2\\}, "
                        + "rS\\d+\\{i3\\}\\].*"), "the Allgather moves the sums: " + program);
        for (int d : List.of(1, 2, 3)) CommunicationLayoutTest.validates(text, d, Map.of());
    }

    /**
     * Item 9's limit: a sum over the DIDx axis and another at once would, computed with its input's sharding, still
     * reduce over the devices in two axes, which nvFuser's isLowerableToCommunication refuses
     * (decompose_reshardings.cpp:62-91 at 81c4b22fd): the set stays in front (an Allgather, then the local sum).
     */
    @Test
    void aReductionOverTheDevicesAndAnotherAxisGathersFirst() throws Exception {
        String text = sumOfDidxInput("{\"extent\": \"D\", \"iter\": \"reduction\"}", "0, 2");
        String program = CommunicationLayoutTest.program(text, 2, 0);
        int allgather = program.indexOf("type=Allgather");
        assertTrue(allgather >= 0 && program.indexOf("= reduction(") > allgather, "Allgather, then sum: " + program);
        for (int d : List.of(1, 2, 3)) CommunicationLayoutTest.validates(text, d, Map.of());
    }
}
