package org.hostir.studio.tests.propagation;

import static org.hostir.studio.tests.propagation.ShardingPropagationTest.fusion;
import static org.hostir.studio.tests.propagation.ShardingPropagationTest.load;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.ValidatePass;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.rules.InferredSharding;
import org.hostir.studio.rules.ShardingPropagation;
import org.hostir.studio.rules.ShardingPropagation.Reach;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 33/34: Stream splits carried by sharding propagation as nvFuser 81c4b22fd's pre-segmenter carries them, in
 * fusions without any mesh: PropagateShardingsPass has no mesh condition (propagate_shardings.cpp:117-188), its
 * transformLoopDomain replays a Stream split as a device split (propagation.cpp:95-101, 199-256), and
 * FusionKernelRuntime runs it before host_ir_lowering (fusion_kernel_runtime.cpp:74, pre_segmenter.cpp:88). The
 * MultiDeviceExecutor paths do not (csrc/host_ir/lower.cpp:96-101; 43b9a1aa5's pass only from meshed tensors).
 */
class StreamPropagationTest {
    private static final String STREAM_SPLIT0 = "'loop': [{'outer_split': 0, 'factor': 3}, {'parallelize': 0,"
            + " 'type': 'Stream'}]";
    private static final String STREAM_SPLIT1 = "'loop': [{'outer_split': 1, 'factor': 3}, {'parallelize': 1,"
            + " 'type': 'Stream'}]";
    private static final LoweringOptions HOST_IR_LOWERING = PropagationExamplesTest.HOST_IR_LOWERING;

    private static LoadedFusion port(String name, int devices) throws Exception {
        return Engine.load(new FusionSource.File(TestPaths.repo("examples", "propagation", name + ".fusion"), name),
                devices, Map.of());
    }

    private static LoadedFusion conformance(String name) throws Exception {
        return Engine.load(new FusionSource.File(TestPaths.repo("examples", "conformance", name + ".fusion"), name),
                1, Map.of());
    }

    private static TensorView tensor(Fusion f, String label) {
        return f.tensors().stream().filter(t -> t.label().equals(label)).findFirst().orElseThrow();
    }

    /** The loop axis that is Stream, with the extent of its outer split (3), and where it came from. */
    private static void assertStreamSplitOn(TensorView t, int logical) {
        LoopDomain loop = t.loopDomain();
        int at = -1;
        for (int p = 0; p < loop.loop().size(); p++) {
            if (loop.loop().get(p).parallelType() == ParallelType.STREAM) at = p;
        }
        assertTrue(at >= 0, t.label() + " has a Stream loop axis: " + loop);
        assertEquals(LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT, loop.source(at).derivation(), t.label());
        assertEquals(logical, loop.source(at).logicalPosition(), t.label());
        assertEquals(new Extent.Constant(3), loop.loop().get(at).extent(), t.label());
    }

    /**
     * test_two_matmuls_inlinable (tests/python/direct/test_stream.py:53-105) as written, only inp split: the split
     * reaches mid from inp (matmul's B first, then A, propagate_shardings.cpp:60-63: w1 has no Stream) and out from
     * mid, and the lowering under host_ir_lowering is the conformance case written after propagation, program for
     * program (PropagationExamplesTest compares them; here the propagated fusions themselves).
     */
    @Test
    void twoMatmulsInlinableTakeInpsStreamSplit() throws Exception {
        LoadedFusion l = port("stream_two_matmuls_inlinable", 1);
        ShardingPropagation.Result r = ShardingPropagation.propagate(l.written(), Reach.EVERY_TENSOR);
        assertEquals(List.of("mid (T3) axis 0 Stream (outer split by 3), from inp (T0) through matmul",
                "out (T4) axis 0 Stream (outer split by 3), from mid (T3) through matmul"),
                r.inferred().stream().map(InferredSharding::text).toList());
        assertStreamSplitOn(tensor(r.fusion(), "mid"), 0);
        assertStreamSplitOn(tensor(r.fusion(), "out"), 0);
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.SERIAL), tensor(r.fusion(), "w1").loopDomain().loop()
                .stream().map(LoopDomain.Axis::parallelType).toList(), "w1: a fusion input takes nothing here");
        LoadedFusion written = conformance("stream_two_matmuls_inlinable_2026");
        assertEquals(written.fusion().tensors().stream().map(t -> t.loopDomain().loop().size()).toList(),
                r.fusion().tensors().stream().map(t -> t.loopDomain().loop().size()).toList());
        assertTrue(Engine.shardings(l).inferred().isEmpty(), "the loader, check and the editor: from meshed tensors");
        HostIrContainer program = Engine.lowerRank(l, HOST_IR_LOWERING, 0);
        assertTrue(Engine.compare(program, Engine.lowerRank(written, HOST_IR_LOWERING, 0), "port", "conformance")
                .equal());
    }

    /**
     * The MultiDeviceExecutor paths propagate nothing into a fusion without meshes: the seeds' pass took meshed
     * references only (43b9a1aa5 propagate_shardings.cpp:231-249), 81c4b22fd's MultiDeviceExecutor runs none
     * (lower.cpp:96-101). So the seeds' lowering refuses inp's Stream axis, at inp's line.
     */
    @Test
    void theMultiDeviceExecutorPathsLeaveItAsWritten() throws Exception {
        LoadedFusion l = port("stream_two_matmuls_inlinable", 1);
        assertTrue(ShardingPropagation.propagate(l.written(), Reach.WITH_MESH).inferred().isEmpty());
        LoweringOptions seeds = LoweringOptions.parse(Map.of(ValidatePass.NVFUSER.key(),
                NvFuserGeneration.V2025_06.label()));
        EngineFailure e = assertThrows(EngineFailure.class, () -> Engine.lowerRank(l, seeds, 0));
        Diagnostic d = e.diagnostics().getFirst();
        assertEquals("stream.input", d.rule(), d.format());
        assertTrue(d.format().startsWith("error: stream_two_matmuls_inlinable:12: inp"), d.format());
    }

    /**
     * test_two_matmuls_not_inlinable (test_stream.py:108-145) as written: w1 split on n and out on m. mid takes w1's
     * split (B first) and not out's (forward before backward, and Stream is then taken, :71-99): "After sharding
     * propagation, the IR looks like" the test's picture, and the lowering is the conformance case that writes mid.
     */
    @Test
    void twoMatmulsNotInlinableTakeW1sSplit() throws Exception {
        // the conformance case with mid's written split taken out: the test as written
        JsonObject doc = JsonParser.parseString(Files.readString(TestPaths.repo("examples", "conformance",
                "stream_two_matmuls_not_inlinable_2026.fusion"))).getAsJsonObject();
        int unstated = 0;
        for (JsonElement t : doc.getAsJsonArray("tensors")) {
            if (t.getAsJsonObject().get("name").getAsString().equals("mid")) {
                unstated += t.getAsJsonObject().remove("loop") == null ? 0 : 1;
            }
        }
        assertEquals(1, unstated, "the conformance case writes mid's split");
        String text = doc.toString();
        LoadedFusion l = Engine.load(Engine.parse(new FusionSource.Text(text, "p.fusion")), 1, Map.of());
        ShardingPropagation.Result r = ShardingPropagation.propagate(l.written(), Reach.EVERY_TENSOR);
        assertEquals(List.of("mid (T3) axis 1 Stream (outer split by 3), from w1 (T1) through matmul"),
                r.inferred().stream().map(InferredSharding::text).toList());
        assertStreamSplitOn(tensor(r.fusion(), "mid"), 1);
        LoadedFusion written = conformance("stream_two_matmuls_not_inlinable_2026");
        assertTrue(Engine.compare(Engine.lowerRank(l, HOST_IR_LOWERING, 0), Engine.lowerRank(written,
                HOST_IR_LOWERING, 0), "inputs-only", "conformance").equal());
    }

    /**
     * Without meshes as with them: a tensor keeps the Stream axis written on it (getParallelTypesToPropagate,
     * propagate_shardings.cpp:86-97), an intermediate takes a Stream split backward from its consumer (:163-187), and
     * a fusion input takes none here (nvFuser marks it Stream, :75-76, 174-177: docs/conformance.md, "Propagation").
     */
    @Test
    void writtenStreamStaysAndBackwardReachesIntermediates() throws Exception {
        LoadedFusion l = load(fusion("{'M': 6, 'N': 6}", List.of(
                "{'name': 'x', 'dtype': 'float', 'axes': ['M', 'N']}",
                "{'name': 'y', 'dtype': 'float', 'axes': ['M', 'N']}",
                "{'name': 'z', 'dtype': 'float', 'axes': ['M', 'N'], " + STREAM_SPLIT1 + "}",
                "{'name': 'out', 'dtype': 'float', 'axes': ['M', 'N'], " + STREAM_SPLIT0 + "}"),
                List.of("{'op': 'relu', 'inputs': ['x'], 'output': 'y'}",
                        "{'op': 'neg', 'inputs': ['y'], 'output': 'z'}",
                        "{'op': 'set', 'inputs': ['z'], 'output': 'out'}"), "['x']", "['out']"));
        ShardingPropagation.Result r = ShardingPropagation.propagate(l.written(), Reach.EVERY_TENSOR);
        assertEquals(List.of("y (T1) axis 1 Stream (outer split by 3), from z (T2) through neg, backward"),
                r.inferred().stream().map(InferredSharding::text).toList());
        assertStreamSplitOn(tensor(r.fusion(), "y"), 1);
        assertEquals(2, tensor(r.fusion(), "x").loopDomain().loop().size(), "x, a fusion input, stays unsplit");
    }
}
