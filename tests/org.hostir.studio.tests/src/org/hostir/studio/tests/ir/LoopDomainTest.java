package org.hostir.studio.tests.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.print.IrText;
import org.junit.jupiter.api.Test;

/** Loop domains as nvFuser's scheduling calls build them and as its dumps print them. */
class LoopDomainTest {

    /** LowerCollectiveTest.Allgather_LoopSplit: {@code in->split(0, 4, false); in->axis(0)->parallelize(DIDx)}. */
    @Test
    void outerSplitByTheMeshSizeShardsTheLogicalAxisAndPrintsTheLoopDomain() {
        IrBuilder b = new IrBuilder();
        DeviceMesh mesh = DeviceMesh.forNumDevices(4);
        TensorView in = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, mesh, b.iter(b.freshSymbol("N")));
        b.tensor(DataType.FLOAT, MemoryType.GLOBAL, mesh, b.iter(b.symbol("N")));
        LoopDomain loop = in.loopDomain().split(0, Scalar.constant(4), false, b::nextIterDomainId)
                .parallelize(0, ParallelType.DIDX).withAllocationIsLoop(true);
        TensorView sharded = in.withLoop(loop);

        assertEquals("T0_g_float[ideviceIdx.x2{4}, iS3{( ceilDiv(i0, 4) )}] (DeviceMesh{0 1 2 3})",
                IrText.tensor(sharded));
        assertEquals(ParallelType.DIDX, sharded.axis(0).parallelType(), "the logical axis carries the sharding");
        ScalarEnv env = new ScalarEnv(Map.of("N", 12L), 0, 1);
        assertEquals(3, env.localShape(sharded)[0], "a rank holds ceilDiv(12, 4) elements");
    }

    @Test
    void innerSplitMergeAndReorderPrintTheirExtents() {
        IrBuilder b = new IrBuilder();
        TensorView t = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(b.freshSymbol("M")),
                b.iter(b.freshSymbol("N")));
        LoopDomain loop = t.loopDomain().split(1, Scalar.constant(8), true, b::nextIterDomainId)
                .merge(0, b::nextIterDomainId).reorder(List.of(1, 0));
        assertEquals("T0_g_float[iS3{8}, iS4{( i0 * ( ceilDiv(i1, 8) ) )}]", IrText.tensor(t.withLoop(loop)));
        assertEquals(ParallelType.SERIAL, t.withLoop(loop).axis(1).parallelType());
    }

    @Test
    void deviceParallelInnerPartIsNotAShardingOfTheLogicalAxis() {
        IrBuilder b = new IrBuilder();
        TensorView t = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, DeviceMesh.forNumDevices(2),
                b.iter(b.freshSymbol("M")));
        LoopDomain loop = t.loopDomain().split(0, Scalar.constant(2), false, b::nextIterDomainId)
                .parallelize(1, ParallelType.DIDX);
        assertThrows(IllegalArgumentException.class, () -> t.withLoop(loop));
    }

    @Test
    void passesThatRewriteAxesKeepTheShardingOnTheLogicalAxis() {
        IrBuilder b = new IrBuilder();
        TensorView t = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, DeviceMesh.forNumDevices(2),
                b.iter(b.freshSymbol("M")), b.iter(b.freshSymbol("N")));
        TensorView sharded = t.withLoop(t.loopDomain().split(1, Scalar.constant(2), false, b::nextIterDomainId)
                .parallelize(1, ParallelType.DIDX));
        TensorView permuted = sharded.withAxes(List.of(sharded.axis(1), sharded.axis(0)));
        assertNull(permuted.loop());
        assertEquals("T0_g_float[ideviceIdx.x1{i1}, iS0{i0}] (DeviceMesh{0 1})", IrText.tensor(permuted));
        assertEquals(4, new ScalarEnv(Map.of("M", 3L, "N", 8L), 0, 1).localShape(permuted)[0]);
    }
}
