package org.hostir.studio.tests.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * int64 tensors export as nvFuser's Python frontend spells them ({@code DataType.Int}, {@code torch.int64}:
 * python/nvfuser_direct/pytorch_utils.py:24 at 81c4b22fd), and the script draws each index input valid for its
 * role, as the engine's seeded inputs are: index_select's and take_along_axis's index by
 * {@code torch.randint(0, extent, ...)} of the axis it selects (tests/python/direct/test_python_frontend.py:594,
 * :663), grouped_mm's offsets a partition ending at the split extent, scatter's index distinct positions.
 */
class PythonExportInt64Test {
    private static final Pattern RANDINT = Pattern.compile("t_(\\w+) = .*?torch\\.randint\\(0, (\\d+), \\(([\\d, ]*)\\)"
            + ", dtype=torch\\.int64\\)");

    private static String export(String example, int devices) throws Exception {
        return Engine.export(Engine.load(new FusionSource.File(RepoPaths.repo().resolve(example)), devices, Map.of()),
                Engine.ExportLanguage.PYTHON);
    }

    /** The index input's randint bound, by tensor name; every randint of the script is an int64 index. */
    private static Map<String, String> bounds(String script) {
        Matcher m = RANDINT.matcher(script);
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        while (m.find()) out.put(m.group(1), m.group(2) + " over (" + m.group(3) + ")");
        return out;
    }

    @Test
    void indexSelectsIndexIsDrawnWithinTheSelectedAxis() throws Exception {
        // x is [T = 8, H = 4]; route picks N = 6 of its T rows (dim 0)
        String script = export("examples/moe/gather_tokens_column_parallel.fusion", 2);
        assertTrue(script.contains("route = fd.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Int)"), script);
        assertTrue(script.contains("rows = fd.ops.index_select(x, route, dim=0)"), script);
        assertEquals(Map.of("route", "8 over (6,)"), bounds(script));
    }

    @Test
    void takeAlongAxisIndexIsDrawnWithinTheExperts() throws Exception {
        // p is [T = 8, E = 4]: choice ([T, K = 2]) selects along dim 1, so in [0, 4); route ([N]) rows of x ([T, H])
        String script = export("examples/moe/moe_router_expert_ffn_tp.fusion", 2);
        assertTrue(script.contains("topk_weights = fd.ops.take_along_axis(p, choice, dim=1)"), script);
        assertEquals(Map.of("choice", "4 over (8, 2)", "route", "8 over (6,)"), bounds(script));
    }

    @Test
    void topkIndicesGroupedMmOffsetsAndScatterPositionsExport() throws Exception {
        String script = export("examples/moe/moe_topk_grouped_experts.fusion", 2);
        for (String line : List.of(
                "slot = fd.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.Int)",
                "topk_ids = fd.ops.topk(logits, 2, dim=2, largest=True, sorted=True)[1]",
                "fd.add_output(topk_ids)",
                // E = 4 group ends: 3 sorted cuts in [0, N = 12], then 12
                "torch.cat([torch.randint(0, 13, (3,)).sort().values, torch.tensor([12])]).to(torch.int32)",
                // N = 12 distinct rows of acc's M = 16 in every column (scatter along dim 0)
                "torch.rand(16, 8).argsort(dim=0).narrow(0, 0, 12).to(torch.int64)")) {
            assertTrue(script.contains(line), () -> "missing '" + line + "' in\n" + script);
        }
        assertEquals(Map.of(), bounds(script), "no input of this fusion is an index_select/take_along_axis index");
    }
}
