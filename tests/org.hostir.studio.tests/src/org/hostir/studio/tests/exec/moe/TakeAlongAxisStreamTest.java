package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hostir.studio.diag.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * take_along_axis with a Stream axis on the gathered axis (the generated space's random case
 * take_along_axis_last-half-RANDOM-IN_ORDER-LOGICAL-30000134, shrunk): the stream loop sliced the index along dim
 * while the input stayed whole and the kernel failed as an internal error; it is refused at the op's line, as topk
 * refuses a Stream dim.
 */
class TakeAlongAxisStreamTest {
    private static final OneOpFusion OP = new OneOpFusion("op.fusion");

    @Test
    void aStreamAxisOnTheGatheredAxisIsRefusedAtTheOpsLine() {
        Diagnostic d = OP.refusal("""
                {"format": "hostir-fusion/1", "name": "gather_streamed",
                 "tensors": [
                  {"name": "x", "dtype": "half", "axes": [1, 3], "mesh": [0]},
                  {"name": "ids", "dtype": "int64", "axes": [{"extent": 1, "parallel": "DIDx"}, 1], "mesh": [0]},
                  {"name": "y", "dtype": "half", "axes": [{"extent": 1, "parallel": "DIDx"},
                   {"extent": 1, "parallel": "Stream"}], "mesh": [0]}],
                 "ops": [{"op": "take_along_axis", "inputs": ["x", "ids"], "output": "y", "axes": [1]}],
                 "inputs": ["x", "ids"], "outputs": ["y"]}
                """);
        assertEquals("shape.take-along-axis", d.rule(), d.message());
        assertEquals(7, d.line(), d.toString());
        assertTrue(d.message().endsWith("y's axis 1 is a Stream axis; take_along_axis gathers along a whole axis"),
                d.message());
    }
}
