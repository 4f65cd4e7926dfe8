package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, observation 5: what nvFuser's lowering refuses is refused by {@code check}, {@code lower} and
 * {@code run} alike (check lowers every rank, so the decisions are the lowering's and nothing repeats them),
 * as one {@code error: FILE:LINE: ... [rule]} line at the tensor or op it is about, exit 2, before anything runs.
 */
class NvFuserRejectionTest {
    /** (a) StreamParallelType: "Expected no stream axis in the TensorView inputs". */
    private static final String STREAM_INPUT = """
            {
              "format": "hostir-fusion/1",
              "name": "stream_on_input",
              "symbols": {"S": 4, "M": 8},
              "tensors": [
                {"name": "tv0", "dtype": "float", "axes": [{"extent": "S", "parallel": "Stream"}, "M"]},
                {"name": "tv1", "dtype": "float", "axes": [{"extent": "S", "parallel": "Stream"}, "M"]}
              ],
              "ops": [{"op": "set", "inputs": ["tv0"], "output": "tv1"}],
              "inputs": ["tv0"],
              "outputs": ["tv1"]
            }
            """;

    /** (b) the P2P allgather: "expected a sharded first axis on the input". */
    private static final String INNER_ALLGATHER = """
            {
              "format": "hostir-fusion/1",
              "name": "allgather_inner",
              "symbols": {"M": 8},
              "tensors": [
                {"name": "tv0", "dtype": "float", "axes": ["M", {"extent": "D", "parallel": "DIDx"}], "mesh": "all"},
                {"name": "tv1", "dtype": "float", "axes": ["M", {"extent": "D", "parallel": "Stream"}], "mesh": "all"}
              ],
              "ops": [{"op": "set", "inputs": ["tv0"], "output": "tv1"}],
              "inputs": ["tv0"],
              "outputs": ["tv1"]
            }
            """;

    /** (c) a reduce-scatter pipeline whose input already has the Stream axis (the run used to fail on a copy). */
    private static final String STREAM_INPUT_REDUCE_SCATTER = """
            {
              "format": "hostir-fusion/1",
              "name": "rs_stream_on_input",
              "symbols": {"S": 4, "M": 2},
              "tensors": [
                {"name": "tv0", "dtype": "float", "axes": [{"extent": "S", "parallel": "Stream"}, {"extent": "D", "parallel": "DIDx"}, "D", "M"], "mesh": "all"},
                {"name": "tv1", "dtype": "float", "axes": [{"extent": "S", "parallel": "Stream"}, {"extent": "D", "iter": "reduction"}, {"extent": "D", "parallel": "DIDx"}, "M"], "mesh": "all"}
              ],
              "ops": [{"op": "sum", "inputs": ["tv0"], "output": "tv1", "axes": [1]}],
              "inputs": ["tv0"],
              "outputs": ["tv1"]
            }
            """;

    /** (d) groupStreamParallelRegions: "Stream parallel type not supported for expr" (a broadcast is a HostUnit). */
    private static final String STREAM_BROADCAST = """
            {
              "format": "hostir-fusion/1",
              "name": "broadcast_on_stream",
              "symbols": {"S": 4, "M": 8},
              "tensors": [
                {"name": "tv0", "dtype": "float", "axes": ["S", "M"]},
                {"name": "tv1", "dtype": "float", "axes": [{"extent": "S", "parallel": "Stream"}, {"extent": 1, "iter": "broadcast"}, "M"]}
              ],
              "ops": [{"op": "broadcast", "inputs": ["tv0"], "output": "tv1", "flags": [false, true, false]}],
              "inputs": ["tv0"],
              "outputs": ["tv1"]
            }
            """;

    /** A ReduceScatter whose scattered axis is inner: nvFuser permutes it out; refused here, never mis-scattered. */
    private static final String INNER_REDUCE_SCATTER = """
            {
              "format": "hostir-fusion/1",
              "name": "rs_inner",
              "symbols": {"M": 3},
              "tensors": [
                {"name": "tv0", "dtype": "float", "axes": ["M", {"extent": "D", "parallel": "DIDx"}, "D"], "mesh": "all"},
                {"name": "tv1", "dtype": "float", "axes": ["M", {"extent": "D", "iter": "reduction"}, {"extent": "D", "parallel": "DIDx"}], "mesh": "all"}
              ],
              "ops": [{"op": "sum", "inputs": ["tv0"], "output": "tv1", "axes": [1]}],
              "inputs": ["tv0"],
              "outputs": ["tv1"]
            }
            """;

    /** A Scatter between meshes with no device in common: lowerToScatter finds no root. */
    private static final String SCATTER_NO_ROOT = """
            {
              "format": "hostir-fusion/1",
              "name": "scatter_no_root",
              "symbols": {"M": 3},
              "tensors": [
                {"name": "tv0", "dtype": "float", "axes": [2, "M"], "mesh": [0]},
                {"name": "tv1", "dtype": "float", "axes": [{"extent": 2, "parallel": "DIDx"}, "M"], "mesh": [1, 2]}
              ],
              "ops": [{"op": "set", "inputs": ["tv0"], "output": "tv1"}],
              "inputs": ["tv0"],
              "outputs": ["tv1"]
            }
            """;

    /** A matmul whose DIDx operand becomes its Stream axis on another mesh: the set put in front of it. */
    private static final String MATMUL_STREAM_ACROSS_MESHES = """
            {
              "format": "hostir-fusion/1",
              "name": "matmul_stream_across_meshes",
              "symbols": {"M": 3, "N": 2},
              "tensors": [
                {"name": "a", "dtype": "float", "axes": [{"extent": 2, "parallel": "DIDx"}, "M", 2], "mesh": [2, 3]},
                {"name": "b", "dtype": "float", "axes": [2, "N"], "mesh": [2, 3]},
                {"name": "c", "dtype": "float", "axes": [{"extent": 2, "parallel": "Stream"}, "M", "N", {"extent": 2, "iter": "reduction"}], "mesh": [0, 1]}
              ],
              "ops": [{"op": "matmul", "inputs": ["a", "b"], "output": "c"}],
              "inputs": ["a", "b"],
              "outputs": ["c"]
            }
            """;

    private static Path write(Path dir, String name, String text) throws IOException {
        Path file = dir.resolve(name + ".fusion");
        Files.writeString(file, text);
        return file;
    }

    /** check, lower (without --rank and at the last rank) and run each refuse with the same single line. */
    private static void refusedEverywhere(Path file, int line, String rule, String reason, String... options) {
        String expected = "error: " + file + ":" + line + ": ";
        List<List<String>> commands = List.of(List.of("check"), List.of("lower"), List.of("lower", "--rank", "3"),
                List.of("run", "--backend", "cpu", "--validate"));
        for (List<String> command : commands) {
            List<String> args = new ArrayList<>(command.subList(0, 1));
            args.add(file.toString());
            args.addAll(command.subList(1, command.size()));
            args.addAll(List.of("--devices", "4"));
            for (String o : options) args.addAll(List.of("--option", o));
            CliRun r = CliRun.of(args.toArray(String[]::new));
            String what = String.join(" ", args);
            assertEquals(2, r.code(), what + ": " + r.out() + r.err());
            List<String> lines = r.err().lines().toList();
            assertEquals(1, lines.size(), what + ": " + r.err());
            assertTrue(lines.get(0).startsWith(expected), what + ": " + lines.get(0));
            assertTrue(lines.get(0).endsWith("[" + rule + "]"), what + ": " + lines.get(0));
            assertTrue(lines.get(0).contains(reason), what + ": " + lines.get(0));
        }
    }

    @Test
    void aStreamAxisOnAFusionInputIsRefused(@TempDir Path dir) throws IOException {
        refusedEverywhere(write(dir, "a", STREAM_INPUT), 6, "stream.input", "a fusion input cannot have a Stream axis");
    }

    @Test
    void aPipelinedAllgatherWhoseAxesAreNotOutermostIsRefusedWhicheverItsLowering(@TempDir Path dir)
            throws IOException {
        Path file = write(dir, "b", INNER_ALLGATHER);
        for (String allgather : List.of("p2p", "broadcast", "collective")) {
            refusedEverywhere(file, 7, "stream.allgather-axis", "needs the DIDx axis first in its input and the"
                    + " Stream axis first in its output", "allgather=" + allgather);
        }
    }

    @Test
    void aReduceScatterPipelineWithAStreamAxisOnItsInputIsRefusedBeforeItRuns(@TempDir Path dir)
            throws IOException {
        refusedEverywhere(write(dir, "c", STREAM_INPUT_REDUCE_SCATTER), 6, "stream.input",
                "a fusion input cannot have a Stream axis");
    }

    @Test
    void aBroadcastOnAStreamAxisIsRefusedByCheckAsByLower(@TempDir Path dir) throws IOException {
        refusedEverywhere(write(dir, "d", STREAM_BROADCAST), 7, "stream.post-on-stream",
                "PostOnStream cannot be stream-parallelized");
    }

    /**
     * A ReduceScatter on an inner axis is no longer refused: ReorderShardedAxis permutes the scattered axis out as
     * nvFuser does (property.FoundByPropertyTest.reduceScatterOnAnInnerAxis validates it).
     */
    @Test
    void aReduceScatterOnAnInnerAxisIsLoweredAsNvFuserDoes() throws Exception {
        var loaded = Engine.load(new FusionSource.Text(
                INNER_REDUCE_SCATTER, "rs.fusion"), 2, Map.of());
        String p = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, 0));
        assertTrue(p.contains("type=ReduceScatter") && p.contains("Set.Permute"), p);
    }

    /** isInnerResharding counts only axes that hold data: a size-1 broadcast axis in front is not in the way. */
    @Test
    void aBroadcastAxisBeforeTheScatteredAxisDoesNotMakeItInner(@TempDir Path dir) throws IOException {
        Path file = write(dir, "rsb", INNER_REDUCE_SCATTER
                .replace("[\"M\", {\"extent\": \"D\", \"parallel\": \"DIDx\"}, \"D\"]",
                        "[{\"extent\": 1, \"iter\": \"broadcast\"}, {\"extent\": \"D\", \"parallel\": \"DIDx\"}, \"D\", \"M\"]")
                .replace("[\"M\", {\"extent\": \"D\", \"iter\": \"reduction\"}, {\"extent\": \"D\", \"parallel\": \"DIDx\"}]",
                        "[{\"extent\": 1, \"iter\": \"broadcast\"}, {\"extent\": \"D\", \"iter\": \"reduction\"},"
                                + " {\"extent\": \"D\", \"parallel\": \"DIDx\"}, \"M\"]"));
        CliRun r = CliRun.of("run", file.toString(), "--backend", "cpu", "--devices", "4", "--validate");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("validation: PASS"), r.out());
    }

    @Test
    void aScatterBetweenDisjointMeshesHasNoRoot(@TempDir Path dir) throws IOException {
        refusedEverywhere(write(dir, "s", SCATTER_NO_ROOT), 7, "sharding.scatter-root",
                "needs a device in both meshes to be its root");
    }

    /**
     * The pipelined allgather stays in one mesh; the file's check sees a set, the lowering also the set it puts
     * in front of a matmul (this run used to wait forever), named at the matmul's output.
     */
    @Test
    void aPipelinedAllgatherAcrossMeshesInFrontOfAMatmulIsRefused(@TempDir Path dir) throws IOException {
        refusedEverywhere(write(dir, "m", MATMUL_STREAM_ACROSS_MESHES), 8, "mesh.stream-allgather",
                "the pipelined allgather stays in one mesh");
    }

    /** What only another rank refuses is refused too: device 3 alone takes part in the Stream-parallel broadcast. */
    @Test
    void aRefusalOnARankOtherThanThePrintedOneIsNotMissed(@TempDir Path dir) throws IOException {
        Path file = write(dir, "r3", STREAM_BROADCAST.replace("\"axes\": [\"S\", \"M\"]}",
                "\"axes\": [\"S\", \"M\"], \"mesh\": [3]}").replace("\"M\"]}\n", "\"M\"], \"mesh\": [3]}\n"));
        refusedEverywhere(file, 7, "stream.post-on-stream", "PostOnStream cannot be stream-parallelized");
    }
}
