package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * Issue 30, items 2, 3 and 6: where a gathered or scattered axis must go first, as nvFuser's getCommunicationLayout
 * decides (csrc/host_ir/lower_to_communication.cpp:558-606 at 81c4b22fd) with isLocalSizeOne on the logical axis
 * (lines 394-396), and a set that permutes while it reshards (csrc/preseg_passes/reorder_sharded_axis.cpp:42-83).
 * Each fusion below computed wrong values (items 2, 3) or printed permutes nvFuser does not make (item 6) before.
 */
class CommunicationLayoutTest {
    static LoadedFusion load(String text, int devices) throws Exception {
        return Engine.load(new FusionSource.Text(text, "layout.fusion"), devices, Map.of());
    }

    static void validates(String text, int devices, Map<String, String> options) throws Exception {
        LoadedFusion loaded = load(text, devices);
        try (CpuBackend backend = new CpuBackend(devices, 10_000)) {
            RunResult r = Runs.run(loaded, devices, options, backend, s -> { });
            assertTrue(r.validation().orElseThrow().passed(), devices + " " + options + ": "
                    + r.validation().orElseThrow().line());
        }
    }

    static String program(String text, int devices, int rank) throws Exception {
        return HostIrPrinter.print(Engine.lowerRank(load(text, devices), SeedGeneration.DEFAULTS, rank));
    }

    /** test_allgather_2d (tests/python/multidevice/test_communication.py) at d = 4, {@code rows} rows in all. */
    private static String allgather2d(int rows) {
        return """
                {"format": "hostir-fusion/2", "name": "allgather_2d", "symbols": {"R": %d, "C": 6},
                 "tensors": [
                   {"name": "inp", "dtype": "float", "axes": ["R", "C"], "mesh": [[0, 1], [2, 3]],
                    "loop": [{"outer_split": 0, "factor": 2}, {"parallelize": 0, "type": "DIDy"},
                             {"outer_split": 2, "factor": 2}, {"parallelize": 2, "type": "DIDx"}]},
                   {"name": "out", "dtype": "float", "axes": ["R", "C"], "mesh": [[0, 1], [2, 3]],
                    "loop": [{"outer_split": 0, "factor": 2}, {"parallelize": 0, "type": "DIDy"}]}],
                 "ops": [{"op": "set", "inputs": ["inp"], "output": "out"}],
                 "inputs": ["inp"], "outputs": ["out"]}""".formatted(rows);
    }

    /** Item 2: two rows per device interleaved before; one row per device validated, and is reordered too. */
    @Test
    void anAllgatherAfterADidySplitMovesTheGatheredAxisFirst() throws Exception {
        for (int rows : List.of(4, 2)) {
            String text = allgather2d(rows);
            String program = program(text, 4, 3);
            assertTrue(program.contains("type=Allgather, team=(2 3)"), program);
            assertEquals(2, program.split("Set\\.Permute", -1).length - 1, "permute out and back: " + program);
            validates(text, 4, Map.of());
        }
    }

    /** Item 2 for a ReduceScatter: the scattered axis after the DIDy-split rows. */
    @Test
    void aReduceScatterAfterADidySplitMovesTheScatteredAxisFirst() throws Exception {
        String text = """
                {"format": "hostir-fusion/2", "name": "rs2d", "symbols": {"R": 4, "C": 6},
                 "tensors": [
                   {"name": "x", "dtype": "float", "axes": ["R", 2, "C"], "mesh": [[0, 1], [2, 3]],
                    "loop": [{"outer_split": 0, "factor": 2}, {"parallelize": 0, "type": "DIDy"},
                             {"parallelize": 2, "type": "DIDx"}]},
                   {"name": "y", "dtype": "float", "axes": ["R", {"extent": 2, "iter": "reduction"}, "C"],
                    "mesh": [[0, 1], [2, 3]],
                    "loop": [{"outer_split": 0, "factor": 2}, {"parallelize": 0, "type": "DIDy"},
                             {"outer_split": 3, "factor": 2}, {"parallelize": 3, "type": "DIDx"}]}],
                 "ops": [{"op": "sum", "inputs": ["x"], "output": "y", "axes": [1]}],
                 "inputs": ["x"], "outputs": ["y"]}""";
        String program = program(text, 4, 0);
        assertTrue(program.contains("type=ReduceScatter, team=(0 1)"), program);
        assertTrue(program.contains("Set.Permute"), program);
        validates(text, 4, Map.of());
    }

