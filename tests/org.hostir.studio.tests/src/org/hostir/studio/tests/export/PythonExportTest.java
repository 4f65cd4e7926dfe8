package org.hostir.studio.tests.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python export of every example: {@code python3 -m py_compile} accepts it, and every nvFuser/torch call it
 * makes is listed in docs/nvfuser-interop.md (where each is traced to the nvFuser test that makes it). Examples
 * on a mesh other than {0 .. n-1} are refused with a diagnostic, which is checked too.
 */
class PythonExportTest {
    private static final Pattern CALL = Pattern.compile(
            "fd\\.ops\\.\\w+|fd\\.(?:define_tensor|add_output|fusion\\.inputs)|nvfuser(?:\\.\\w+)+|torch(?:\\.\\w+)+"
                    + "|CommunicatorBackend\\.\\w+|DataType\\.\\w+|ParallelType\\.\\w+"
                    + "|\\.(?:set_device_mesh|axis|parallelize|cuda|run|size|local_rank|backend_type|split|outer_split"
                    + "|merge|reorder|swizzle1d|set_allocation_domain|get_loop_domain)\\b");

    @Test
    void everyExampleExportsToAScriptPythonCompiles(@TempDir Path dir) throws Exception {
        PythonExports.Walk walk = PythonExports.exportAll(dir, NvFuserGeneration.newest(), CALL);
        // meshes other than {0 .. n-1} (Python only) and 2-D meshes (not exported yet)
        List<String> offStandardMeshes = walk.exports().stream().filter(x -> x.loaded().fusion().tensors().stream()
                .anyMatch(t -> t.mesh() != null && !t.mesh().equals(DeviceMesh.forNumDevices(t.mesh().size()))))
                .map(PythonExports.Export::name).toList();
        List<String> refused = walk.refused().stream().map(PythonExports.Export::name).toList();
        int compiled = walk.compiled().size();
        assertTrue(compiled >= 15, "compiled " + compiled + " scripts");
        assertEquals(Set.of(), walk.undocumented(), "calls missing from docs/nvfuser-interop.md");
        assertTrue(refused.containsAll(List.of("ag_matmul_p2p_mesh_reversed.fusion", "allgather_p2p_sub_mesh.fusion",
                "reduce.fusion", "send_recv.fusion")), refused::toString);
        assertEquals(offStandardMeshes, refused, "only examples on meshes other than {0 .. n-1} (2-D ones too) are"
                + " refused");
        List<String> compiledNames = walk.compiled().stream().map(PythonExports.Export::name).toList();
        assertTrue(compiledNames.containsAll(List.of("gather_tokens_column_parallel.fusion",
                "moe_router_expert_ffn_tp.fusion", "moe_topk_grouped_experts.fusion")),
                "the MoE examples (int64 token ids) export: " + compiledNames);
    }

    /** The definition and schedule of seed 002's pipeline, as nvFuser's test_overlap.py writes the same one. */
    @Test
    void agLinearReadsLikeNvFusersOwnTest() throws Exception {
        Path file = RepoPaths.repo().resolve("examples/seeds/ag_linear.fusion");
        String script = Engine.export(Engine.load(new FusionSource.File(file), 8, Map.of()),
                Engine.ExportLanguage.PYTHON);
        for (String line : List.of("out = fd.ops.linear(tv0, weight, bias)", "fd.add_output(out)",
                "mesh = nvfuser.multidevice.DeviceMesh(torch.arange(num_devices))",
                "tv0.axis(1).parallelize(nvfuser.ParallelType.mesh_x)",
                "out.axis(0).parallelize(nvfuser.ParallelType.stream)",
                "executor = nvfuser.multidevice.MultiDeviceExecutor(fd.fusion, params)")) {
            assertTrue(script.contains(line), () -> "missing '" + line + "' in\n" + script);
        }
    }
}
