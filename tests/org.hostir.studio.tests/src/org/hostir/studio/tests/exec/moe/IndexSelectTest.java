package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.export.PythonExporter;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.junit.jupiter.api.Test;

/**
 * index_select, nvFuser's IndexSelectOp (csrc/ops/indexing.cpp:51-110, csrc/ir/internal_nodes.cpp:199-240 at
 * 81c4b22fd): shape and dtype rules with their rule and line, the dump spelling read back, the reference kernel
 * as {@code at::index_select}, the seeded router's in-range indices, and the Python export.
 */
class IndexSelectTest {
    private static String fusion(String xAxes, String routeDtype, String routeAxes, String outAxes, String axes) {
        return """
                {"format": "hostir-fusion/1", "name": "gather", "symbols": {"T": 5, "H": 3, "N": 4},
                 "tensors": [
                  {"name": "x", "dtype": "float", "axes": %s, "mesh": "all"},
                  {"name": "route", "dtype": "%s", "axes": %s, "mesh": "all"},
                  {"name": "rows", "dtype": "float", "axes": %s, "mesh": "all"}],
                 "ops": [{"op": "index_select", "inputs": ["x", "route"], "output": "rows", "axes": %s}],
                 "inputs": ["x", "route"], "outputs": ["rows"]}
                """.formatted(xAxes, routeDtype, routeAxes, outAxes, axes);
    }

    private static final String GOOD = fusion("[\"T\", \"H\"]", "int64", "[\"N\"]", "[\"N\", \"H\"]", "[0]");

    private static final OneOpFusion GATHER = new OneOpFusion("gather.fusion");

    @Test
    void theShapeRuleRefusesWithItsRuleAtTheOpsLine() {
        Diagnostic wrongAxis = GATHER.refusal(fusion("[\"T\", \"H\"]", "int64", "[\"N\"]", "[\"T\", \"N\"]", "[0]"));
        assertEquals("shape.index-select", wrongAxis.rule(), wrongAxis.message());
        assertEquals(6, wrongAxis.line(), wrongAxis.toString());
        Diagnostic twoD = GATHER.refusal(fusion("[\"T\", \"H\"]", "int64", "[\"N\", \"H\"]", "[\"N\", \"H\"]", "[0]"));
        assertTrue(twoD.message().contains("must be 1-D"), twoD.message());
        Diagnostic twoAxes = GATHER.refusal(fusion("[\"T\", \"H\"]", "int64", "[\"N\"]", "[\"N\", \"H\"]", "[0, 1]"));
        assertTrue(twoAxes.message().contains("must name one axis of the input"), twoAxes.message());
        Diagnostic sharded = GATHER.refusal(fusion("[{\"extent\": \"D\", \"parallel\": \"DIDx\"}, \"H\"]", "int64", "[\"N\"]",
                "[\"N\", \"H\"]", "[0]"));
        assertEquals("shape.index-select", sharded.rule(), sharded.message());
        assertTrue(sharded.message().contains("is sharded"), sharded.message());
    }

    @Test
    void theDtypeRuleWantsAnIntegerIndexAndTheInputsDtype() {
        Diagnostic floatIndex = GATHER.refusal(GOOD.replace("\"dtype\": \"int64\"", "\"dtype\": \"float\""));
        assertEquals("dtype.mismatch", floatIndex.rule(), floatIndex.message());
        assertTrue(floatIndex.message().contains("not int64 or int32"), floatIndex.message());
        Diagnostic out = GATHER.refusal(GOOD.replace("{\"name\": \"rows\", \"dtype\": \"float\"",
                "{\"name\": \"rows\", \"dtype\": \"half\""));
        assertEquals("dtype.mismatch", out.rule(), out.message());
    }

    @Test
    void printedAsIndexSelectOpAndReadBack() throws Exception {
        String text = OneOpFusion.printedAndReadBack(GATHER.load(GOOD, 2));
        assertTrue(text.contains("   = indexSelect( T0_g_float[iS0{i0}, iS1{i2}] (DeviceMesh{0 1}), dim = 0, "
                + "T1_g_int64_t[iS2{i3}] (DeviceMesh{0 1}) )"), text);
    }

    @Test
    void theKernelIsAtIndexSelectAndRefusesAnOutOfRangeIndexInOneLine() throws Exception {
        FusionOp.IndexSelect op = (FusionOp.IndexSelect) GATHER.load(GOOD, 1).fusion().ops().getFirst();
        DenseTensor x = DenseTensor.of(DataType.FLOAT, new long[] {5, 3}, 0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32,
                40, 41, 42);
        DenseTensor route = DenseTensor.ofLongs(DataType.INT64, new long[] {4}, 4, 0, 4, 2);
        assertArrayEquals(new float[] {40, 41, 42, 0, 1, 2, 40, 41, 42, 20, 21, 22},
                OpKernels.compute(op, List.of(x, route)).toArray());
        DenseTensor bad = DenseTensor.ofLongs(DataType.INT64, new long[] {4}, 4, 0, 5, 2);
        OneOpFusion.outOfRange(op, List.of(x, bad), "index 5 is outside [0, 5) of input axis 0 (at::index_select:"
                + " index out of range in self)");
    }

    /** The seeded router: the same seed draws the same rows, every one in range; another seed others. */
    @Test
    void theRoutersIndicesAreSeededAndInRange() throws Exception {
        LoadedFusion loaded = GATHER.load(GOOD, 1);
        long[] a = OneOpFusion.drawn(loaded, 1, 7).toLongArray();
        assertArrayEquals(a, OneOpFusion.drawn(loaded, 1, 7).toLongArray());
        for (long r : a) assertTrue(r >= 0 && r < 5, "row " + r);
        boolean differs = false;
        for (long seed = 8; seed < 12 && !differs; seed++) {
            differs = !Arrays.equals(a, OneOpFusion.drawn(loaded, 1, seed).toLongArray());
        }
        assertTrue(differs, "every seed routed alike");
    }

    /** The Python export writes the int64 index as nvFuser's DataType.Int, drawn in [0, T) as the engine draws it. */
    @Test
    void thePythonExportDrawsTheInt64IndexWithinTheSelectedAxis() throws Exception {
        LoadedFusion loaded = GATHER.load(GOOD, 2);
        String script = PythonExporter.export(loaded.fusion(), null, 2, loaded.bindings().asMap(), "gather.fusion");
        assertTrue(script.contains("route = fd.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Int)"), script);
        assertTrue(script.contains("torch.randint(0, 5, (4,), dtype=torch.int64)"), script);
    }
}
