package org.hostir.studio.tests.ir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorView;
import org.junit.jupiter.api.Test;

/**
 * The producer-consumer axis map of a product whose operand still lists a reduction axis: a linear's output feeding
 * the next linear ({@code [b, s, 4e, r{e}]}, nvFuser's test_data_and_tensor_parallel_mlp). Its reduction axis is
 * not a runtime axis and maps to nothing; the contracted axis is its last runtime one (issue 30, item 5: it was
 * mapped as the trailing reduction, so the sharded 4e looked resharded and the fusion was refused).
 */
class AxisMapTest {
    @Test
    void anOperandsReductionAxisMapsToNothing() {
        IrBuilder b = new IrBuilder();
        Extent bs = b.freshSymbol("B");
        Extent e = b.freshSymbol("E");
        Extent e4 = b.freshSymbol("E4");
        TensorView up = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(bs), b.iter(e4), b.reduction(e));
        TensorView w = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(e), b.iter(e4));
        TensorView down = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(bs), b.iter(e), b.reduction(e4));
        FusionOp linear = new FusionOp.Linear(down, up, w, null);
        assertArrayEquals(new int[] {0, 2, AxisMap.NONE}, AxisMap.of(linear, 0));
        assertArrayEquals(new int[] {1, 2}, AxisMap.of(linear, 1));
        TensorView wt = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, b.iter(e4), b.iter(e));
        FusionOp matmul = new FusionOp.Matmul(down, up, wt);
        assertArrayEquals(new int[] {0, 2, AxisMap.NONE}, AxisMap.of(matmul, 0));
        assertArrayEquals(new int[] {2, 1}, AxisMap.of(matmul, 1));
    }
}
