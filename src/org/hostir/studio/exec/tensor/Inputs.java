package org.hostir.studio.exec.tensor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;

/**
 * Deterministic inputs: uniform in [-1, 1) (then rounded to the dtype, which may round up to 1; a double on a
 * grid of 2^-52, so its values need float64), integers
 * uniform in [-8, 8), bools 0 or 1 with equal odds, drawn from
 * {@link SplittableRandom}. Each input's stream is seeded from the run's seed and the tensor's id, so an
 * input's values do not depend on the other inputs or on their order.
 */
public final class Inputs {
    private Inputs() {}

    /** Every fusion input at its full (unsharded) shape, by TensorView id, in the fusion's input order. */
    public static Map<Integer, DenseTensor> generate(Fusion fusion, Map<String, Long> bindings, long seed) {
        Map<Integer, DenseTensor> inputs = new LinkedHashMap<>();
        for (TensorView tv : fusion.inputs()) {
            inputs.put(tv.id(), uniform(RuntimeShapes.global(tv, bindings), tv.dtype(), mix(seed, tv.id())));
        }
        return inputs;
    }

    public static DenseTensor uniform(long[] shape, DataType dtype, long seed) {
        DenseTensor t = DenseTensor.zeros(shape, dtype);
        SplittableRandom random = new SplittableRandom(seed);
        int n = (int) t.numel();
        for (int i = 0; i < n; i++) {
            if (dtype == DataType.DOUBLE) {
                // k / 2^52 - 1 for k in [0, 2^53): every double of the grid, most of them no float32
                t.write(i, random.nextLong(1L << 53) * 0x1p-52 - 1);
                continue;
            }
            // k / 2^23 - 1 for k in [0, 2^24): exactly representable, so the float range is exactly [-1, 1)
            float v = random.nextInt(1 << 24) * 0x1p-23f - 1f;
            // integers in [-8, 8) and bools 0 or 1 (a draw in [-1, 1) would truncate to nearly all zeros)
            if (dtype.isIntegral()) v = (float) Math.floor(v * 8);
            if (dtype == DataType.BOOL) v = v < 0 ? 0 : 1;
            t.write(i, Rounding.round(v, dtype));
        }
        return t;
    }

    /** SplitMix64's finaliser over seed and id: nearby ids get unrelated streams. */
    private static long mix(long seed, int id) {
        long z = seed + 0x9E3779B97F4A7C15L * (id + 1L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
