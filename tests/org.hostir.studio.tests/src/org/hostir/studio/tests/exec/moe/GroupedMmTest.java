package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.junit.jupiter.api.Test;

/**
 * grouped_mm, nvFuser's GroupedMmaOp (createGroupedMmaOutput, csrc/ops/arith.cpp:2279-2368; its fallback,
 * composite_nodes.cpp:1166-1220 at 81c4b22fd): the shape and dtype rules at the op's line (the sharded forms are
 * GroupedMmShardingTest's), the dump spelling (on the output's line) read back, the three cases' values against
 * per-group products worked by hand, offsets that do not rise to the split axis refused in one line, and the seeded router's offsets.
 */
class GroupedMmTest {
    private static String fusion(String xAxes, String wAxes, String offsDtype, String outAxes) {
        return """
                {"format": "hostir-fusion/1", "name": "experts", "symbols": {"M": 5, "K": 3, "N": 2, "G": 3},
                 "tensors": [
                  {"name": "x", "dtype": "float", "axes": %s, "mesh": "all"},
                  {"name": "w", "dtype": "float", "axes": %s, "mesh": "all"},
                  {"name": "offs", "dtype": "%s", "axes": ["G"], "mesh": "all"},
                  {"name": "y", "dtype": "float", "axes": %s, "mesh": "all"}],
                 "ops": [{"op": "grouped_mm", "inputs": ["x", "w", "offs"], "output": "y"}],
                 "inputs": ["x", "w", "offs"], "outputs": ["y"]}
                """.formatted(xAxes, wAxes, offsDtype, outAxes);
    }

    private static final OneOpFusion OP = new OneOpFusion("op.fusion");

    private static final String RK = "{\"extent\": \"K\", \"iter\": \"reduction\"}";
    private static final String GOOD = fusion("[\"M\", \"K\"]", "[\"G\", \"K\", \"N\"]", "int32", "[\"M\", \"N\", " + RK + "]");



    @Test
    void theRulesRefuseAtTheOpsLine() {
        Diagnostic both3d = OP.refusal(fusion("[\"G\", \"M\", \"K\"]", "[\"G\", \"K\", \"N\"]", "int32", "[\"M\", \"N\", " + RK + "]"));
        assertEquals("shape.grouped-mm", both3d.rule(), both3d.message());
        assertEquals(7, both3d.line(), both3d.toString());
        assertTrue(both3d.message().contains("two 3-D operands are a batched matmul"), both3d.message());
        Diagnostic groups = OP.refusal(fusion("[\"M\", \"K\"]", "[4, \"K\", \"N\"]", "int32", "[\"M\", \"N\", " + RK + "]"));
        assertTrue(groups.message().contains("the group axis 4 differs from the G (3) offsets of offs"), groups.message());
        Diagnostic out = OP.refusal(fusion("[\"M\", \"K\"]", "[\"G\", \"K\", \"N\"]", "int32", "[\"G\", \"M\", \"N\", " + RK + "]"));
        assertEquals("shape.grouped-mm", out.rule(), out.message());
        Diagnostic int64 = OP.refusal(fusion("[\"M\", \"K\"]", "[\"G\", \"K\", \"N\"]", "int64", "[\"M\", \"N\", " + RK + "]"));
        assertEquals("dtype.mismatch", int64.rule(), int64.message());
        assertTrue(int64.message().contains("not int32"), int64.message());
    }

    @Test
    void printedOnTheOutputsLineAndReadBack() throws Exception {
        String dump = OP.dumpReadBack(GOOD);
        assertTrue(dump.contains("  T3_g_float[iS6{i0}, iS7{i5}, rS8{i2}] (DeviceMesh{0 1}) = GroupedMmaOp(mat1="
                + "T0_g_float[iS0{i0}, iS1{i2}] (DeviceMesh{0 1}), mat2=T1_g_float[iS2{i3}, iS3{i4}, iS4{i5}] "
                + "(DeviceMesh{0 1}), offsets=T2_g_int[iS5{i6}] (DeviceMesh{0 1}))\n"), dump);
    }

    private static FusionOp.GroupedMm op(String text) throws Exception {
        return (FusionOp.GroupedMm) OP.load(text, 1).fusion().ops().getFirst();
    }

    @Test
    void theThreeCasesAreTheFallbacksPerGroupProducts() throws Exception {
        FusionOp.GroupedMm g = op(GOOD);
        FusionOp.GroupedMm splitK = op(fusion("[\"M\", \"K\"]", "[\"K\", \"N\"]", "int32", "[\"G\", \"M\", \"N\", " + RK + "]"));
        FusionOp.GroupedMm splitN = op(fusion("[\"G\", \"M\", \"K\"]", "[\"K\", \"N\"]", "int32", "[\"M\", \"N\", " + RK + "]"));
        DenseTensor offs = DenseTensor.ofLongs(DataType.INT32, new long[] {2}, 1, 3);
        // [m, k] x [g, k, n]: rows 0 by expert 0, rows 1-2 by expert 1 (k = 1, n = 2)
        DenseTensor x = DenseTensor.of(DataType.FLOAT, new long[] {3, 1}, 1, 2, 3);
        DenseTensor w = DenseTensor.of(DataType.FLOAT, new long[] {2, 1, 2}, 10, 20, 100, 200);
        assertArrayEquals(new float[] {10, 20, 200, 400, 300, 600}, OpKernels.compute(g, List.of(x, w, offs)).toArray());
        // [m, k] x [k, n] -> [g, m, n]: K split 1 + 2
        DenseTensor a = DenseTensor.of(DataType.FLOAT, new long[] {1, 3}, 1, 2, 3);
        DenseTensor b = DenseTensor.of(DataType.FLOAT, new long[] {3, 1}, 5, 7, 11);
        assertArrayEquals(new float[] {5, 47}, OpKernels.compute(splitK, List.of(a, b, offs)).toArray());
        // [g, m, k] x [k, n] -> [m, n]: N split 1 + 2
        DenseTensor a3 = DenseTensor.of(DataType.FLOAT, new long[] {2, 1, 1}, 2, 3);
        DenseTensor b2 = DenseTensor.of(DataType.FLOAT, new long[] {1, 3}, 5, 7, 11);
        assertArrayEquals(new float[] {10, 21, 33}, OpKernels.compute(splitN, List.of(a3, b2, offs)).toArray());
        DenseTensor falling = DenseTensor.ofLongs(DataType.INT32, new long[] {2}, 2, 1);
        RunFailure e = assertThrows(RunFailure.class, () -> OpKernels.compute(g, List.of(x, w, falling)));
        assertTrue(e.getMessage().endsWith("offsets [2, 1] must rise from 0 to 3, the end of each group"
                + " (GroupedMmaOp's fallback splits by them)"), e.getMessage());
        DenseTensor shortOf = DenseTensor.ofLongs(DataType.INT32, new long[] {2}, 1, 2);
        assertThrows(RunFailure.class, () -> OpKernels.compute(g, List.of(x, w, shortOf)));
    }

    @Test
    void theSeededOffsetsPartitionTheRows() throws Exception {
        LoadedFusion loaded = OP.load(GOOD, 1);
        for (long seed = 0; seed < 20; seed++) {
            long[] ends = OneOpFusion.drawn(loaded, 2, seed).toLongArray();
            assertEquals(3, ends.length);
            assertTrue(ends[0] >= 0 && ends[0] <= ends[1] && ends[1] <= ends[2] && ends[2] == 5, List.of(ends[0],
                    ends[1], ends[2]).toString());
        }
    }
}
