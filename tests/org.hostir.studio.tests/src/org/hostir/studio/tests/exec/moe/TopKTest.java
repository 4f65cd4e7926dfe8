package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.exec.cuda.CudaKernels;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * topk and topk_indices, nvFuser's TopKOp (csrc/ops/arith.cpp:2497-2584, composite_nodes.cpp:796-855 at 81c4b22fd):
 * the shape and dtype rules at the op's line, the dump spelling read back, the kernel as {@code at::topk} (NaN above
 * every number, ties in input order), a sharded axis refused and another sharded axis run, CUDA's kernel declared.
 */
class TopKTest {
    static String fusion(String inDtype, String inAxes, String op, String outDtype, String outAxes, String attrs) {
        return """
                {"format": "hostir-fusion/1", "name": "router", "symbols": {"T": 4, "E": 5},
                 "tensors": [
                  {"name": "logits", "dtype": "%s", "axes": %s, "mesh": "all"},
                  {"name": "top", "dtype": "%s", "axes": %s, "mesh": "all"}],
                 "ops": [{"op": "%s", "inputs": ["logits"], "output": "top", %s}],
                 "inputs": ["logits"], "outputs": ["top"]}
                """.formatted(inDtype, inAxes, outDtype, outAxes, op, attrs);
    }

    private static final OneOpFusion OP = new OneOpFusion("op.fusion");

    private static final String ROWS = "[\"T\", \"E\"]";
    private static final String TOP2 = "[\"T\", 2]";
    private static final String LARGEST = "\"axes\": [1], \"flags\": [true, true]";



    @Test
    void theRulesRefuseAtTheOpsLine() {
        Diagnostic k = OP.refusal(fusion("float", ROWS, "topk", "float", "[\"T\", 6]", LARGEST));
        assertEquals("shape.topk", k.rule(), k.message());
        assertEquals(5, k.line(), k.toString());
        assertTrue(k.message().contains("k = 6 exceeds input axis 1's extent E (5)"), k.message());
        Diagnostic flags = OP.refusal(fusion("float", ROWS, "topk", "float", TOP2, "\"axes\": [1], \"flags\": [true]"));
        assertTrue(flags.message().contains("must be [largest, sorted]"), flags.message());
        Diagnostic other = OP.refusal(fusion("float", ROWS, "topk", "float", "[3, 2]", LARGEST));
        assertEquals("shape.topk", other.rule(), other.message());
        Diagnostic sharded = OP.refusal(fusion("float", "[\"T\", {\"extent\": \"D\", \"parallel\": \"DIDx\"}]", "topk",
                "float", "[\"T\", {\"extent\": \"D\", \"parallel\": \"DIDx\"}]", LARGEST));
        assertTrue(sharded.message().contains("axis 1 is sharded or a Stream axis; topk chooses among a whole axis"), sharded.message());
        Diagnostic idx = OP.refusal(fusion("float", ROWS, "topk_indices", "int32", TOP2, LARGEST));
        assertEquals("dtype.mismatch", idx.rule(), idx.message());
        assertTrue(idx.message().contains("topk_indices of float gives int64"), idx.message());
        Diagnostic bool = OP.refusal(fusion("bool", ROWS, "topk", "bool", TOP2, LARGEST));
        assertEquals("dtype.bool", bool.rule(), bool.message());
    }

    @Test
    void printedAsTopKOpsCallAndReadBack() throws Exception {
        String text = fusion("float", ROWS, "topk_indices", "int64", TOP2, "\"axes\": [1], \"flags\": [false, true]");
        String dump = OP.dumpReadBack(text);
        assertTrue(dump.contains("   = topk_indices( T0_g_float[iS0{i0}, iS1{i2}] (DeviceMesh{0 1}), 2, dim = 1,"
                + " largest = False, sorted = True )"), dump);
    }

    @Test
    void theKernelIsAtTopkWithNanFirstAndTiesInOrder() throws Exception {
        FusionOp.TopK values = (FusionOp.TopK) OP.load(fusion("float", ROWS, "topk", "float", TOP2, LARGEST), 1)
                .fusion().ops().getFirst();
        TensorView v = values.output();
        TensorView ids = new TensorView(v.id(), v.label(), DataType.INT64, v.memoryType(), v.axes(), v.mesh());
        FusionOp.TopK indices = new FusionOp.TopK(ids, values.input(), values.axes(), values.flags(), true);
        FusionOp.TopK smallest = new FusionOp.TopK(indices.output(), values.input(), values.axes(),
                List.of(false, true), true);
        DenseTensor x = DenseTensor.of(DataType.FLOAT, new long[] {4, 5}, 1, 5, 3, 5, 2, -1, Float.NaN, 0, 9, 9,
                4, 4, 4, 4, 4, -3, -1, -2, -5, -4);
        assertArrayEquals(new float[] {5, 5, Float.NaN, 9, 4, 4, -1, -2}, OpKernels.compute(values, List.of(x)).toArray());
        assertArrayEquals(new long[] {1, 3, 1, 3, 0, 1, 1, 2}, OpKernels.compute(indices, List.of(x)).toLongArray());
        assertArrayEquals(new long[] {0, 4, 0, 2, 0, 1, 3, 4}, OpKernels.compute(smallest, List.of(x)).toLongArray());
    }

    @Test
    void aTokenShardedRouterRunsAndCudaHasItsKernel() throws Exception {
        String text = fusion("float", "[{\"extent\": \"D\", \"parallel\": \"DIDx\"}, \"T\", \"E\"]", "topk", "float",
                "[{\"extent\": \"D\", \"parallel\": \"DIDx\"}, \"T\", 2]", "\"axes\": [2], \"flags\": [true, true]");
        LoadedFusion loaded = OP.load(text, 4);
        Engine.check(loaded, SeedGeneration.options(Map.of()));
        FusionOp op = loaded.fusion().ops().getFirst();
        assertEquals(java.util.Optional.empty(), CudaKernels.missing(op)); // issue 39: IndexOps.topk
    }
}
