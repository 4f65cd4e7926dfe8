package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.ir.print.IrText;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * 2-D device meshes (data x tensor parallel): DIDx shards along the mesh's last axis, DIDy along the first, and a
 * collective over one of them runs in the mesh slice through each device (nvFuser's DeviceMesh::getSlice).
 */
class TwoDimMeshTest {
    private static final DeviceMesh GRID = new DeviceMesh(List.of(0, 1, 2, 3, 4, 5, 6, 7), List.of(2, 4));

    @Test
    void slicesAndCoordinatesFollowNvFusersDeviceMesh() {
        assertEquals("DeviceMesh{{0 1 2 3}{4 5 6 7}}", IrText.mesh(GRID));
        assertEquals(4, GRID.extent(ParallelType.DIDX));
        assertEquals(2, GRID.extent(ParallelType.DIDY));
        assertEquals(List.of(4, 5, 6, 7), GRID.slice(6, ParallelType.DIDX));
        assertEquals(List.of(2, 6), GRID.slice(6, ParallelType.DIDY));
        assertEquals(2, GRID.coordinate(6, ParallelType.DIDX));
        assertEquals(1, GRID.coordinate(6, ParallelType.DIDY));
    }

    /**
     * A mesh of three axes nests axis by axis as nvFuser's operator<< prints it (csrc/multidevice/device_mesh.cpp:53-75
     * at 81c4b22fd); the row-by-row form read {@code {{0 1}{2 3}{4 5}{6 7}}}, a 4 x 2 mesh's print.
     */
    @Test
    void aThreeAxisMeshNestsAsNvFuserPrintsIt() {
        DeviceMesh cube = new DeviceMesh(List.of(0, 1, 2, 3, 4, 5, 6, 7), List.of(2, 2, 2));
        assertEquals("DeviceMesh{{{0 1}{2 3}}{{4 5}{6 7}}}", IrText.mesh(cube));
        assertEquals("DeviceMesh{{0 1}{2 3}{4 5}{6 7}}", IrText.mesh(new DeviceMesh(List.of(0, 1, 2, 3, 4, 5, 6, 7), List.of(4, 2))));
        assertEquals("DeviceMesh{3 1 2}", IrText.mesh(DeviceMesh.of(3, 1, 2)));
    }

    /**
     * The 2 x 2 example, or the same on a 2 x 4 mesh (kept out of examples/, whose suites run every file on 4
     * devices): four partial products over DIDx instead of two.
     */
    private static LoadedFusion example(String name, int devices) throws Exception {
        String base = name.startsWith("mlp") ? "mlp_dp_tp_gelu_2x2.fusion" : "dp_tp_linear_2x2.fusion";
        String text = java.nio.file.Files.readString(RepoPaths.repo().resolve("examples/parallelism/" + base));
        if (name.contains("2x4")) {
            text = text.replace("[[0, 1], [2, 3]]", "[[0, 1, 2, 3], [4, 5, 6, 7]]")
                    .replace("\"axes\": [2, ", "\"axes\": [4, ")
                    .replace("{\"extent\": 2, \"iter\": \"reduction\"}", "{\"extent\": 4, \"iter\": \"reduction\"}");
        }
        return Engine.load(new FusionSource.Text(text, name), devices, Map.of());
    }

    private static void validates(LoadedFusion loaded, int devices) {
        try (CpuBackend backend = new CpuBackend(devices, 10_000)) {
            RunResult r = Runs.run(loaded, devices, Map.of(), backend, s -> { });
            assertTrue(r.validation().orElseThrow().passed(), r.validation().orElseThrow().line());
        }
    }

    /**
     * The DP x TP MLP showcase (issue 19): gelu(x @ w1) @ w2 with x's rows over DIDy and w1's columns, w2's rows
     * over DIDx; one Allreduce per mesh row sums the partial products, nothing crosses DIDy.
     */
    @Test
    void dataTimesTensorParallelMatmulAllreducesWithinEachMeshRow() throws Exception {
        for (String name : List.of("dp_tp_linear_2x2.fusion", "dp_tp_linear_2x4.fusion", "mlp_dp_tp_gelu_2x2.fusion",
                "mlp_dp_tp_gelu_2x4.fusion")) {
            int devices = name.contains("2x2") ? 4 : 8;
            LoadedFusion loaded = example(name, devices);
            for (int rank = 0; rank < devices; rank++) {
                String program = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, rank));
                int row = rank / (devices / 2);
                String team = row == 0 ? (devices == 4 ? "0 1" : "0 1 2 3") : (devices == 4 ? "2 3" : "4 5 6 7");
                assertTrue(program.contains("type=Allreduce, team=(" + team + ")"), rank + ":\n" + program);
                assertEquals(1, program.split("\\(type=", -1).length - 1, "one communication: " + program);
            }
            validates(loaded, devices);
        }
    }

    private static String fusion(String x, String y) {
        return """
                {"format": "hostir-fusion/2", "name": "g", "symbols": {"M": 8, "N": 4},
                 "tensors": [{"name": "x", "dtype": "float", "axes": ["M", "N"], "mesh": [[0, 1], [2, 3]], %s},
                             {"name": "y", "dtype": "float", "axes": ["M", "N"], "mesh": [[0, 1], [2, 3]], %s}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y"}], "inputs": ["x"], "outputs": ["y"]}
                """.formatted(x, y);
    }

    private static final String ROWS_Y = "\"loop\": [{\"outer_split\": 0, \"factor\": 2}, {\"parallelize\": 0,"
            + " \"type\": \"DIDy\"}]";
    private static final String COLS_X = "\"loop\": [{\"outer_split\": 1, \"factor\": 2}, {\"parallelize\": 1,"
            + " \"type\": \"DIDx\"}]";

    @Test
    void anAllgatherOverDidyGathersWithinEachMeshColumn() throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.Text(fusion(ROWS_Y, "\"allocation\": \"logical\""),
                "g.fusion"), 4, Map.of());
        String program = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, 1));
        assertTrue(program.contains("type=Allgather, team=(1 3)"), program);
        validates(loaded, 4);
    }

    @Test
    void changingBothShardingsAtOnceAndRootedCollectivesOnAGridAreRefused() throws Exception {
        String both = fusion(ROWS_Y, COLS_X);
        EngineFailure e = assertThrows(EngineFailure.class, () -> Engine.check(Engine.load(
                new FusionSource.Text(both, "g.fusion"), 4, Map.of()), SeedGeneration.DEFAULTS));
        assertEquals("sharding.two-types", e.diagnostics().getFirst().rule());
        String scatter = fusion("\"allocation\": \"logical\"", COLS_X);
        EngineFailure s = assertThrows(EngineFailure.class, () -> Engine.check(Engine.load(
                new FusionSource.Text(scatter, "g.fusion"), 4, Map.of()), SeedGeneration.DEFAULTS));
        assertEquals("sharding.mesh-2d", s.diagnostics().getFirst().rule());
    }

    /**
     * A logical DIDx axis on a 2-D mesh, no loop steps: it stays DIDx (reading such a tensor as hostir-fusion/2 once
     * dropped it, and the allgather below lowered to nothing and "validated" unsharded), so each mesh row gathers.
     */
    @Test
    void aLogicalDidxAxisOnATwoDimensionalMeshKeepsItsSharding() throws Exception {
        String text = """
                {"format": "hostir-fusion/2", "name": "row_allgather", "symbols": {"S": 2},
                 "tensors": [
                   {"name": "x", "dtype": "float", "axes": ["S", {"extent": 2, "parallel": "DIDx"}], "mesh": [[0, 1], [2, 3]]},
                   {"name": "y", "dtype": "float", "axes": ["S", 2], "mesh": [[0, 1], [2, 3]]}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y"}],
                 "inputs": ["x"], "outputs": ["y"]}""";
        LoadedFusion loaded = Engine.load(new FusionSource.Text(text, "row_allgather.fusion"), 4, Map.of());
        assertEquals(ParallelType.DIDX, loaded.fusion().inputs().getFirst().axis(1).parallelType());
        for (int rank = 0; rank < 4; rank++) {
            String program = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, rank));
            String row = rank < 2 ? "team=(0 1)" : "team=(2 3)";
            assertTrue(program.contains("type=Allgather, " + row), "rank " + rank + ":\n" + program);
        }
        validates(loaded, 4);
    }
}
