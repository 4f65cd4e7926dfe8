package org.hostir.studio.tests.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export --python --nvfuser 2025-06} (issue 33): the seeds' Python frontend, {@code nvfuser}'s
 * FusionDefinition subclassed as that revision's tests/python/multidevice/test_matmul.py writes it. Every example
 * exports to a script {@code python3 -m py_compile} accepts, or is refused for what the seeds cannot spell; every
 * call is listed in docs/nvfuser-interop.md.
 */
class LegacyPythonExportTest {
    private static final Pattern CALL = Pattern.compile(
            "fd\\.ops\\.\\w+|fd\\.(?:define_tensor|add_output|execute)|self\\.sched\\.\\w+|nvfuser(?:\\.\\w+)+"
                    + "|torch(?:\\.\\w+)+|DataType\\.\\w+|ParallelType\\.\\w+|mesh\\.shard_tensor");

    @Test
    void everyExampleExportsOrIsRefusedForWhatTheSeedsCannotSpell(@TempDir Path dir) throws Exception {
        PythonExports.Walk walk = PythonExports.exportAll(dir, NvFuserGeneration.V2025_06, CALL);
        for (PythonExports.Export x : walk.compiled()) {
            assertTrue(x.script().contains("import nvfuser\n") && !x.script().contains("nvfuser_direct"), x.script());
        }
        List<String> refused = walk.refused().stream().map(PythonExports.Export::name).toList();
        int compiled = walk.compiled().size();
        assertTrue(compiled >= 15, "compiled " + compiled + " scripts");
        assertEquals(Set.of(), walk.undocumented(), "calls missing from docs/nvfuser-interop.md");
        assertTrue(refused.contains("column_parallel_linear_collective_permute.fusion"), "swizzle1d: " + refused);
    }

    /** The seeds' spelling, as test_matmul.py's test_column_parallel_linear (43b9a1aa5) writes the same calls. */
    @Test
    void aLoopSplitShardingReadsLikeTheSeedsOwnTest() {
        String file = RepoPaths.repo().resolve("examples/conformance/lower_collective_allgather_loop_split.fusion")
                .toString();
        CliRun seeds = CliRun.of("export", "--python", file, "--devices", "4", "--nvfuser", "2025-06");
        assertEquals(0, seeds.code(), seeds.err());
        for (String line : List.of("class Model(FusionDefinition):", "    def definition(self):",
                "    def multidevice_schedule(self):", "self.sched._set_device_mesh(tv0, mesh)",
                "self.sched.split(tv0, 0, num_devices, False)",
                "self.sched.parallelize(tv0, 0, nvfuser.ParallelType.mesh_x)", "self.sched.set_allocation_as_loop(tv0)",
                "mesh.shard_tensor(torch.randn(16, dtype=torch.float32), 0, communicator.rank())",
                "outputs, _ = fd.execute([t_tv0])")) {
            assertTrue(seeds.out().contains(line), () -> "missing '" + line + "' in\n" + seeds.out());
        }
        CliRun newest = CliRun.of("export", "--python", file, "--devices", "4", "--nvfuser", "2026-04");
        assertTrue(newest.out().contains("import nvfuser_direct as nvfuser") && newest.out().contains(".outer_split("),
                newest.out());
        CliRun bad = CliRun.of("export", "--python", file, "--nvfuser", "2024-08");
        assertEquals(2, bad.code(), bad.err());
    }
}
