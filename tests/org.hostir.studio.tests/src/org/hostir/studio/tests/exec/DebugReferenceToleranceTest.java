package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;

import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.exec.debug.TensorSummary;
import org.hostir.studio.exec.tensor.Allowance;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.Reference;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.TensorView;
import org.junit.jupiter.api.Test;

/**
 * A stop compares an output with the unsharded reference under validation's error bound: a rounding difference
 * validation accepts (cuBLAS against the reference's GEMM, found on the GPU) reads "equal within tolerance", only
 * values beyond the bound count as differing; without a bound (a tensor that is no output) any difference counts.
 */
class DebugReferenceToleranceTest {
    @Test
    void aRoundingDifferenceIsEqualWithinToleranceAndALargerOneDiffers() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", 2, Map.of());
        TensorView out = loaded.fusion().outputs().getFirst();
        Reference reference = Reference.evaluate(loaded.fusion(), Inputs.generate(loaded.fusion(),
                loaded.bindings().asMap(), 7), false);
        DenseTensor shard = reference.shard(out, 0).orElseThrow();
        Optional<Allowance> bound = Optional.of(reference.shardTolerance(out, 0));
        double[] v = shard.toDoubleArray();
        double x = v[3];
        v[3] = Math.nextUp((float) x); // one float32 ulp off, as a different summation order gives
        DenseTensor rounded = DenseTensor.ofDoubles(shard.dtype(), shard.shape(), v);
        TensorSummary within = TensorSummary.of(out, out.label(), rounded, "rank 0 (test)", Optional.of(shard), true,
                bound);
        assertEquals(0, within.reference().orElseThrow().differing(), within.toString());
        assertTrue(within.reference().orElseThrow().maxAbs() > 0);
        assertTrue(StopText.tensor(within).contains("; reference: equal within tolerance (max |diff| "),
                StopText.tensor(within));
        TensorSummary exact = TensorSummary.of(out, out.label(), rounded, "rank 0 (test)", Optional.of(shard), true,
                Optional.empty());
        assertEquals(1, exact.reference().orElseThrow().differing(), "no bound: any difference counts");
        v[3] = x + 0.5;
        DenseTensor wrong = DenseTensor.ofDoubles(shard.dtype(), shard.shape(), v);
        TensorSummary beyond = TensorSummary.of(out, out.label(), wrong, "rank 0 (test)", Optional.of(shard), true,
                bound);
        assertEquals(1, beyond.reference().orElseThrow().differing(), beyond.toString());
        assertTrue(StopText.tensor(beyond).contains("; reference: 1 of " + v.length + " differ, max |diff| 0.5"),
                StopText.tensor(beyond));
    }
}
