package org.hostir.studio.exec.tensor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * Deterministic inputs: uniform in [-1, 1) (then rounded to the dtype, which may round up to 1; a double on a
 * grid of 2^-52, so its values need float64), integers
 * uniform in [-8, 8), bools 0 or 1 with equal odds, drawn from
 * {@link SplittableRandom}. Each input's stream is seeded from the run's seed and the tensor's id, so an
 * input's values do not depend on the other inputs or on their order. An input that indexes (index_select's or
 * take_along_axis's index: a token router's choices) draws rows of the axis it selects, uniform in [0, extent), so
 * a seeded run routes reproducibly and never out of range.
 */
public final class Inputs {
    private Inputs() {}

    /** Every fusion input at its full (unsharded) shape, by TensorView id, in the fusion's input order. */
    public static Map<Integer, DenseTensor> generate(Fusion fusion, Map<String, Long> bindings, long seed) {
        Map<Integer, DenseTensor> inputs = new LinkedHashMap<>();
        for (TensorView tv : fusion.inputs()) {
            long[] shape = RuntimeShapes.global(tv, bindings);
            long rows = indexedRows(fusion, tv, bindings);
            inputs.put(tv.id(), rows > 0 ? indices(shape, tv.dtype(), rows, mix(seed, tv.id()))
                    : uniform(shape, tv.dtype(), mix(seed, tv.id())));
        }
        return inputs;
    }

    /** The extent of the axis an integer input selects from (the smallest if several), or 0 if it indexes none. */
    private static long indexedRows(Fusion fusion, TensorView tv, Map<String, Long> bindings) {
        if (!tv.dtype().isIntegral()) return 0;
        long rows = 0;
        for (FusionOp op : fusion.uses(tv)) {
            TensorView input = op instanceof FusionOp.IndexSelect s && s.indices() == tv ? s.input()
                    : op instanceof FusionOp.TakeAlongAxis t && t.indices() == tv ? t.input() : null;
            int dim = op instanceof FusionOp.IndexSelect s ? s.dim()
                    : op instanceof FusionOp.TakeAlongAxis t ? t.dim() : -1;
            if (input == null) continue;
            long[] in = RuntimeShapes.global(input, bindings);
            if (dim >= 0 && dim < in.length && in[dim] > 0) rows = rows == 0 ? in[dim] : Math.min(rows, in[dim]);
        }
        return rows;
    }

    /** Integers uniform in [0, rows). */
    public static DenseTensor indices(long[] shape, DataType dtype, long rows, long seed) {
        DenseTensor t = DenseTensor.zeros(shape, dtype);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < t.numel(); i++) t.writeLong(i, random.nextLong(rows));
        return t;
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
