package org.hostir.studio.tests.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.ShardingReport;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.lower.PropagateShardingsPass;
import org.hostir.studio.lower.Snapshot;
import org.hostir.studio.rules.ShardingPropagation;
import org.hostir.studio.rules.ShardingPropagation.Reach;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 34 item 1: sharding propagation as nvFuser's PropagateShardingsPass does it
 * (csrc/preseg_passes/propagate_shardings.cpp and csrc/multidevice/propagation.cpp at 81c4b22fd, cited per test),
 * on small fusions written inputs-only; its place in the pipeline, its provenance and its conflicts.
 */
class ShardingPropagationTest {
    private static final String SPLIT0 = "\"loop\": [{\"outer_split\": 0, \"factor\": \"D\"}, {\"parallelize\": 0,"
            + " \"type\": \"DIDx\"}]";
    private static final String SPLIT1 = "\"loop\": [{\"outer_split\": 1, \"factor\": \"D\"}, {\"parallelize\": 1,"
            + " \"type\": \"DIDx\"}]";

    /** A hostir-fusion/2 file of these tensors and ops ({@code 'x'} for {@code "x"}). */
    static String fusion(String symbols, List<String> tensors, List<String> ops, String inputs, String outputs) {
        return ("{\"format\": \"hostir-fusion/2\", \"name\": \"p\", \"symbols\": " + symbols + ",\n\"tensors\": [\n"
                + String.join(",\n", tensors) + "],\n\"ops\": [\n" + String.join(",\n", ops) + "],\n\"inputs\": "
                + inputs + ", \"outputs\": " + outputs + "}\n").replace('\'', '"');
    }

    static LoadedFusion load(String text) throws FusionFileException { return FusionLoader.load(text, "p.fusion", 2); }

    static TensorView tensor(LoadedFusion loaded, String label) {
        return loaded.fusion().tensors().stream().filter(t -> t.label().equals(label)).findFirst().orElseThrow();
    }

    /** The parallel type of each logical axis (the loop axis derived from it, LoopProjection). */
    static List<ParallelType> types(TensorView t) { return t.axes().stream().map(a -> a.parallelType()).toList(); }

