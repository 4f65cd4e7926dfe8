package org.hostir.studio.tests.export;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * The new ops and dtypes in both exports, spelled as nvFuser's C++ API (csrc/ops/arith.h, composite.h, alias.h)
 * and its Python frontend (python/python_direct/ops.cpp) take them.
 */
class OpsExportTest {
    private static String export(String example, Engine.ExportLanguage language) throws Exception {
        Path file = RepoPaths.repo().resolve("examples/ops/" + example + ".fusion");
        return Engine.export(Engine.load(new FusionSource.File(file), 2, Map.of()), language);
    }

    private static void contains(String text, String... calls) {
        for (String call : calls) assertTrue(text.contains(call), call + " in\n" + text);
    }

    @Test
    void cppUsesNvFusersOpFunctions() throws Exception {
        contains(export("unary_pointwise_dp", Engine.ExportLanguage.CPP), "= neg(x)", "= abs(x)", "= exp(x)",
                "= rsqrt(e)", "= gelu(x)", "= silu(x)", "= sigmoid(x)");
        // the tensor named sum is tv5 in C++: "TensorView* sum = sum(partial, {0})" would call the variable
        contains(export("fp8_linear_tp", Engine.ExportLanguage.CPP), "castOp(DataType::Float8_e4m3fn, x)",
                "TensorView* tv5 = sum(partial, {0}); // sum [", "castOp(DataType::Float, tv5)");
        contains(export("allreduce_min", Engine.ExportLanguage.CPP), "= min(x, {0})");
        contains(export("reduce_scatter_prod", Engine.ExportLanguage.CPP), "= prod(s, {0})");
        contains(export("where_squeeze_expand_dp", Engine.ExportLanguage.CPP), "= where(mask, x, nx)",
                "= squeeze(b, std::vector<int64_t>{1})", "= expand(b, {IrBuilder::create<Val>(2L),",
                "at::randn({2, 4, 5}, options).to(at::kBool)");
        contains(export("reshape_dp_heads", Engine.ExportLanguage.CPP), "= reshape(x, std::vector<Val*>{");
        contains(export("dtypes_int32_double_bool", Engine.ExportLanguage.CPP), "makeContigTensor(3, DataType::Int32)",
                "DataType::Double", "at::randn({2, 4, 3}, options).to(at::kInt)");
    }

    /** gelu has no nvfuser_direct binding: the export writes nvFuser's erf composite. */
    @Test
    void pythonUsesTheFrontendsOps() throws Exception {
        contains(export("unary_pointwise_dp", Engine.ExportLanguage.PYTHON), "n = fd.ops.neg(x)", "fd.ops.log(e)",
                "fd.ops.mul(x, fd.ops.mul(0.5, fd.ops.add(1.0, fd.ops.erf(fd.ops.mul(x, 0.7071067811865476)))))");
        contains(export("fp8_linear_tp", Engine.ExportLanguage.PYTHON), "fd.ops.cast(x, dtype=DataType.Float8_e4m3fn)",
                "fd.ops.matmul(x8, w8)");
        contains(export("allreduce_min", Engine.ExportLanguage.PYTHON),
                "fd.ops.min(x, dims=[0], keepdim=False, dtype=DataType.Null)");
        contains(export("where_squeeze_expand_dp", Engine.ExportLanguage.PYTHON), "fd.ops.where(mask, x, nx)",
                "fd.ops.squeeze(b, dims=[1])", "fd.ops.expand(b, shape=[2, 4, 5])");
        contains(export("reshape_dp_heads", Engine.ExportLanguage.PYTHON), "fd.ops.reshape(x, new_shape=[2, 4, 2, 3])");
        contains(export("dtypes_int32_double_bool", Engine.ExportLanguage.PYTHON), "torch.randn(2, 4, 3).to(torch.int32)",
                "fd.ops.cast(mask, dtype=DataType.Double)");
    }
}
