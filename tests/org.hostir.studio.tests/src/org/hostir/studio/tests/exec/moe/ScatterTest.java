package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.junit.jupiter.api.Test;

/**
 * scatter, nvFuser's ScatterOp without accumulation (csrc/ops/indexing.cpp:197-303, internal_nodes.cpp:351-460 at
 * 81c4b22fd): the shape and dtype rules at the op's line, a sharded scatter refused as nvFuser leaves it unsharded
 * (csrc/multidevice/propagation.cpp:107), the dump spelling read back, the kernel as {@code at::scatter} with a
 * repeated target and an out-of-range index refused in one line, the seeded index distinct along its axis.
 */
class ScatterTest {
    private static String fusion(String selfAxes, String idsDtype, String idsAxes, String srcDtype) {
        return """
                {"format": "hostir-fusion/1", "name": "combine", "symbols": {"M": 6, "N": 4, "H": 3},
                 "tensors": [
                  {"name": "acc", "dtype": "float", "axes": %s, "mesh": "all"},
                  {"name": "slot", "dtype": "%s", "axes": %s, "mesh": "all"},
                  {"name": "y", "dtype": "%s", "axes": ["N", "H"], "mesh": "all"},
                  {"name": "out", "dtype": "float", "axes": %s, "mesh": "all"}],
                 "ops": [{"op": "scatter", "inputs": ["acc", "slot", "y"], "output": "out", "axes": [0]}],
                 "inputs": ["acc", "slot", "y"], "outputs": ["out"]}
                """.formatted(selfAxes, idsDtype, idsAxes, srcDtype, selfAxes);
    }

    private static final OneOpFusion OP = new OneOpFusion("op.fusion");

    private static final String SELF = "[\"M\", \"H\"]";
    private static final String GOOD = fusion(SELF, "int64", "[\"N\", \"H\"]", "float");



    @Test
    void theRulesRefuseAtTheOpsLine() {
        Diagnostic rank = OP.refusal(fusion(SELF, "int64", "[\"N\"]", "float"));
        assertEquals("shape.scatter", rank.rule(), rank.message());
        assertEquals(7, rank.line(), rank.toString());
        assertTrue(rank.message().contains("must have one rank"), rank.message());
        Diagnostic wide = OP.refusal(fusion(SELF, "int64", "[\"N\", 5]", "float"));
        assertTrue(wide.message().contains("index axis 1 5 is larger than src's"), wide.message());
        Diagnostic sharded = OP.refusal(fusion("[{\"extent\": \"D\", \"parallel\": \"DIDx\"}, \"H\"]", "int64",
                "[\"N\", \"H\"]", "float"));
        assertTrue(sharded.message().contains("acc has a DID or Stream axis; nvFuser leaves scatter unsharded"),
                sharded.message());
        Diagnostic int32 = OP.refusal(fusion(SELF, "int32", "[\"N\", \"H\"]", "float"));
        assertEquals("dtype.mismatch", int32.rule(), int32.message());
        assertTrue(int32.message().contains("not int64"), int32.message());
        Diagnostic src = OP.refusal(fusion(SELF, "int64", "[\"N\", \"H\"]", "double"));
        assertTrue(src.message().contains("at::scatter wants one dtype"), src.message());
    }

    @Test
    void printedAsScatterOpAndReadBack() throws Exception {
        String dump = OP.dumpReadBack(GOOD);
        assertTrue(dump.contains("   = scatter(in = T0_g_float[iS0{i0}, iS1{i2}] (DeviceMesh{0 1}), dim = 0, src = "
                + "T2_g_float[iS4{i5}, iS5{i6}] (DeviceMesh{0 1}), idx = T1_g_int64_t[iS2{i3}, iS3{i4}] (DeviceMesh{0 1}) )"),
                dump);
    }

    @Test
    void theKernelIsAtScatterAndRefusesRepeatedOrOutOfRangeTargets() throws Exception {
        FusionOp.Scatter op = (FusionOp.Scatter) OP.load(GOOD, 1).fusion().ops().getFirst();
        DenseTensor acc = DenseTensor.of(DataType.FLOAT, new long[] {3, 2}, 0, 1, 2, 3, 4, 5);
        DenseTensor ids = DenseTensor.ofLongs(DataType.INT64, new long[] {2, 1}, 2, 0);
        DenseTensor y = DenseTensor.of(DataType.FLOAT, new long[] {2, 2}, 10, 11, 12, 13);
        // only the index's extent of src is read: src[0, 0] to row 2, src[1, 0] to row 0, column 0 only
        assertArrayEquals(new float[] {12, 1, 2, 3, 10, 5}, OpKernels.compute(op, List.of(acc, ids, y)).toArray());
        DenseTensor twice = DenseTensor.ofLongs(DataType.INT64, new long[] {2, 1}, 1, 1);
        RunFailure repeated = assertThrows(RunFailure.class, () -> OpKernels.compute(op, List.of(acc, twice, y)));
        assertTrue(repeated.getMessage().endsWith("two index entries write element [1, 0] (at::scatter leaves the"
                + " result of repeated indices undefined)"), repeated.getMessage());
        DenseTensor outside = DenseTensor.ofLongs(DataType.INT64, new long[] {2, 1}, 3, 0);
        OneOpFusion.outOfRange(op, List.of(acc, outside, y), "index 3 is outside [0, 3) of input axis 0 (at::scatter:"
                + " index out of range in self)");
    }

    @Test
    void theSeededSlotsAreDistinctPerColumnAndTheRunValidates() throws Exception {
        LoadedFusion loaded = OP.load(GOOD, 1);
        DenseTensor drawn = OneOpFusion.drawn(loaded, 1, 7);
        for (long h = 0; h < 3; h++) {
            Set<Long> rows = new HashSet<>();
            for (long n = 0; n < 4; n++) {
                long r = drawn.getLong(n, h);
                assertTrue(r >= 0 && r < 6 && rows.add(r), "column " + h + " row " + r);
            }
        }
    }
}
