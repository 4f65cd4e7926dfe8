package org.hostir.studio.tests.lower;

import static org.hostir.studio.ir.ParallelType.DIDX;
import static org.hostir.studio.ir.ParallelType.STREAM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.Subject;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.LoweringError;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/** Schedules that cannot be lowered end in an error naming the expression or tensor and the rule. */
class LoweringDiagnosticsTest {
    private static final DeviceMesh M01 = DeviceMesh.of(0, 1);

    private static LoweringError failure(Fusion f) {
        LoweringException e = assertThrows(LoweringException.class,
                () -> Pipeline.standard().lower(f, new LoweringContext(0, 2, SeedGeneration.DEFAULTS)));
        assertEquals(1, e.errors().size(), () -> e.errors().toString());
        return e.errors().get(0);
    }

    @Test
    void streamParallelReductionAxis() {
        IrBuilder b = new IrBuilder();
        Extent s = b.symbol("S");
        TensorView t0 = TestFusions.tv(b, null, b.iter(s), b.iter(b.symbol("M")));
        TensorView t1 = TestFusions.tv(b, null, b.iterDomain(s, IterType.REDUCTION, STREAM), b.copy(t0.axis(1)));
        LoweringError e = failure(b.fusion("f", List.of(t0),
                List.of(new FusionOp.Reduction(ReductionOpType.SUM, t1, t0, List.of(0))), List.of(t1)));
        assertEquals("stream.reduction", e.rule());
        assertEquals("T1.axes[0]", e.where());
        // typed: the axis of T1, so front ends locate it without reading the text
        assertEquals(new Subject.Axis(new Subject.Tensor(1, t1.label()), 0), e.subject());
    }

    /** nvFuser's lowerToAllToAll: "AllToAll sender and receiver meshes must be the same". */
    @Test
    void movingTheShardedAxisToAnotherMeshIsRefused() {
        IrBuilder b = new IrBuilder();
        Extent two = new Extent.Constant(2);
        TensorView t0 = TestFusions.tv(b, M01, b.iter(two, DIDX), b.iter(two));
        TensorView t1 = TestFusions.tv(b, DeviceMesh.of(1, 0), b.iter(two), b.iter(two, DIDX));
        LoweringError e = failure(b.fusion("f", List.of(t0), List.of(new FusionOp.Set(t1, t0)), List.of(t1)));
        assertEquals("sharding.alltoall-mesh", e.rule());
        assertTrue(e.where().contains("set T1 = set(T0)"), e.where());
        assertEquals(t1.subject(), e.subject());
    }

    @Test
    void postOnStreamCannotBeStreamParallel() {
        IrBuilder b = new IrBuilder();
        Extent s = b.symbol("S");
        TensorView t0 = TestFusions.tv(b, null, b.iter(s));
        TensorView t1 = TestFusions.tv(b, null, b.iter(s, STREAM), b.broadcast());
        LoweringError e = failure(b.fusion("f", List.of(t0),
                List.of(new FusionOp.Broadcast(t1, t0, List.of(false, true))), List.of(t1)));
        assertEquals("stream.post-on-stream", e.rule());
        assertEquals("HostUnit0", e.where());
        assertEquals(t1.subject(), e.subject());
    }

    @Test
    void deviceAxisExtentMustMatchItsMesh() {
        IrBuilder b = new IrBuilder();
        TensorView t0 = TestFusions.tv(b, M01, b.iter(new Extent.Constant(3), DIDX));
        TensorView t1 = TestFusions.tv(b, M01, b.iter(new Extent.Constant(3)));
        LoweringError e = failure(b.fusion("f", List.of(t0), List.of(new FusionOp.Set(t1, t0)), List.of(t1)));
        assertEquals("mesh.did-extent", e.rule());
        assertTrue(e.message().contains("extent 3") && e.message().contains("2 devices"), e.message());
    }

    @Test
    void meshNamingADeviceBeyondTheLoweredOnes() {
        Fusion f = TestFusions.setBetween(DeviceMesh.of(0), DeviceMesh.of(5), false, false);
        assertEquals("mesh.device-range", failure(f).rule());
    }

    @Test
    void optionsAreParsedAndBadOnesNamed() {
        LoweringOptions o = SeedGeneration.options(Map.of("numberOfStreams", "2", "allgather", "broadcast",
                "backend", "cuda", "insertDeallocations", "on"));
        assertEquals(2, o.numberOfStreams());
        assertEquals("broadcast", o.asMap().get("allgather"));
        assertEquals("cuda", o.asMap().get("backend"));
        assertTrue(o.insertDeallocations());
        assertEquals(o, SeedGeneration.options(o.asMap()), "asMap round-trips");
        for (var bad : List.of(Map.of("numberOfStreams", "0"), Map.of("allgather", "ring"),
                Map.of("streams", "2"), Map.of("offsetStreamIndexingByRank", "maybe"))) {
            LoweringException e = assertThrows(LoweringException.class, () -> SeedGeneration.options(bad));
            assertTrue(e.errors().get(0).where().startsWith("option "), e.getMessage());
        }
    }
}
