package org.hostir.studio.tests.property;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * What {@link LoweredImpliesCorrectTest} found, shrunk, kept as regressions: the wrong answers validate now, with
 * the program shape nvFuser gives them; the run-time failures of programs that lowered are refused before running,
 * at the file line of the tensor they are about; refusals about tensors the lowering made name a file line.
 */
class FoundByPropertyTest {
    private static FusionSpec spec(int devices, List<FusionSpec.Tensor> tensors, List<FusionSpec.Op> ops,
                                   List<String> outputs) {
        return new FusionSpec(0, devices, tensors, ops, List.of("x"), outputs, Map.of());
    }

    private static FusionSpec spec(int devices, List<FusionSpec.Tensor> tensors, List<FusionSpec.Op> ops,
                                   List<String> inputs, List<String> outputs, Map<String, String> options) {
        return new FusionSpec(0, devices, tensors, ops, inputs, outputs, options);
    }

    private static FusionSpec.Axis axis(int extent, String iter, String parallel) {
        return new FusionSpec.Axis(extent, iter, parallel);
    }

    private static String lowered(FusionSpec s, int rank) throws Exception {
        LoadedFusion loaded = Engine.load(new FusionSource.Text(s.text(), "found.fusion"), s.devices(), Map.of());
        return HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, rank));
    }

    /**
     * A reduce-scatter whose scattered axis is not outermost ({@code [2, DIDx 2, 2] -> [2, r2, DIDx 2]}) gave a
     * wrong answer: the collective scattered along the outermost axis. nvFuser's ReorderShardedAxisPass permutes the
     * scattered axis out first (its own comment's example); so does ours now.
     */
    @Test
    void reduceScatterOnAnInnerAxis() throws Exception {
        List<Integer> mesh = List.of(1, 0);
        FusionSpec s = spec(2, List.of(
                new FusionSpec.Tensor("x", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "DIDx"),
                        axis(2, "iteration", "Serial")), mesh),
                new FusionSpec.Tensor("y", List.of(axis(2, "iteration", "Serial"), axis(2, "reduction", "Serial"),
                        axis(2, "iteration", "DIDx")), mesh)),
                List.of(new FusionSpec.Op("sum", List.of("x"), "y", "\"axes\": [1]")), List.of("y"));
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
        String p = lowered(s, 0);
        assertTrue(p.indexOf("Set.Permute") < p.indexOf("type=ReduceScatter")
                && p.lastIndexOf("Set.Permute") > p.indexOf("type=ReduceScatter"), p);
    }

    /**
     * {@code y[rS, Stream, i] = sum(x)}, then {@code z[i, Stream] = set(y)}: the two Stream axes have the same extent
     * but are different dimensions (y's Stream axis is z's first axis). Merged into one loop, z was sliced along
     * the wrong axis. nvFuser merges only when the axes are mapped (canMergeWithPreviousForLoop): two loops.
     */
    @Test
    void streamLoopsMergeOnlyOverMappedAxes() throws Exception {
        FusionSpec s = spec(1, List.of(
                new FusionSpec.Tensor("x", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "Serial"),
                        axis(2, "iteration", "Serial")), null),
                new FusionSpec.Tensor("y", List.of(axis(2, "reduction", "Serial"), axis(2, "iteration", "Stream"),
                        axis(2, "iteration", "Serial")), null),
                new FusionSpec.Tensor("z", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "Stream")),
                        null)),
                List.of(new FusionSpec.Op("sum", List.of("x"), "y", "\"axes\": [0]"),
                        new FusionSpec.Op("set", List.of("y"), "z", "")), List.of("z"));
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
        String p = lowered(s, 0);
        assertEquals(4, p.lines().filter(l -> l.startsWith("  FOR StreamIdx")).count(), p);
    }

    /**
     * {@code y[rS, Stream, i] = sum(x[i, i, DIDx])}: lowering decomposes it into an allgather of x inside the stream
     * loop, whose slice {@code [i, DIDx]} has its gathered axis inner; the collective gathered the outer one (a wrong
     * answer). The gathered axis is now permuted out and back inside the loop too (ReorderShardedAxisPass, branch
     * conf-comm; this branch had refused it before the merge).
     */
    @Test
    void anInnerGatherInsideAStreamLoopValidates() {
        List<Integer> mesh = List.of(0, 1);
        FusionSpec s = spec(2, List.of(
                new FusionSpec.Tensor("x", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "Serial"),
                        axis(2, "iteration", "DIDx")), mesh),
                new FusionSpec.Tensor("y", List.of(axis(2, "reduction", "Serial"), axis(2, "iteration", "Stream"),
                        axis(2, "iteration", "Serial")), mesh)),
                List.of(new FusionSpec.Op("sum", List.of("x"), "y", "\"axes\": [0]")), List.of("y"));
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
    }

    /**
     * {@code y[r2, 2, DIDx 2] = sum(x)} on {0 1}, then {@code z = set(y)} on {0}: a gather whose input keeps a
     * reduction axis in front of its DIDx axis. The permute around it indexed all axes instead of the run-time ones
     * and lowering crashed (ArrayIndexOutOfBoundsException, after the merge of conf-comm's in-loop permute).
     */
    @Test
    void aGatherFromATensorWithAReductionAxisValidates() {
        FusionSpec s = spec(2, List.of(
                new FusionSpec.Tensor("x", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "Serial"),
                        axis(2, "iteration", "Serial")), List.of(0)),
                new FusionSpec.Tensor("y", List.of(axis(2, "reduction", "Serial"), axis(2, "iteration", "Serial"),
                        axis(2, "iteration", "DIDx")), List.of(0, 1)),
                new FusionSpec.Tensor("z", List.of(axis(2, "iteration", "Serial"), axis(2, "iteration", "Serial")),
                        List.of(0))),
                List.of(new FusionSpec.Op("sum", List.of("x"), "y", "\"axes\": [0]"),
                        new FusionSpec.Op("set", List.of("y"), "z", "")), List.of("z"));
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
    }

    private static List<Integer> mesh(int devices) {
        return IntStream.range(0, devices).boxed().toList();
    }

    private static FusionSpec.Tensor tensor(String name, List<Integer> mesh, FusionSpec.Axis... axes) {
        return new FusionSpec.Tensor(name, List.of(axes), mesh);
    }

    /** Refused by lowering with {@code rule}, at the line of the file tensor named (the text has one per line). */
    private static void refusedAt(FusionSpec s, String rule, String tensor) {
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.REFUSED_BY_LOWERING, o.kind(), o.detail());
        assertEquals(rule, o.rule(), o.detail());
        int line = s.text().lines().toList().indexOf(s.text().lines()
                .filter(l -> l.contains("{\"name\": \"" + tensor + "\"")).findFirst().orElseThrow()) + 1;
        assertTrue(o.detail().startsWith("error: generated.fusion:" + line + ": "), line + ": " + o.detail());
    }

    /**
     * {@code y[Stream 3, DIDx 3] = set(x[DIDx 3, 3])}: the pipelined allgather that also shards another axis lowered
     * and then failed at run time ({@code copy of [3] into [1]}, or a collective delivering 3 elements into 1),
     * whichever allgather form (19 + 5 of the 26 run-time failures). nvFuser's processForLoopBodies handles only
     * {@code [DIDx(i0), ...] -> [Stream(i0), ...]}, the rest unchanged: refused now, at y's line.
     */
    @Test
    void aPipelinedAllgatherThatAlsoShardsAnotherAxisIsRefused() {
        for (String form : List.of("p2p", "broadcast", "collective")) {
            FusionSpec s = spec(3, List.of(
                    tensor("x", mesh(3), axis(3, "iteration", "DIDx"), axis(3, "iteration", "Serial")),
                    tensor("y", mesh(3), axis(3, "iteration", "Stream"), axis(3, "iteration", "DIDx"))),
                    List.of(new FusionSpec.Op("set", List.of("x"), "y", "")), List.of("x"), List.of("y"),
                    Map.of("allgather", form));
            refusedAt(s, "stream.allgather-resharded", "y");
        }
    }

    /**
     * {@code y[DIDx 4, Stream* 4] = set(x)}, {@code z[Stream* 4, DIDx 4] = add(y, y)} (Stream* made by swizzle1d; seed
     * 15 of 2000, branch rsp2p): the set the lowering puts in front of the add swaps DIDx and Stream as the P2P
     * ReduceScatter's does, was lowered to it and gave a wrong answer. A swizzled Stream axis is nvFuser's
     * CollectivePermute path, not processForLoopBodies' P2P ReduceScatter: refused again as before.
     */
    @Test
    void aSetBetweenSwizzledStreamAxesIsNotTheP2pReduceScatter() {
        FusionSpec s = spec(4, List.of(
                tensor("x", mesh(4), axis(4, "iteration", "DIDx"), axis(4, "iteration", "Serial")),
                tensor("y", mesh(4), axis(4, "iteration", "DIDx"), axis(4, "iteration", FusionSpec.SWIZZLED_STREAM)),
                tensor("z", mesh(4), axis(4, "iteration", FusionSpec.SWIZZLED_STREAM), axis(4, "iteration", "DIDx"))),
                List.of(new FusionSpec.Op("set", List.of("x"), "y", ""), new FusionSpec.Op("add", List.of("y", "y"),
                        "z", "")), List.of("x"), List.of("z"), Map.of());
        refusedAt(s, "stream.allgather-resharded", "z");
    }

    /**
     * {@code y[Stream 2, DIDx 2, r3] = sum(x[DIDx 2, 2, 3])}: the same, through a set the lowering inserts
     * ({@code copy of [2, 3] into [1, 3]} at run time before); the refusal names y, the file's tensor. The set is the
     * one after the sum, which is computed sharded as x, as nvFuser's insertReshardingSetsAfter does for an op of one
     * input (csrc/preseg_passes/decompose_reshardings.cpp:156-244 at 81c4b22fd; issue 30 item 9): y is its output.
     */
    @Test
    void theSameThroughASetTheLoweringInsertsIsRefusedAtTheFileTensor() {
        FusionSpec s = spec(2, List.of(
                tensor("x", mesh(2), axis(2, "iteration", "DIDx"), axis(2, "iteration", "Serial"),
                        axis(3, "iteration", "Serial")),
                tensor("y", mesh(2), axis(2, "iteration", "Stream"), axis(2, "iteration", "DIDx"),
                        axis(3, "reduction", "Serial"))),
                List.of(new FusionSpec.Op("sum", List.of("x"), "y", "\"axes\": [2]")), List.of("x"), List.of("y"),
                Map.of());
        refusedAt(s, "stream.allgather-resharded", "y");
        assertTrue(Outcome.of(s).detail().contains(": set y = set("), Outcome.of(s).detail());
    }

    private static FusionSpec p2pBesideAllgather(Map<String, String> options) {
        return spec(2, List.of(
                tensor("x", mesh(2), axis(2, "iteration", "Serial"), axis(2, "iteration", "DIDx")),
                tensor("w", mesh(2), axis(2, "iteration", "DIDx"), axis(2, "iteration", "Serial")),
                tensor("z", mesh(2), axis(2, "iteration", "Stream"), axis(2, "iteration", "Serial"))),
                List.of(new FusionSpec.Op("add", List.of("x", "w"), "z", "")), List.of("x", "w"), List.of("z"),
                options);
    }

    /**
     * {@code z[Stream, i] = add(x[i, DIDx], w[DIDx, i])} with one stream: w's P2P allgather (rank r's iteration i
     * pairs with rank i's iteration r) and x's Allgather (all ranks at one iteration) in one loop stopped making
     * progress. Refused unless every iteration has its own stream; with as many streams as iterations, or the
     * Broadcast form, it validates.
     */
    @Test
    void aP2pAllgatherBesideACollectiveWithTooFewStreamsIsRefused() {
        refusedAt(p2pBesideAllgather(Map.of("numberOfStreams", "1", "allgather", "p2p")),
                "stream.p2p-beside-collective", "z");
        for (Map<String, String> ok : List.of(Map.of("numberOfStreams", "2", "allgather", "p2p"),
                Map.of("numberOfStreams", "1", "allgather", "broadcast"))) {
            Outcome o = Outcome.of(p2pBesideAllgather(ok));
            assertEquals(Outcome.Kind.VALIDATED, o.kind(), ok + ": " + o.detail());
        }
    }

    /**
     * Refusals about tensors the lowering made (197 of 2000 named no line): an add whose input moves its DIDx axis
     * onto another mesh (the set in front of it would be an AllToAll between two meshes; on one mesh it now lowers
     * as AllToAll and validates), and a matmul on a one-device mesh refused on its stream-loop
     * slices. Both are reported at the line of the file tensor the lowering made them for.
     */
    @Test
    void refusalsAboutTensorsTheLoweringMadeNameAFileLine() {
        FusionSpec moved = spec(2, List.of(
                tensor("x", mesh(2), axis(2, "iteration", "DIDx"), axis(2, "iteration", "Serial")),
                tensor("w", List.of(1, 0), axis(2, "iteration", "Serial"), axis(2, "iteration", "DIDx")),
                tensor("z", List.of(1, 0), axis(2, "iteration", "Serial"), axis(2, "iteration", "DIDx"))),
                List.of(new FusionSpec.Op("add", List.of("x", "w"), "z", "")), List.of("x", "w"), List.of("z"),
                Map.of());
        refusedAt(moved, "sharding.alltoall-mesh", "z");
        FusionSpec oneDevice = spec(6, List.of(
                tensor("a", List.of(5), axis(1, "iteration", "Serial"), axis(1, "iteration", "Serial")),
                tensor("b", List.of(5), axis(1, "iteration", "Serial"), axis(1, "iteration", "Serial")),
                tensor("c", List.of(5), axis(1, "iteration", "DIDx"), axis(1, "iteration", "Stream"),
                        axis(1, "reduction", "Serial"))),
                List.of(new FusionSpec.Op("matmul", List.of("a", "b"), "c", "")), List.of("a", "b"), List.of("c"),
                Map.of());
        refusedAt(oneDevice, "sharding.not-lowerable", "c");
    }

    /**
     * {@code y[r2, 2, Stream 2] = sum(x)} on {0}, {@code z[Stream 2, 2] = set(y)} on {1}, x on {1}, one stream (seed
     * 18): rank 1, which does not compute the sum, merged z's Broadcast into the loop of x's by extent although z
     * pipelines over another dimension; rank 0 gave it a loop of its own, and the two stopped making progress. A
     * loop now takes such an op only over an axis mapped to its own (nvFuser's areIdsMapped): two loops on both.
     */
    @Test
    void aLoopTakesAnOpOnlyOverAMappedAxisOnEveryRank() throws Exception {
        FusionSpec s = spec(2, List.of(
                tensor("x", List.of(1), axis(2, "iteration", "Serial"), axis(2, "iteration", "Serial"),
                        axis(2, "iteration", "Serial")),
                tensor("y", List.of(0), axis(2, "reduction", "Serial"), axis(2, "iteration", "Serial"),
                        axis(2, "iteration", "Stream")),
                tensor("z", List.of(1), axis(2, "iteration", "Stream"), axis(2, "iteration", "Serial"))),
                List.of(new FusionSpec.Op("sum", List.of("x"), "y", "\"axes\": [0]"),
                        new FusionSpec.Op("set", List.of("y"), "z", "")), List.of("x"), List.of("z"),
                Map.of("numberOfStreams", "1"));
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
        for (int rank = 0; rank < 2; rank++) {
            String p = lowered(s, rank);
            assertEquals(4, p.lines().filter(l -> l.startsWith("  FOR StreamIdx")).count(), p);
        }
    }

    /**
     * {@code z[1, Stream 2] = add(x, w)} with x and w on {5} and z on {3} (seed 19, while the mapping above was built
     * from each rank's program): rank 5, which does not compute the add, saw x's and w's Broadcasts as unmapped and
     * gave them two loops while rank 3 merged them; the Broadcasts paired up across iterations, a wrong answer. The
     * mapping is the whole fusion's, the same on every rank: one loop everywhere.
     */
    @Test
    void loopsAreTheSameOnARankThatLacksTheOpJoiningThem() throws Exception {
        FusionSpec s = spec(6, List.of(
                tensor("x", List.of(5), axis(1, "iteration", "Serial"), axis(2, "iteration", "Serial")),
                tensor("w", List.of(5), axis(1, "iteration", "Serial"), axis(2, "iteration", "Serial")),
                tensor("z", List.of(3), axis(1, "iteration", "Serial"), axis(2, "iteration", "Stream"))),
                List.of(new FusionSpec.Op("add", List.of("x", "w"), "z", "")), List.of("x", "w"), List.of("z"),
                Map.of());
        Outcome o = Outcome.of(s);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
        for (int rank : List.of(3, 5)) {
            String p = lowered(s, rank);
            assertEquals(2, p.lines().filter(l -> l.startsWith("  FOR StreamIdx")).count(), p);
        }
    }

    /**
     * Found by GeneratedSpaceTest (abs-bfloat16-STREAM-GRID_WIDE): an abs into a Stream axis on the 2 x 3 mesh
     * {{0 1 2} {3 4 5}}, its result gathered by the pipelined allgather after it. The P2P form's peer is the loop
     * index, a device id (nvFuser's processForLoopBodies, csrc/host_ir/pass/stream_parallel_type.cpp:548-552 at
     * 81c4b22fd): ranks 3-5 waited for receives from 0-2, which never sent to them, and the run hung. Refused on a
     * 2-D mesh with sharding.mesh-2d; the collective form (one Allgather within each mesh row) validates.
     */
    @Test
    void aPipelinedAllgatherOnATwoDimensionalMeshIsRefusedUnlessCollective() {
        String text = """
                {"format": "hostir-fusion/2", "name": "stream_2d", "tensors": [
                  {"name": "x", "dtype": "float", "axes": [{"extent": 3, "parallel": "DIDx"}, 4], "mesh": [[0, 1, 2], [3, 4, 5]]},
                  {"name": "y", "dtype": "float", "axes": [{"extent": 3, "parallel": "Stream"}, 4], "mesh": [[0, 1, 2], [3, 4, 5]]}],
                 "ops": [{"op": "abs", "inputs": ["x"], "output": "y"}], "inputs": ["x"], "outputs": ["y"]}
                """;
        for (String form : List.of("p2p", "broadcast")) {
            Outcome o = Outcome.of(text, 6, Map.of("allgather", form), 1);
            assertEquals(Outcome.Kind.REFUSED_BY_LOWERING, o.kind(), form + ": " + o.detail());
            assertEquals("sharding.mesh-2d", o.rule(), o.detail());
            assertTrue(o.detail().startsWith("error: generated.fusion:"), o.detail());
        }
        Outcome collective = Outcome.of(text, 6, Map.of("allgather", "collective"), 1);
        assertEquals(Outcome.Kind.VALIDATED, collective.kind(), collective.detail());
    }

    /**
     * Found by GeneratedSpaceTest's full run (random add_broadcast, seed 30000331, and five more): the broadcast
     * operand {@code w[b1, 4]}, its axis 1 DIDx, added into {@code z[4, 4]} split-sharded on axis 0, to which w's
     * broadcast axis maps. The set in front gave the broadcast axis z's DIDx and its run failed ("1 elements do
     * not split evenly over 4 ranks"). nvFuser maps no broadcast axis when it compares or propagates shardings
     * (mapBroadcast(false), csrc/multidevice/resharding.cpp:230-238, propagation.cpp:87-91 at 81c4b22fd): the set
     * only gathers w's axis 1, and the add validates.
     */
    @Test
    void aBroadcastAxisTakesNoShardingFromTheOutput() {
        String text = """
                {"format": "hostir-fusion/2", "name": "add_broadcast", "tensors": [
                  {"name": "x", "dtype": "int64", "axes": [4, 4], "mesh": [1, 2, 3, 4]},
                  {"name": "w", "dtype": "int64", "axes": [{"iter": "broadcast"}, 4], "mesh": [1, 2, 3, 4], "loop": [{"outer_split": 1, "factor": 4}, {"parallelize": 1, "type": "DIDx"}]},
                  {"name": "z", "dtype": "int64", "axes": [4, 4], "mesh": [1, 2, 3, 4], "loop": [{"outer_split": 0, "factor": 4}, {"parallelize": 0, "type": "DIDx"}]}],
                 "ops": [{"op": "add", "inputs": ["x", "w"], "output": "z"}], "inputs": ["x", "w"], "outputs": ["z"]}
                """;
        for (String form : List.of("collective", "p2p")) {
            Outcome o = Outcome.of(text, 5, Map.of("allgather", form), 30000331L);
            assertEquals(Outcome.Kind.VALIDATED, o.kind(), form + ": " + o.detail());
        }
        // the same with z's DIDx on its logical axis 0 (random div_broadcast, seed 30002007)
        String logical = text.replace(", \"loop\": [{\"outer_split\": 0, \"factor\": 4}, {\"parallelize\": 0,"
                + " \"type\": \"DIDx\"}]}", "}").replace("\"axes\": [4, 4], \"mesh\": [1, 2, 3, 4]}],",
                "\"axes\": [{\"extent\": 4, \"parallel\": \"DIDx\"}, 4], \"mesh\": [1, 2, 3, 4]}],");
        assertTrue(logical.contains("\"parallel\": \"DIDx\"}, 4]") && !logical.contains("\"outer_split\": 0"),
                logical);
        Outcome o = Outcome.of(logical, 5, Map.of(), 30002007L);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
    }

    /**
     * Found by GeneratedSpaceTest's full run (random mul_broadcast+sigmoid, seed 30002027): {@code z = mul(x, w)}
     * with z's axis 0 in Stream chunks and w's axis 0 a broadcast. The chunk loop sliced w's broadcast axis ("chunk
     * 1 of 2 outside T1's axis of size 1"); nvFuser maps the broadcast axis to the loop's too (findStreamAxisIndex
     * through the BROADCAST graph, csrc/host_ir/pass/stream_parallel_type.cpp:60-66, 91-115 at 81c4b22fd), which
     * would select past its extent. The broadcast operand is read whole in every iteration.
     */
    @Test
    void aBroadcastOperandIsReadWholeInAStreamChunkLoop() {
        String text = """
                {"format": "hostir-fusion/2", "name": "mul_broadcast", "tensors": [
                  {"name": "x", "dtype": "float", "axes": [4, 4], "mesh": [1, 0], "loop": [{"outer_split": 0, "factor": 2}, {"parallelize": 0, "type": "DIDx"}]},
                  {"name": "w", "dtype": "float", "axes": [{"iter": "broadcast"}, 4], "mesh": [1, 0], "loop": [{"outer_split": 1, "factor": 2}, {"parallelize": 1, "type": "DIDx"}]},
                  {"name": "z", "dtype": "float", "axes": [4, 4], "mesh": [1, 0], "loop": [{"outer_split": 0, "factor": 2}, {"parallelize": 0, "type": "Stream"}]},
                  {"name": "t_y", "dtype": "float", "axes": [4, 4], "mesh": [1, 0]}],
                 "ops": [{"op": "mul", "inputs": ["x", "w"], "output": "z"}, {"op": "sigmoid", "inputs": ["z"], "output": "t_y"}],
                 "inputs": ["x", "w"], "outputs": ["t_y"]}
                """;
        Outcome o = Outcome.of(text, 3, Map.of(), 30002027L);
        assertEquals(Outcome.Kind.VALIDATED, o.kind(), o.detail());
    }

    /**
     * Found by GeneratedSpaceTest's full run (random reshape, seed 30001850): {@code y[1, Stream 4] = reshape(x[1,
     * 2, 2])}, the Stream axis merging x's axes 1 and 2. The loop reshaped the whole input into one slice, an
     * internal error ("cannot reshape [1, 2, 2] (4 elements) to [1]"). nvFuser runs a reshape in a kernel, where
     * groupStreamParallelRegions refuses a Stream axis (HostIrLower::isLowerableAsStandaloneHostOp,
     * csrc/host_ir/lower.cpp:31-56 at 81c4b22fd): refused with stream.post-on-stream at y's line.
     */
    @Test
    void aReshapeMergingAxesIntoAStreamAxisIsRefused() {
        String text = """
                {"format": "hostir-fusion/1", "name": "reshape_stream", "tensors": [
                  {"name": "x", "dtype": "bfloat16", "axes": [1, 2, 2], "mesh": [0, 2]},
                  {"name": "y", "dtype": "bfloat16", "axes": [1, {"extent": 4, "parallel": "Stream"}], "mesh": [0, 2]}],
                 "ops": [
                  {"op": "reshape", "inputs": ["x"], "output": "y"}], "inputs": ["x"], "outputs": ["y"]}
                """;
        Outcome o = Outcome.of(text, 3, Map.of(), 30001850L);
        assertEquals(Outcome.Kind.REFUSED_BY_LOWERING, o.kind(), o.detail());
        assertEquals("stream.post-on-stream", o.rule(), o.detail());
        assertTrue(o.detail().startsWith("error: generated.fusion:3: "), o.detail()); // y, the Stream tensor
    }

    /** NumpyOracleTest's random broadcast_first, seed 210000196: y[b, 3, 4], axis 1 Stream, axis 2's outer split DIDx. */
    static final String BROADCAST_FIRST_210000196 = """
            {"format": "hostir-fusion/2", "name": "broadcast_first", "tensors": [
              {"name": "x", "dtype": "float", "axes": [3, 4], "mesh": [1, 0]},
              {"name": "y", "dtype": "float", "axes": [{"iter": "broadcast"}, 3, 4], "mesh": [1, 0], "loop": [{"outer_split": 2, "factor": 2}, {"parallelize": 2, "type": "DIDx"}, {"parallelize": 1, "type": "Stream"}]}],
             "ops": [{"op": "broadcast", "inputs": ["x"], "output": "y", "flags": [true, false, false]}],
             "inputs": ["x"], "outputs": ["y"]}
            """;

    /**
     * Found by NumpyOracleTest (random broadcast_first, seed 210000196): its run failed ("rank 1 receives into 2
     * elements, its chunk has 6") because the test ran the command line's default generation (2026-04), not the
     * seeds'. Under 2025-06 the case is refused as on main (85474f6): the broadcast is a kernel, which a Stream
     * loop does not take (stream.post-on-stream), with either option set the oracle drew.
     */
    @Test
    void aBroadcastIntoAStreamAndDeviceShardedOutputIsRefusedUnderTheSeedsGeneration() {
        for (Map<String, String> options : List.of(Map.of("numberOfStreams", "3", "offsetStreamIndexingByRank", "true"),
                Map.of("numberOfStreams", "2", "insertDeallocations", "true"))) {
            Map<String, String> seeds = new java.util.HashMap<>(options);
            seeds.put("nvfuser", "2025-06");
            Outcome o = Outcome.of(BROADCAST_FIRST_210000196, 2, seeds, 210000196L);
            assertEquals(Outcome.Kind.REFUSED_BY_LOWERING, o.kind(), o.detail());
            assertEquals("stream.post-on-stream", o.rule(), o.detail());
        }
    }
}
