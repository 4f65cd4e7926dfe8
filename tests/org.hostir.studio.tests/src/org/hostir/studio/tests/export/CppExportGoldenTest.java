package org.hostir.studio.tests.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.print.SeedDumps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * For every seed example whose seed shows its nvFuser test code, the exported C++ makes the same calls in the same
 * order ({@link CallSequence}: names and formatting aside). Where the seed shows the fusion but not its executor
 * (seeds 002 and 003 quote only the definition), the export's calls up to the executor are compared. Seed 001 and
 * the Scatter pipeline of seed 003 quote no test code, so there is nothing to compare their examples with.
 */
class CppExportGoldenTest {

    static String exported(String example, int devices) throws Exception {
        Path file = RepoPaths.repo().resolve(Path.of("examples", "seeds", example + ".fusion"));
        return Engine.export(Engine.load(new FusionSource.File(file), devices, Map.of()), Engine.ExportLanguage.CPP);
    }

    /** The seed's text from {@code from} up to {@code to} (both must be there). */
    static String between(String seed, String from, String to) {
        String text = SeedDumps.seedText(seed);
        int start = text.indexOf(from);
        int end = text.indexOf(to, start);
        assertTrue(start >= 0 && end > start, "seed " + seed + " lacks '" + from + "' .. '" + to + "'");
        return text.substring(start, end);
    }

    private static void assertSameCalls(String seedCode, String example, int devices) throws Exception {
        List<String> seed = CallSequence.of(seedCode);
        List<String> export = CallSequence.of(exported(example, devices));
        assertTrue(seed.size() >= 4, () -> "too little seed code recognised: " + seed);
        List<String> compared = seed.contains("MultiDeviceExecutor") ? export
                : export.subList(0, export.indexOf("MultiDeviceExecutor"));
        assertEquals(seed, compared, () -> example + ": seed calls vs exported calls\n" + String.join("\n", seed)
                + "\n---\n" + String.join("\n", compared));
    }

    @Test
    void seed000AllgatherP2p() throws Exception {
        assertSameCalls(between("000", "TEST_F(MultiDeviceStreamParallelTypeTest, AllgatherP2p) {",
                "TEST_F(MultiDeviceStreamParallelTypeTest, AG_matmul_P2p)"), "allgather_p2p", 8);
    }

    @Test
    void seed000AgMatmulP2p() throws Exception {
        assertSameCalls(between("000", "TEST_F(MultiDeviceStreamParallelTypeTest, AG_matmul_P2p) {",
                "auto t2_ref"), "ag_matmul_p2p", 8);
    }

    /**
     * Seed 002's PR text writes {@code out = matmul(a, b)}, names it defines nowhere; its own dump (the same PR)
     * shows {@code linear(in, weight, bias)}, which is the PR's subject. That one line is taken from the dump.
     */
    @Test
    void seed002AgLinear() throws Exception {
        String code = between("002", "More precisely, the fusion:", "gets lower through");
        String typo = "TensorView* out = matmul(a, b);";
        assertEquals(1, code.split(Pattern.quote(typo), -1).length - 1, "the seed has the line once");
        assertTrue(SeedDumps.dumps("002").get(0).contains("= linear("), "the seed's dump shows linear");
        assertSameCalls(code.replace(typo, "TensorView* out = linear(in, weight, bias);"), "ag_linear", 8);
    }

    @Test
    void seed003SingleSet() throws Exception {
        assertSameCalls(between("003", "`MultiDeviceExecutorLowerStreamTest.SingleSetOp`", "the dumped generated"),
                "single_set", 1);
    }

    @Test
    void seed003TwoSets() throws Exception {
        assertSameCalls(between("003", "`MultiDeviceExecutorLowerStreamTest.TwoSetOps`", "dump:"), "two_sets", 1);
    }

    @Test
    void seed003ThreeSetsDisjoint() throws Exception {
        assertSameCalls(between("003", "considers the Fusion:", "Here, tv2 is not"), "three_sets_disjoint", 1);
    }

    /**
     * A loop-split sharding is exported as the scheduling calls of LowerCollectiveTest.Allgather_LoopSplit, in
     * C++ and Python; a 2-D mesh, which neither export writes, is refused rather than written as a 1-D one.
     */
    @Test
    void loopTransformsExportAsNvFusersCallsOrAreRefused() {
        String loopSplit = RepoPaths.repo().resolve(
                "examples/conformance/lower_collective_allgather_loop_split.fusion").toString();
        CliRun cpp = CliRun.of("export", "--cpp", loopSplit, "--devices", "4");
        assertEquals(0, cpp.code(), cpp.err());
        assertTrue(cpp.out().contains("in->outer_split(0, communicator_->size());\nin->axis(0)->parallelize(ParallelType::DIDx);\n"
                + "in->setAllocationDomain(in->getLoopDomain(), true);\n"), cpp.out());
        assertTrue(!cpp.out().contains("in->axis(0)->parallelize(ParallelType::DIDx);\nin->outer_split"), cpp.out());
        CliRun python = CliRun.of("export", "--python", loopSplit, "--devices", "4");
        assertEquals(0, python.code(), python.err());
        // "in" is a Python keyword: the tensor is tv0 there
        assertTrue(python.out().contains("    tv0.outer_split(0, num_devices)\n"
                + "    tv0.axis(0).parallelize(nvfuser.ParallelType.mesh_x)\n"
                + "    tv0.set_allocation_domain(tv0.get_loop_domain(), new_contiguity=True)\n"), python.out());
        String grid = RepoPaths.repo().resolve("examples/parallelism/dp_tp_linear_2x2.fusion").toString();
        CliRun twoD = CliRun.of("export", "--cpp", grid, "--devices", "4");
        assertEquals(2, twoD.code(), twoD.out());
        assertTrue(twoD.err().contains("[export.unsupported]") && twoD.err().contains("2-D"), twoD.err());
    }