    /** Item 6: a broadcast axis is local size one, so the Allgather is posted as is. */
    @Test
    void aLeadingBroadcastAxisNeedsNoPermute() throws Exception {
        String text = """
                {"format": "hostir-fusion/1", "name": "bcast_first", "symbols": {"N": 3},
                 "tensors": [
                   {"name": "in", "dtype": "float", "axes": [{"iter": "broadcast"}, {"extent": "D", "parallel": "DIDx"}, "N"], "mesh": "all"},
                   {"name": "out", "dtype": "float", "axes": [{"iter": "broadcast"}, "D", "N"], "mesh": "all"}],
                 "ops": [{"op": "set", "inputs": ["in"], "output": "out"}],
                 "inputs": ["in"], "outputs": ["out"]}""";
        String program = program(text, 2, 0);
        assertFalse(program.contains("Set.Permute"), program);
        assertTrue(program.contains("type=Allgather"), program);
        for (int d : List.of(1, 2, 3)) validates(text, d, Map.of());
    }

    private static String permuted(String format, String x, String y, String perm, String symbols) {
        return """
                {"format": "%s", "name": "perm", "symbols": {%s},
                 "tensors": [{"name": "x", "dtype": "float", %s, "mesh": "all"},
                             {"name": "y", "dtype": "float", %s, "mesh": "all"}],
                 "ops": [{"op": "set", "inputs": ["x"], "output": "y", "permute": %s}],
                 "inputs": ["x"], "outputs": ["y"]}""".formatted(format, symbols, x, y, perm);
    }

    private static final String DIDX_D = "{\"extent\": \"D\", \"parallel\": \"DIDx\"}";
    private static final String SPLIT = "\"loop\": [{\"outer_split\": %d, \"factor\": \"D\"}, {\"parallelize\": %d,"
            + " \"type\": \"%s\"}]";

    /** Item 3: the Allgather, Scatter and pipelined allgather of a permuting set, in both formats. */
    @Test
    void aSetThatPermutesAndReshardsComputesThePermutedValues() throws Exception {
        List<String> fusions = List.of(
                permuted("hostir-fusion/1", "\"axes\": [" + DIDX_D + ", \"N\", \"K\"]", "\"axes\": [\"K\", \"N\", \"D\"]",
                        "[2, 1, 0]", "\"N\": 3, \"K\": 2"),
                permuted("hostir-fusion/1", "\"axes\": [\"N\", \"D\", \"K\"]",
                        "\"axes\": [\"K\", " + DIDX_D + ", \"N\"]", "[2, 1, 0]", "\"N\": 3, \"K\": 2"),
                permuted("hostir-fusion/1", "\"axes\": [\"N\", " + DIDX_D + "]",
                        "\"axes\": [{\"extent\": \"D\", \"parallel\": \"Stream\"}, \"N\"]", "[1, 0]", "\"N\": 3"),
                permuted("hostir-fusion/2", "\"axes\": [\"M\", \"N\"], " + SPLIT.formatted(0, 0, "DIDx"),
                        "\"axes\": [\"N\", \"M\"]", "[1, 0]", "\"N\": 3, \"M\": 12"),
                permuted("hostir-fusion/2", "\"axes\": [\"N\", \"M\"], " + SPLIT.formatted(1, 1, "DIDx"),
                        "\"axes\": [\"M\", \"N\"], " + SPLIT.formatted(0, 0, "Stream"), "[1, 0]",
                        "\"N\": 3, \"M\": 12"));
        for (String text : fusions) {
            for (String allgather : List.of("p2p", "broadcast", "collective")) {
                for (int d : List.of(2, 3)) validates(text, d, Map.of("allgather", allgather));
            }
        }
    }
}
