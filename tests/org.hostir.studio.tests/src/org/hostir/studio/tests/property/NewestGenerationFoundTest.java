package org.hostir.studio.tests.property;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Fusions the generated spaces found wrong under nvFuser 2026-04's lowering ({@code -Dhirstudio.tests.nvfuser=2026-04}
 * over GeneratedSpaceTest and NumpyOracleTest): each now validates, or is refused up front with the rule that names
 * what the lowering does not model, rather than failing at run time or answering wrongly.
 */
class NewestGenerationFoundTest {
    private static Outcome newest(String text, int devices, Map<String, String> options, long seed) {
        Map<String, String> all = new HashMap<>(options);
        all.put("nvfuser", "2026-04");
        all.put("hostIrLowering", "true"); // the path these were found on (off by default, as in nvFuser)
        return Outcome.of(text, devices, all, seed);
    }

    /** rsqrt, seed 30000700: y's intermediate was allocated per chunk though its use ran in another loop. */
    @Test
    void aTensorReadInAnotherLoopIsAllocatedWhole() {
        String text = """
                {"format": "hostir-fusion/2", "name": "rsqrt", "tensors": [
                  {"name": "x", "dtype": "float", "axes": [3, 2], "mesh": [1, 0]},
                  {"name": "y", "dtype": "float", "axes": [3, 2], "mesh": [1, 0], "loop": [{"parallelize": 1, "type": "DIDx"}, {"outer_split": 0, "factor": 1}, {"parallelize": 0, "type": "Stream"}]}],
                 "ops": [{"op": "rsqrt", "inputs": ["x"], "output": "y"}], "inputs": ["x"], "outputs": ["y"]}
                """;
        Outcome o = newest(text, 2, Map.of(), 30000700L);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
    }

    /** div_broadcast+abs, seed 210000479: z was chunked along its own Stream axis in t_y's loop over another. */
    @Test
    void aChunkIsTakenAlongTheAxisTheLoopsMapsTo() {
        String text = """
                {"format": "hostir-fusion/1", "name": "div_broadcast_abs", "tensors": [
                  {"name": "x", "dtype": "float", "axes": [1, 3], "mesh": [0, 1, 2, 3]},
                  {"name": "w", "dtype": "float", "axes": [{"iter": "broadcast"}, 3], "mesh": [0, 1, 2, 3]},
                  {"name": "z", "dtype": "float", "axes": [{"extent": 1, "parallel": "Stream"}, 3], "mesh": [0, 1, 2, 3]},
                  {"name": "t_y", "dtype": "float", "axes": [1, {"extent": 3, "parallel": "Stream"}], "mesh": [0, 1, 2, 3]}],
                 "ops": [{"op": "div", "inputs": ["x", "w"], "output": "z"}, {"op": "abs", "inputs": ["z"], "output": "t_y"}],
                 "inputs": ["x", "w"], "outputs": ["t_y"]}
                """;
        Outcome o = newest(text, 5, Map.of("allgather", "broadcast"), 210000479L);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
    }

    /** div_broadcast+cast_to_bfloat16, seed 210000518: a wrong answer (the last chunk read as the whole tensor). */
    @Test
    void aChunkReadOutsideItsLoopIsRefused() {
        String text = """
                {"format": "hostir-fusion/1", "name": "div_broadcast_cast", "tensors": [
                  {"name": "x", "dtype": "int64", "axes": [3, 4], "mesh": [0, 2, 4, 6]},
                  {"name": "w", "dtype": "int64", "axes": [{"iter": "broadcast"}, 4], "mesh": [0, 2, 4, 6]},
                  {"name": "z", "dtype": "int64", "axes": [{"extent": 3, "parallel": "Stream"}, 4], "mesh": [7, 9, 11, 13]},
                  {"name": "t_y", "dtype": "bfloat16", "axes": [3, 4], "mesh": [0, 2, 4, 6]}],
                 "ops": [{"op": "div", "inputs": ["x", "w"], "output": "z"}, {"op": "cast", "inputs": ["z"], "output": "t_y"}],
                 "inputs": ["x", "w"], "outputs": ["t_y"]}
                """;
        Outcome o = newest(text, 14, Map.of("backend", "cuda", "numberOfStreams", "3"), 210000518L);
        assertEquals(Outcome.Kind.REFUSED_BY_LOWERING, o.kind(), o.detail());
        assertEquals("stream.chunk-across-loops-2026", o.rule(), o.detail());
    }

    /** reshape, seed 210000305: an internal error (the whole input reshaped into one chunk), refused as at 2025-06. */
    @Test
    void aReshapeMergingIntoTheStreamAxisIsRefused() {
        String text = """
                {"format": "hostir-fusion/1", "name": "reshape", "tensors": [
                  {"name": "x", "dtype": "int32", "axes": [2, 3, 2], "mesh": [0, 1]},
                  {"name": "y", "dtype": "int32", "axes": [{"extent": 2, "parallel": "DIDx"}, {"extent": 6, "parallel": "Stream"}], "mesh": [0, 1]}],
                 "ops": [{"op": "reshape", "inputs": ["x"], "output": "y"}], "inputs": ["x"], "outputs": ["y"]}
                """;
        Outcome o = newest(text, 3, Map.of(), 210000305L);
        assertEquals(Outcome.Kind.REFUSED_BY_LOWERING, o.kind(), o.detail());
        assertEquals("stream.post-on-stream", o.rule(), o.detail());
    }

