package org.hostir.studio.tests.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.print.IrText;
import org.junit.jupiter.api.Test;

class IrBuilderTest {

    @Test
    void idsAreHandedOutInOrderAndNamesAreDeterministic() {
        for (int run = 0; run < 2; run++) {
            IrBuilder b = new IrBuilder();
            Extent.Symbolic d = b.symbol("D");
            Extent.Symbolic m = b.symbol("M");
            assertSame(d, b.symbol("D"), "a symbol is created once per name");
            TensorView t0 = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, DeviceMesh.forNumDevices(2),
                    b.iter(d, ParallelType.DIDX), b.iter(m));
            TensorView t1 = b.tensor(DataType.BFLOAT16, MemoryType.LOCAL, null, b.iter(d, ParallelType.STREAM),
                    b.reduction(m), b.broadcast());
            assertEquals("T0_g_float[ideviceIdx.x0{i0}, iS1{i1}] (DeviceMesh{0 1})", IrText.tensor(t0));
            assertEquals("T1_l___bfloat[iStreamIdx2{i0}, rS3{i1}, bS4{1}]", IrText.tensor(t1));
        }
    }

    @Test
    void continuingABuilderNeverReusesIds() {
        IrBuilder first = new IrBuilder();
        first.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, first.iter(first.symbol("M")));
        first.nextNodeId();
        IrBuilder next = new IrBuilder(first.counters(), first.symbols());
        TensorView t = next.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, next.iter(next.symbol("N")));
        assertEquals(1, t.id());
        assertEquals(1, t.axis(0).id());
        assertEquals(1, ((Extent.Symbolic) t.axis(0).extent()).id());
        assertEquals(1, next.nextNodeId());
        assertEquals(0, next.symbol("M").id(), "known symbols keep their ids");
    }

    @Test
    void didAxesHaveLocalExtentOne() {
        IrBuilder b = new IrBuilder();
        IterDomain did = b.iter(b.symbol("D"), ParallelType.DIDX);
        IterDomain serial = b.iter(b.symbol("M"));
        assertEquals(new Extent.Constant(1), did.localExtent());
        assertEquals(serial.extent(), serial.localExtent());
        assertEquals(b.symbol("D"), did.extent(), "the logical extent stays D");
    }

    @Test
    void allocationSizeSkipsReductionAndBroadcastAxesAndFoldsConstants() {
        IrBuilder b = new IrBuilder();
        TensorView t = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(b.symbol("S")),
                b.reduction(b.symbol("D")), b.broadcast(), b.iter(b.symbol("M")));
        assertEquals("( i0 * i2 )", IrText.scalar(t.allocationSize()));
        TensorView c = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(new Extent.Constant(4)),
                b.iter(new Extent.Constant(3)), b.iter(new Extent.Constant(3)));
        assertEquals("36", IrText.scalar(c.allocationSize()));
        assertEquals("( 4 * i0 )", IrText.scalar(Scalar.mul(new Extent.Constant(4), b.symbol("S"))));
    }

    @Test
    void recordsAreValuesAndRejectNonsense() {
        IrBuilder b = new IrBuilder();
        IterDomain a = b.iter(b.symbol("M"));
        assertEquals(a, new IterDomain(a.id(), a.extent(), a.iterType(), a.parallelType()));
        assertNotEquals(a, a.withParallelType(ParallelType.STREAM));
        assertThrows(IllegalArgumentException.class, () -> new IterDomain(-1, a.extent(), a.iterType(),
                a.parallelType()));
        assertThrows(IllegalArgumentException.class, () -> new Extent.Symbolic(0, ""));
        List<Integer> ids = new java.util.ArrayList<>(List.of(0, 1));
        DeviceMesh mesh = new DeviceMesh(ids);
        ids.add(2);
        assertEquals(2, mesh.size(), "a mesh copies its list: IR values are immutable");
        assertTrue(mesh.contains(1));
        assertEquals(-1, mesh.indexOf(5));
    }
}
