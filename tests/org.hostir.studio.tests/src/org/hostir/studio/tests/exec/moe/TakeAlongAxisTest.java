package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.junit.jupiter.api.Test;

/**
 * take_along_axis, nvFuser's GatherOp with exact sizes ({@code takeAlongAxis}, csrc/ops/indexing.cpp:306-369;
 * GatherOp::toString, csrc/ir/internal_nodes.cpp:309-321 at 81c4b22fd): the shape and dtype rules at the op's line,
 * the dump spelling read back, the kernel as {@code at::take_along_dim} with an out-of-range index refused in one
 * line, and the seeded router's ids in range.
 */
class TakeAlongAxisTest {
    private static String fusion(String idsAxes, String idsDtype, String outAxes, String axes) {
        return """
                {"format": "hostir-fusion/1", "name": "pick", "symbols": {"T": 3, "E": 4, "K": 2},
                 "tensors": [
                  {"name": "p", "dtype": "float", "axes": ["T", "E"], "mesh": "all"},
                  {"name": "ids", "dtype": "%s", "axes": %s, "mesh": "all"},
                  {"name": "w", "dtype": "float", "axes": %s, "mesh": "all"}],
                 "ops": [{"op": "take_along_axis", "inputs": ["p", "ids"], "output": "w", "axes": %s}],
                 "inputs": ["p", "ids"], "outputs": ["w"]}
                """.formatted(idsDtype, idsAxes, outAxes, axes);
    }

    private static final String GOOD = fusion("[\"T\", \"K\"]", "int64", "[\"T\", \"K\"]", "[1]");

    private static final OneOpFusion PICK = new OneOpFusion("pick.fusion");

    @Test
    void theShapeRuleRefusesWithItsRuleAtTheOpsLine() {
        Diagnostic rank = PICK.refusal(fusion("[\"K\"]", "int64", "[\"T\", \"K\"]", "[1]"));
        assertEquals("shape.take-along-axis", rank.rule(), rank.message());
        assertEquals(6, rank.line(), rank.toString());
        assertTrue(rank.message().contains("must have the input"), rank.message());
        Diagnostic other = PICK.refusal(fusion("[\"K\", \"K\"]", "int64", "[\"K\", \"K\"]", "[1]"));
        assertTrue(other.message().contains("index axis 0"), other.message());
        Diagnostic out = PICK.refusal(fusion("[\"T\", \"K\"]", "int64", "[\"T\", \"E\"]", "[1]"));
        assertEquals("shape.take-along-axis", out.rule(), out.message());
        Diagnostic floatIds = PICK.refusal(fusion("[\"T\", \"K\"]", "float", "[\"T\", \"K\"]", "[1]"));
        assertEquals("dtype.mismatch", floatIds.rule(), floatIds.message());
    }

    @Test
    void printedAsGatherOpAndReadBack() throws Exception {
        String text = OneOpFusion.printedAndReadBack(PICK.load(GOOD, 2));
        // the index is an input: its axes have symbols of their own, as nvFuser's inputs do
        assertTrue(text.contains("   = takeAlongAxis( T0_g_float[iS0{i0}, iS1{i2}] (DeviceMesh{0 1}), "
                + "T1_g_int64_t[iS2{i3}, iS3{i4}] (DeviceMesh{0 1}), dim = 1 )"), text);
    }

    @Test
    void theKernelIsTakeAlongDimAndRefusesAnOutOfRangeIndexInOneLine() throws Exception {
        FusionOp.TakeAlongAxis op = (FusionOp.TakeAlongAxis) PICK.load(GOOD, 1).fusion().ops().getFirst();
        DenseTensor p = DenseTensor.of(DataType.FLOAT, new long[] {3, 4}, 0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23);
        DenseTensor ids = DenseTensor.ofLongs(DataType.INT64, new long[] {3, 2}, 3, 0, 1, 1, 2, 3);
        assertArrayEquals(new float[] {3, 0, 11, 11, 22, 23}, OpKernels.compute(op, List.of(p, ids)).toArray());
        DenseTensor bad = DenseTensor.ofLongs(DataType.INT64, new long[] {3, 2}, 3, 0, 1, -1, 2, 3);
        OneOpFusion.outOfRange(op, List.of(p, bad), "index -1 is outside [0, 4) of input axis 1 (at::take_along_dim:"
                + " index out of range in self)");
    }

    @Test
    void theRoutersIdsAreInRange() throws Exception {
        LoadedFusion loaded = PICK.load(GOOD, 1);
        long[] drawn = OneOpFusion.drawn(loaded, 1, 3).toLongArray();
        assertEquals(6, drawn.length);
        for (long e : drawn) assertTrue(e >= 0 && e < 4, "expert " + e);
    }
}