    /**
     * broadcast_first, seed 210000196: its kernel ran whole outside the loop, then a whole-tensor Scatter per chunk
     * failed (refused as stream.kernel-in-loop-2026 until issue 33's second part); now the kernel joins the loop as
     * nvFuser's lowerSegment launches it (lowering.cpp:369-407), computing the loop's chunk, and the run validates.
     */
    @Test
    void aKernelWritingAChunkedTensorRunsInTheLoop() {
        Outcome o = newest(FoundByPropertyTest.BROADCAST_FIRST_210000196, 2,
                Map.of("numberOfStreams", "3", "offsetStreamIndexingByRank", "true"), 210000196L);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
    }

    /**
     * LoweredImpliesCorrectTest case e4e211 (issue 33), a wrong answer: y's Stream axis swizzled (the CollectivePermute
     * allgather), z reading it through an unswizzled Stream axis, so z's chunk i got y's chunk (i + k) % n. nvFuser
     * computes a swizzled Stream axis only in test_overlap.py's form: refused.
     */
    @Test
    void aSwizzledChunkReadThroughAnUnswizzledStreamAxisIsRefused() {
        String text = """
                {"format": "hostir-fusion/2", "name": "swizzle_then_plain_stream", "tensors": [
                  {"name": "x", "dtype": "float", "axes": [{"extent": 3, "parallel": "DIDx"}, 2], "mesh": [0, 1, 2]},
                  {"name": "y", "dtype": "float", "axes": [3, 2], "mesh": [0, 1, 2], "loop": [{"swizzle1d": 0, "type": "DIDx"}, {"parallelize": 0, "type": "Stream"}]},
                  {"name": "z", "dtype": "float", "axes": [{"extent": 3, "parallel": "Stream"}, 2], "mesh": [0, 1, 2]}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y"}, {"op": "set", "inputs": ["y"], "output": "z"}],
                 "inputs": ["x"], "outputs": ["z"]}
                """;
        Outcome o = newest(text, 3, Map.of("allgather", "collective"), 0xE4E211L);
        assertEquals(Outcome.Kind.REFUSED_BY_LOWERING, o.kind(), o.detail());
        assertEquals("stream.swizzle-2026", o.rule(), o.detail());
    }

    /**
     * LoweredImpliesCorrectTest case e4e3d6 (issue 33), a wrong answer: a DID-to-Stream set into a Stream axis of one
     * iteration (outer split by 1) sent one device's shard as the whole tensor. One iteration per device: refused.
     */
    @Test
    void aDidToStreamSetIntoFewerChunksThanDevicesIsRefused() {
        String text = """
                {"format": "hostir-fusion/2", "name": "did_to_stream_one_chunk", "tensors": [
                  {"name": "x", "dtype": "float", "axes": [{"extent": 2, "parallel": "DIDx"}, 2], "mesh": [3, 2]},
                  {"name": "y", "dtype": "float", "axes": [2, 2], "mesh": [3, 2], "loop": [{"outer_split": 0, "factor": 1}, {"parallelize": 0, "type": "Stream"}]},
                  {"name": "z", "dtype": "float", "axes": [2, {"extent": 2, "parallel": "DIDx"}], "mesh": [3, 2]}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y"}, {"op": "set", "inputs": ["y"], "output": "z"}],
                 "inputs": ["x"], "outputs": ["z"]}
                """;
        Outcome o = newest(text, 5, Map.of("numberOfStreams", "2"), 0xE4E3D6L);
        assertEquals(Outcome.Kind.REFUSED_BY_LOWERING, o.kind(), o.detail());
        assertEquals("stream.did-to-stream-extent-2026", o.rule(), o.detail());
    }

    /**
     * LoweredImpliesCorrectTest case e4e33a (issue 33), a run failure: x's DIDx axis becomes y's Stream axis while y
     * is DIDx on another axis, nvFuser's AllToAll, not a DID-to-Stream allgather: refused.
     */
    @Test
    void aDidToStreamSetThatAlsoMovesTheDeviceAxisIsRefused() {
        String text = """
                {"format": "hostir-fusion/1", "name": "did_to_stream_alltoall", "tensors": [
                  {"name": "x", "dtype": "float", "axes": [{"extent": 3, "parallel": "DIDx"}, 3, 2], "mesh": [0, 1, 2]},
                  {"name": "y", "dtype": "float", "axes": [{"extent": 3, "parallel": "Stream"}, {"extent": 3, "parallel": "DIDx"}, {"extent": 2, "iter": "reduction"}], "mesh": [0, 1, 2]}],
                 "ops": [{"op": "sum", "inputs": ["x"], "output": "y", "axes": [2]}], "inputs": ["x"], "outputs": ["y"]}
                """;
        Outcome o = newest(text, 3, Map.of("offsetStreamIndexingByRank", "true"), 0xE4E33AL);
        assertEquals(Outcome.Kind.REFUSED_BY_LOWERING, o.kind(), o.detail());
        assertEquals("stream.did-to-stream-alltoall-2026", o.rule(), o.detail());
    }
}
