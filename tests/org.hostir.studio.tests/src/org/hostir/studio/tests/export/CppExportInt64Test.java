package org.hostir.studio.tests.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * The C++ test body draws each index input valid for its role, from the same decision as the Python export
 * ({@link PythonExportInt64Test}): index_select's and take_along_axis's index by {@code at::randint(0, extent, shape,
 * options.dtype(at::kLong))} of the axis it selects, as nvFuser's C++ tests draw indices
 * (tests/cpp/test_gather.cpp:96 at 81c4b22fd); grouped_mm's offsets a partition ending at the split extent; scatter's
 * index distinct positions. int64 is {@code DataType::Int} and {@code at::kLong}; no integer input is randn cast.
 */
class CppExportInt64Test {
    private static final Pattern RANDINT = Pattern.compile("at::Tensor t_(\\w+?)(?:_unsharded)? = at::randint\\(0, "
            + "(\\d+), \\{([\\d, ]*)\\}, options\\.dtype\\(at::kLong\\)\\);");

    private static String export(String example, Engine.ExportLanguage language) throws Exception {
        return Engine.export(Engine.load(new FusionSource.File(RepoPaths.repo().resolve(example)), 2, Map.of()),
                language);
    }

    /** Each index input's randint bound and shape, by tensor name. */
    private static Map<String, String> bounds(String body) {
        Matcher m = RANDINT.matcher(body);
        Map<String, String> out = new TreeMap<>();
        while (m.find()) out.put(m.group(1), m.group(2) + " over {" + m.group(3) + "}");
        return out;
    }

    private static void assertNoIntegerRandn(String body) {
        for (String kind : List.of("at::kLong", "at::kInt")) {
            assertFalse(body.contains("options).to(" + kind + ")"), () -> "an integer input drawn by randn in\n" + body);
        }
    }

    @Test
    void indexSelectsIndexIsAnInt64DrawnWithinTheSelectedAxis() throws Exception {
        // x is [T = 8, H = 4]; route picks N = 6 of its T rows (dim 0)
        String body = export("examples/moe/gather_tokens_column_parallel.fusion", Engine.ExportLanguage.CPP);
        assertTrue(body.contains("TensorView* route = makeContigTensor(1, DataType::Int);"), body);
        assertEquals(Map.of("route", "8 over {6}"), bounds(body));
        assertNoIntegerRandn(body);
    }

    @Test
    void takeAlongAxisIndexIsDrawnWithinTheExpertsAsInThePythonExport() throws Exception {
        // p is [T = 8, E = 4]: choice ([T, K = 2]) selects along dim 1, so in [0, 4); route ([N]) rows of x ([T, H])
        String example = "examples/moe/moe_router_expert_ffn_tp.fusion";
        String body = export(example, Engine.ExportLanguage.CPP);
        assertEquals(Map.of("choice", "4 over {8, 2}", "route", "8 over {6}"), bounds(body));
        assertNoIntegerRandn(body);
        String script = export(example, Engine.ExportLanguage.PYTHON);
        for (String python : List.of("t_choice = nvfuser.multidevice.shard_tensor(torch.randint(0, 4, (8, 2),",
                "t_route = nvfuser.multidevice.shard_tensor(torch.randint(0, 8, (6,),")) {
            assertTrue(script.contains(python), () -> "the Python export drew otherwise: " + python + "\n" + script);
        }
    }

    @Test
    void groupedMmOffsetsAndScatterPositionsAreDrawnForTheirRole() throws Exception {
        String body = export("examples/moe/moe_topk_grouped_experts.fusion", Engine.ExportLanguage.CPP);
        for (String line : List.of(
                // E = 4 group ends (int32): 3 sorted cuts in [0, N = 12], then 12
                "at::Tensor t_offsets = at::cat({std::get<0>(at::randint(0, 13, {3}, options.dtype(at::kLong)).sort()),"
                        + " at::full({1}, 12, options.dtype(at::kLong))}).to(at::kInt);",
                // N = 12 distinct rows of acc's M = 16 in every column (scatter along dim 0), int64
                "at::Tensor t_slot = at::rand({16, 8}, options).argsort(/*dim=*/0).narrow(0, 0, 12).to(at::kLong);",
                "at::Tensor t_acc = at::randn({16, 8}, options.dtype(at::kFloat));")) {
            assertTrue(body.contains(line), () -> "missing '" + line + "' in\n" + body);
        }
        assertEquals(Map.of(), bounds(body), "no input of this fusion is an index_select/take_along_axis index");
        assertNoIntegerRandn(body);
    }

    @Test
    void anIntegerInputWithNoIndexRoleIsStillRandnCast() throws Exception {
        // int32 that no op reads as an index: drawn as before, randn in float converted
        String body = export("examples/ops/dtypes_int32_double_bool.fusion", Engine.ExportLanguage.CPP);
        assertTrue(body.contains("options).to(at::kInt);"), body);
    }
}