    /** LowerCollectiveTest.AllgatherLoopSplit_Noncontig (seeds' revision) schedules tv0 with these very calls. */
    @Test
    void splitsMergesAndReordersReplayAtTheirPositions(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("noncontig.fusion");
        Files.writeString(file, """
                {"format": "hostir-fusion/2", "name": "noncontig", "symbols": {"N": 12},
                 "tensors": [{"name": "tv0", "dtype": "float", "axes": [5, "N"], "mesh": "all",
                              "loop": [{"outer_split": 1, "factor": "D"}, {"parallelize": 1, "type": "DIDx"},
                                       {"reorder": [1, 2, 0]}], "allocation": "loop"},
                             {"name": "tv1", "dtype": "float", "axes": [5, "N"], "mesh": "all",
                              "loop": [{"split": 1, "factor": 3}, {"merge": 0}]}],
                 "ops": [{"op": "set", "inputs": ["tv0"], "output": "tv1"}], "inputs": ["tv0"], "outputs": ["tv1"]}
                """);
        CliRun cpp = CliRun.of("export", "--cpp", file.toString(), "--devices", "2");
        assertEquals(0, cpp.code(), cpp.err());
        assertTrue(cpp.out().contains("tv0->outer_split(1, communicator_->size());\ntv0->reorder({{1, 0}, {2, 1}, {0, 2}});\n"
                + "tv0->axis(0)->parallelize(ParallelType::DIDx);\ntv0->setAllocationDomain(tv0->getLoopDomain(), true);\n"
                + "tv1->split(1, 3);\ntv1->merge(0);\n"), cpp.out());
    }

    @Test
    void theCommandLineExports() {
        String fusion = RepoPaths.repo().resolve("examples/ag_matmul_p2p_mesh_reversed.fusion").toString();
        CliRun cpp = CliRun.of("export", "--cpp", fusion, "--devices", "2");
        assertEquals(0, cpp.code(), cpp.err());
        assertTrue(cpp.out().contains("DeviceMesh mesh0({1, 0});"), cpp.out());
        CliRun python = CliRun.of("export", "--python", fusion, "--devices", "2");
        assertEquals(2, python.code());
        assertTrue(python.err().startsWith("error: ") && python.err().contains("[export.unsupported]"), python.err());
        CliRun both = CliRun.of("export", "--cpp", "--python", fusion);
        assertEquals(2, both.code());
        assertTrue(both.err().contains("exactly one of --cpp and --python"), both.err());
    }

    /**
     * Without {@code --devices}, export takes as many devices as the file's meshes need, as check, lower and run do
     * (it took 2 and refused a fusion on mesh {2 3}); a {@code --devices} too small for them is one line per mesh.
     */
    @Test
    void theDeviceCountFollowsTheMeshes() {
        String fusion = RepoPaths.repo().resolve("examples/communication/send_recv.fusion").toString();
        CliRun cpp = CliRun.of("export", "--cpp", fusion);
        assertEquals(0, cpp.code(), cpp.err());
        assertTrue(cpp.out().contains("const DeviceMesh mesh1({2, 3});"), cpp.out());
        CliRun check = CliRun.of("check", fusion);
        assertEquals(0, check.code(), check.err());
        CliRun tooFew = CliRun.of("export", "--cpp", fusion, "--devices", "2");
        assertEquals(2, tooFew.code(), tooFew.out());
        List<String> lines = tooFew.err().lines().toList();
        assertEquals(2, lines.size(), tooFew.err());
        for (String line : lines) {
            assertTrue(line.startsWith("error: ") && line.contains("needs --devices 4 [mesh.device-range]"), line);
        }
    }

    /** The comparison sees what matters: another parallelized axis or op changes the sequence. */
    @Test
    void theSequenceTellsDifferentTestsApart() throws Exception {
        String exported = exported("ag_matmul_p2p", 8);
        List<String> calls = CallSequence.of(exported);
        assertNotEquals(calls, CallSequence.of(exported.replace("axis(0)->parallelize(ParallelType::DIDx)",
                "axis(1)->parallelize(ParallelType::DIDx)")));
        assertNotEquals(calls, CallSequence.of(exported.replace("matmul(tv0, tv1)", "matmul(tv1, tv0)")));
        assertEquals(calls, CallSequence.of(exported.replace("tv0", "a0").replace("\n", "\n  ")),
                "renaming and re-indenting changes nothing");
    }
}