    /**
     * A linear's weight is its first reference, before the input (getOrderedReferenceInputs,
     * propagate_shardings.cpp:49-58): with both sharded by DIDx, the output takes the weight's N, and the input's M
     * finds DIDx taken (getParallelTypesToPropagate, :71-99; the comment at :135-140 is this case).
     */
    @Test
    void linearTakesTheWeightsShardingFirst() throws Exception {
        LoadedFusion l = load(fusion("{'M': 4, 'K': 6, 'N': 8}", List.of(
                "{'name': 'inp', 'dtype': 'float', 'axes': ['M', 'K'], 'mesh': 'all', " + SPLIT0 + "}",
                "{'name': 'w', 'dtype': 'float', 'axes': ['N', 'K'], 'mesh': 'all', " + SPLIT0 + "}",
                "{'name': 'out', 'dtype': 'float', 'axes': ['M', 'N', {'extent': 'K', 'iter': 'reduction'}]}"),
                List.of("{'op': 'linear', 'inputs': ['inp', 'w'], 'output': 'out'}"), "['inp', 'w']", "['out']"));
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.DIDX, ParallelType.SERIAL), types(tensor(l, "out")));
        assertEquals(List.of("out (T2) mesh {0 1}, from w (T1) through linear",
                "out (T2) axis 1 DIDx (outer split by 2), from w (T1) through linear"), Engine.shardings(l).lines());
    }

    /** A matmul's B before its A (propagate_shardings.cpp:60-63). */
    @Test
    void matmulTakesBFirst() throws Exception {
        LoadedFusion l = load(fusion("{'M': 4, 'K': 6, 'N': 8}", List.of(
                "{'name': 'a', 'dtype': 'float', 'axes': ['M', 'K'], 'mesh': 'all', " + SPLIT0 + "}",
                "{'name': 'b', 'dtype': 'float', 'axes': ['K', 'N'], 'mesh': 'all', " + SPLIT1 + "}",
                "{'name': 'c', 'dtype': 'float', 'axes': ['M', 'N', {'extent': 'K', 'iter': 'reduction'}]}"),
                List.of("{'op': 'matmul', 'inputs': ['a', 'b'], 'output': 'c'}"), "['a', 'b']", "['c']"));
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.DIDX, ParallelType.SERIAL), types(tensor(l, "c")));
    }

    /**
     * Other ops take their inputs by device and Stream loop axes, most first, ties in input order
     * (sortTvsByParallelDims, propagate_shardings.cpp:21-42, a stable sort).
     */
    @Test
    void otherOpsTakeTheMostParallelInputFirstAndTiesInOrder() throws Exception {
        LoadedFusion most = load(fusion("{'M': 4, 'N': 8}", List.of(
                "{'name': 'x', 'dtype': 'float', 'axes': ['M', 'N'], 'mesh': 'all'}",
                "{'name': 'y', 'dtype': 'float', 'axes': ['M', 'N'], 'mesh': 'all', " + SPLIT1 + "}",
                "{'name': 'z', 'dtype': 'float', 'axes': ['M', 'N']}"),
                List.of("{'op': 'add', 'inputs': ['x', 'y'], 'output': 'z'}"), "['x', 'y']", "['z']"));
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.DIDX), types(tensor(most, "z")));
        LoadedFusion tie = load(fusion("{'M': 4, 'N': 8}", List.of(
                "{'name': 'x', 'dtype': 'float', 'axes': ['M', 'N'], 'mesh': 'all', " + SPLIT0 + "}",
                "{'name': 'y', 'dtype': 'float', 'axes': ['M', 'N'], 'mesh': 'all', " + SPLIT1 + "}",
                "{'name': 'z', 'dtype': 'float', 'axes': ['M', 'N']}"),
                List.of("{'op': 'add', 'inputs': ['x', 'y'], 'output': 'z'}"), "['x', 'y']", "['z']"));
        assertEquals(List.of(ParallelType.DIDX, ParallelType.SERIAL), types(tensor(tie, "z")));
        assertTrue(Engine.shardings(tie).lines().contains("z (T2) axis 0 DIDx (outer split by 2), from x (T0) through add"));
    }

    /**
     * A reduction over a sharded axis carries the DID on its reduction axis (PairwiseLogicalDomainMap maps a
     * consumer's reduction axis to the producer's, propagation.cpp:81-93), which lowers to an Allreduce; a
     * logical DID axis stays logical, a device split is replayed as a split (transformLoopDomain, :199-241).
     */
    @Test
    void reductionsCarryTheDeviceAxisAndSplitsAreReplayed() throws Exception {
        LoadedFusion split = load(fusion("{'M': 4, 'K': 6}", List.of(
                "{'name': 'x', 'dtype': 'float', 'axes': ['M', 'K'], 'mesh': 'all', " + SPLIT1 + "}",
                "{'name': 'y', 'dtype': 'float', 'axes': ['M', {'extent': 'K', 'iter': 'reduction'}]}"),
                List.of("{'op': 'sum', 'inputs': ['x'], 'output': 'y', 'axes': [1]}"), "['x']", "['y']"));
        TensorView y = tensor(split, "y");
        assertEquals(ParallelType.DIDX, y.axis(1).parallelType());
        assertTrue(y.axis(1).isReduction());
        assertEquals(LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT, y.loop().source(1).derivation());
        var program = Engine.lowerRank(split, SeedGeneration.options(Map.of()), 0);
        assertTrue(program.allNodes().stream().anyMatch(n -> n instanceof Communication c
                && c.type() == CommunicationType.ALLREDUCE), "an Allreduce: " + program.allNodes());
        LoadedFusion logical = load(fusion("{'M': 4}", List.of(
                "{'name': 'x', 'dtype': 'float', 'axes': [{'extent': 'D', 'parallel': 'DIDx'}, 'M'], 'mesh': 'all'}",
                "{'name': 'y', 'dtype': 'float', 'axes': ['D', 'M']}"),
                List.of("{'op': 'relu', 'inputs': ['x'], 'output': 'y'}"), "['x']", "['y']"));
        assertEquals(List.of(ParallelType.DIDX, ParallelType.SERIAL), types(tensor(logical, "y")));
        assertNull(tensor(logical, "y").loop(), "a logical DID axis is given as it is, no split");
    }

    /** A broadcast axis takes no sharding from a non-broadcast one ({@code mapBroadcast(false)}, propagation.cpp:86-92). */
    @Test
    void broadcastAxesCarryNone() throws Exception {
        LoadedFusion l = load(fusion("{'M': 4, 'N': 8}", List.of(
                "{'name': 'x', 'dtype': 'float', 'axes': ['M'], 'mesh': 'all'}",
                "{'name': 'y', 'dtype': 'float', 'axes': ['M', 'N'], 'mesh': 'all', " + SPLIT1 + "}",
                "{'name': 'b', 'dtype': 'float', 'axes': ['M', {'iter': 'broadcast'}]}",
                "{'name': 'c', 'dtype': 'float', 'axes': ['M', 'N']}"),
                List.of("{'op': 'broadcast', 'inputs': ['x'], 'output': 'b', 'flags': [false, true]}",
                        "{'op': 'add', 'inputs': ['b', 'y'], 'output': 'c'}"), "['x', 'y']", "['c']"));
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.DIDX), types(tensor(l, "c")));
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.SERIAL), types(tensor(l, "b")),
                "c's DIDx axis meets b's broadcast axis: not mapped, backward included");
    }

    /**
     * Backward after forward (propagate_shardings.cpp:157-187): a tensor no input sharded takes the sharding of
     * its consumer's output; a fusion input left unstated takes the mesh only (here not even Stream, see the
     * conformance notes).
     */
    @Test
    void backwardFromConsumersAndInputsTakeTheMeshOnly() throws Exception {
        LoadedFusion l = load(fusion("{'M': 4, 'N': 8}", List.of(
                "{'name': 'x', 'dtype': 'float', 'axes': ['M', 'N'], 'mesh': 'all', " + SPLIT0 + "}",
                "{'name': 'u', 'dtype': 'float', 'axes': ['M', 'N']}",
                "{'name': 'v', 'dtype': 'float', 'axes': ['M', 'N']}",
                "{'name': 'out', 'dtype': 'float', 'axes': ['M', 'N']}"),
                List.of("{'op': 'relu', 'inputs': ['u'], 'output': 'v'}",
                        "{'op': 'add', 'inputs': ['v', 'x'], 'output': 'out'}"), "['x', 'u']", "['out']"));
        assertEquals(List.of(ParallelType.DIDX, ParallelType.SERIAL), types(tensor(l, "v")));
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.SERIAL), types(tensor(l, "u")));
        ShardingReport r = Engine.shardings(l);
        assertTrue(r.lines().contains("v (T2) axis 0 DIDx (outer split by 2), from out (T3) through add, backward"),
                r.lines().toString());
        ShardingReport.TensorSharding u = r.tensors().get(1);
        assertEquals(ShardingReport.Origin.INFERRED, u.meshOrigin());
        assertEquals(ShardingReport.Origin.UNSTATED, u.axes().get(0).origin());
    }

    /**
     * Written shardings are never overwritten: a tensor with a mesh is the user's (propagate_shardings.cpp:118-125,
     * 143-145), and a parallel type written on a tensor without one stays (:71-99): DIDx is not given twice.
     */
    @Test
    void writtenShardingsStay() throws Exception {
        LoadedFusion l = load(fusion("{'M': 4, 'N': 8}", List.of(
                "{'name': 'x', 'dtype': 'float', 'axes': ['M', 'N'], 'mesh': 'all', " + SPLIT0 + "}",
                "{'name': 'y', 'dtype': 'float', 'axes': ['M', 'N'], 'mesh': 'all'}",
                "{'name': 'z', 'dtype': 'float', 'axes': ['M', 'N'], " + SPLIT1 + "}"),
                List.of("{'op': 'relu', 'inputs': ['x'], 'output': 'y'}",
                        "{'op': 'neg', 'inputs': ['x'], 'output': 'z'}"), "['x']", "['y', 'z']"));
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.SERIAL), types(tensor(l, "y")), "y's mesh makes it the user's");
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.DIDX), types(tensor(l, "z")));
        ShardingReport.TensorSharding z = Engine.shardings(l).tensors().get(2);
        assertEquals(ShardingReport.Origin.INFERRED, z.meshOrigin());
        assertEquals(ShardingReport.Origin.WRITTEN, z.axes().get(1).origin());
        assertEquals(ShardingReport.Origin.UNSTATED, z.axes().get(0).origin());
        assertEquals("from x (T0) through neg", z.meshProvenance());
    }

    /** A tensor no op connects to a mesh is a conflict at its line: check, the loader, the editor's API, the pass. */
    @Test
    void aTensorNoMeshReachesIsRefusedAtItsLine() throws Exception {
        String text = fusion("{'M': 4}", List.of(
                "{'name': 'a', 'dtype': 'float', 'axes': ['M'], 'mesh': 'all'}",
                "{'name': 'b', 'dtype': 'float', 'axes': ['M']}",
                "{'name': 'c', 'dtype': 'float', 'axes': ['M']}",
                "{'name': 'd', 'dtype': 'float', 'axes': ['M']}"),
                List.of("{'op': 'neg', 'inputs': ['a'], 'output': 'b'}", "{'op': 'neg', 'inputs': ['c'], 'output': 'd'}"),
                "['a', 'c']", "['b', 'd']");
        FusionFileException e = assertThrows(FusionFileException.class, () -> load(text));
        List<Diagnostic> d = e.diagnostics();
        assertEquals(List.of("propagation.no-mesh", "propagation.no-mesh"), d.stream().map(Diagnostic::rule).toList());
        assertEquals(List.of(5, 6), d.stream().map(Diagnostic::line).toList(), "c and d, at their lines");
        assertTrue(d.getFirst().format().startsWith("error: p.fusion:5: $.tensors[2]: c (T2) has no device mesh"),
                d.getFirst().format());
        ShardingReport r = Engine.shardings(new FusionSource.Text(text, "p.fusion"), 2);
        assertEquals(d, r.diagnostics());
        assertTrue(r.tensors().isEmpty());
    }

    /**
     * What the inferred shardings break is refused at the line of the tensor they were inferred for, by the loader
     * (so check, run and the editor's API alike): a Stream axis reduced by a sum gives the sum's reduction axis
     * Stream (the consumer's reduction axis maps to the producer's, propagation.cpp:81-93), which
     * {@code stream.reduction} refuses.
     */
    @Test
    void whatTheInferredShardingsBreakIsRefusedAtTheirTensor() {
        String text = fusion("{'M': 4, 'N': 8}", List.of(
                "{'name': 'x', 'dtype': 'float', 'axes': ['D', 'N'], 'mesh': 'all'}",
                "{'name': 'y', 'dtype': 'float', 'axes': [{'extent': 'D', 'parallel': 'Stream'}, 'N'], 'mesh': 'all'}",
                "{'name': 'z', 'dtype': 'float', 'axes': [{'extent': 'D', 'iter': 'reduction'}, 'N']}"),
                List.of("{'op': 'set', 'inputs': ['x'], 'output': 'y'}",
                        "{'op': 'sum', 'inputs': ['y'], 'output': 'z', 'axes': [0]}"), "['x']", "['z']");
        FusionFileException e = assertThrows(FusionFileException.class, () -> load(text));
        Diagnostic d = e.diagnostics().getFirst();
        assertEquals("stream.reduction", d.rule(), d.format());
        assertEquals(5, d.line(), "z's line: " + d.format());
        assertEquals(List.of(d), Engine.shardings(new FusionSource.Text(text, "p.fusion"), 2).diagnostics());
    }

    /** The pass refuses what the loader refuses, for a fusion built in memory too, naming the tensor. */
    @Test
    void thePassRefusesAFusionBuiltInMemory() throws Exception {
        LoadedFusion ok = load(fusion("{'M': 4}", List.of(
                "{'name': 'a', 'dtype': 'float', 'axes': ['M'], 'mesh': 'all'}",
                "{'name': 'b', 'dtype': 'float', 'axes': ['M']}"),
                List.of("{'op': 'neg', 'inputs': ['a'], 'output': 'b'}"), "['a']", "['b']"));
        var fusion = ok.written();
        var lonely = new TensorView(9, "lonely", fusion.inputs().getFirst().dtype(),
                fusion.inputs().getFirst().memoryType(), fusion.inputs().getFirst().axes(), null);
        var broken = new Fusion(fusion.name(), List.of(fusion.inputs().getFirst(), lonely),
                fusion.ops(), fusion.outputs(), fusion.symbols(), fusion.counters());
        LoweringException e = assertThrows(LoweringException.class, () -> new PropagateShardingsPass().run(broken,
                null));
        assertEquals("propagation.no-mesh", e.errors().getFirst().rule());
        assertEquals(9, ((Subject.Tensor) e.errors().getFirst().subject()).index());
    }

    /**
     * PropagateShardings is the first pass of every pipeline, with its own snapshot: the Lowering view shows the
     * inferred sharding there, and a fusion that writes every mesh passes through unchanged.
     */
    @Test
    void thePassIsFirstWithItsOwnSnapshot() throws Exception {
        for (Pipeline p : List.of(Pipeline.standard(), Pipeline.hostIrLowering(), Pipeline.multiDeviceExecutor())) {
            assertEquals(PropagateShardingsPass.NAME, p.passes().getFirst().name());
        }
        LoadedFusion l = Engine.load(new FusionSource.File(TestPaths.repo("examples", "propagation",
                "row_parallel_linear.fusion"), "row_parallel_linear.fusion"), 2, Map.of());
        PassTrace trace = Engine.lower(l, SeedGeneration.options(Map.of()), List.of(0));
        PassTrace.Step first = trace.rank(0).steps().getFirst();
        assertEquals(PropagateShardingsPass.NAME, first.pass());
        assertTrue(first.changed());
        TensorView out = ((Snapshot.OfFusion) first.after()).fusion().outputs().getFirst();
        assertEquals(ParallelType.DIDX, out.axis(3).parallelType());
        assertNull(((Snapshot.OfFusion) trace.rank(0).input()).fusion().outputs().getFirst().mesh(),
                "the input snapshot is the fusion as written");
        LoadedFusion written = Engine.load(new FusionSource.File(TestPaths.repo("examples", "conformance",
                "row_parallel_linear.fusion"), "c.fusion"), 2, Map.of());
        assertFalse(Engine.lower(written, SeedGeneration.options(Map.of()), List.of(0)).rank(0).steps().getFirst()
                .changed());
    }

    /**
     * Every example written before propagation existed keeps its meaning: from meshed tensors (the loader's reach)
     * nothing is inferred. From every tensor (81c4b22fd's pre-segmenter, the host_ir_lowering pass) only the seeds' fusion without
     * meshes whose Stream set feeds a Serial one changes (and its conformance port): nvFuser's pre-segmenter would carry tv1's Stream to tv2
     * (propagate_shardings.cpp:129-155), while the C++ test it comes from runs StreamParallelType without propagation
     * (tests/cpp/test_host_ir_stream_lowering.cpp:222-240 at 81c4b22fd), as the MultiDeviceExecutor paths lower it.
     */
    @Test
    void everyOtherExampleIsUnchanged() throws Exception {
        Path root = TestPaths.repo("examples");
        List<Path> files;
        try (Stream<Path> all = Files.walk(root)) {
            files = all.filter(p -> p.toString().endsWith(".fusion") && !p.startsWith(root.resolve("propagation"))
                    && !TestPaths.refusedOnPurpose(p)).toList();
        }
        int checked = 0;
        List<String> carried = new ArrayList<>();
        for (Path f : files) {
            LoadedFusion l;
            try {
                l = FusionLoader.load(f, 8);
            } catch (FusionFileException refused) {
                continue; // a file that needs other devices or symbols: the conformance and example tests cover it
            }
            assertSame(l.written(), l.fusion(), f.toString());
            assertSame(l.fusion(), ShardingPropagation.propagate(l.fusion()).fusion(), f.toString());
            if (ShardingPropagation.propagate(l.written(), Reach.EVERY_TENSOR).changed()) {
                carried.add(root.relativize(f).toString().replace('\\', '/'));
            }
            checked++;
        }
        assertTrue(checked > 100, "examples checked: " + checked);
        assertEquals(Set.of("seeds/three_sets_disjoint.fusion", "conformance/stream_three_set_ops_disjoint_loops.fusion"),
                Set.copyOf(carried));
    }

    /** {@code check} prints each inferred sharding with where it came from. */
    @Test
    void checkPrintsTheInferredShardings() {
        CliRun r = CliRun.of("check", TestPaths.repo("examples", "propagation", "transformer_mlp.fusion").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("inferred shardings:\n  h0 (T5) mesh {0 1}, from w0 (T1) through linear\n"
                + "  h0 (T5) axis 2 DIDx (outer split by 2), from w0 (T1) through linear\n"), r.out());
        assertTrue(r.out().contains("  mlp (T9) axis 1 DIDx (outer split by 2), from out (T10) through add, backward\nok"),
                r.out());
    }
}
