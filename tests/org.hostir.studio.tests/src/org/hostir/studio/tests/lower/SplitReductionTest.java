package org.hostir.studio.tests.lower;

import static org.hostir.studio.ir.ParallelType.DIDX;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * A sum over an axis sharded by an outer split (nvFuser's LowerCollectiveTest.ReduceScatter, AllreduceNoncontig
 * at its newest revision): each device reduces its part into partial sums first (rFactor), the collective then
 * reduces those; the conformance cases validate the results on the CPU backend.
 */
class SplitReductionTest {
    private static final DeviceMesh M01 = DeviceMesh.of(0, 1);

    @Test
    void theLocalPartIsReducedIntoPartialSumsBeforeTheAllreduce() {
        IrBuilder b = new IrBuilder();
        Extent m = b.freshSymbol("M");
        Extent n = b.freshSymbol("N");
        TensorView in = TestFusions.tv(b, M01, b.iter(m), b.iter(n));
        TensorView out = TestFusions.tv(b, M01, b.iter(m), b.reduction(n));
        TensorView split = in.withLoop(in.loopDomain().split(1, Scalar.constant(2), false, b::nextIterDomainId)
                .parallelize(1, DIDX));
        var program = Pipeline.standard().lower(b.fusion("f", List.of(split),
                List.of(new FusionOp.Reduction(ReductionOpType.SUM, out, split, List.of(1))), List.of(out)),
                new LoweringContext(0, 2, SeedGeneration.DEFAULTS));
        String text = HostIrPrinter.print(program);
        int local = text.indexOf("T2_g_float[iS6{i0}, ideviceIdx.x7{2}] (DeviceMesh{0 1})\n     = reduction( T0");
        int allreduce = text.indexOf("(type=Allreduce, team=(0 1), input=T2_g_float[iS6{i0}, ideviceIdx.x7{2}]");
        assertTrue(local > 0 && allreduce > local, text);
        assertEquals(-1, text.indexOf("type=Allreduce, team=(0 1), input=T0"), text);
    }
}
