package org.hostir.studio.exec.tensor;

import java.util.Arrays;
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
            DenseTensor routed = routed(fusion, tv, shape, bindings, mix(seed, tv.id()));
            inputs.put(tv.id(), routed != null ? routed : rows > 0 ? indices(shape, tv.dtype(), rows, mix(seed, tv.id()))
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

    /**
     * An integer input that routes: grouped_mm's offsets, the ends of g groups of a seeded random partition of the
     * axis they split (a router's per-expert token counts, empty groups included); scatter's index, in each line
     * along its axis distinct positions of self's axis (a seeded shuffle), since repeated ones leave at::scatter
     * undefined. Null for any other input.
     */
    private static DenseTensor routed(Fusion fusion, TensorView tv, long[] shape, Map<String, Long> bindings,
                                      long seed) {
        if (!tv.dtype().isIntegral()) return null;
        for (FusionOp op : fusion.uses(tv)) {
            if (op instanceof FusionOp.GroupedMm g && g.offsets() == tv && shape.length == 1) {
                long[] a = RuntimeShapes.global(g.a(), bindings);
                long[] b = RuntimeShapes.global(g.b(), bindings);
                long split = a.length == 3 ? b[b.length - 1] : b.length == 3 ? a[0] : a[a.length - 1];
                return offsets(shape[0], split, tv.dtype(), seed);
            }
            if (op instanceof FusionOp.Scatter s && s.indices() == tv && s.dim() >= 0 && s.dim() < shape.length) {
                long[] self = RuntimeShapes.global(s.self(), bindings);
                if (s.dim() < self.length && shape[s.dim()] <= self[s.dim()]) {
                    return distinct(shape, s.dim(), self[s.dim()], tv.dtype(), seed);
                }
            }
        }
        return null;
    }

    /** {@code groups} cumulative ends rising from 0 to {@code total}: sorted seeded cuts, the last at total. */
    static DenseTensor offsets(long groups, long total, DataType dtype, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] ends = new long[(int) groups];
        for (int i = 0; i < groups - 1; i++) ends[i] = random.nextLong(total + 1);
        Arrays.sort(ends, 0, (int) Math.max(0, groups - 1));
        if (groups > 0) ends[(int) groups - 1] = total;
        return DenseTensor.ofLongs(dtype, new long[] {groups}, ends);
    }

    /** Along {@code dim}, each line the first entries of a seeded shuffle of [0, rows). */
    static DenseTensor distinct(long[] shape, int dim, long rows, DataType dtype, long seed) {
        DenseTensor t = DenseTensor.zeros(shape, dtype);
        SplittableRandom random = new SplittableRandom(seed);
        long[] lines = shape.clone();
        lines[dim] = 1;
        long count = 1;
        for (long n : lines) count *= n;
        long[] at = new long[shape.length];
        long[] pool = new long[(int) rows];
        for (long line = 0; line < count; line++) {
            TopKKernel.unravel(line, lines, at);
            for (int i = 0; i < rows; i++) pool[i] = i;
            for (int j = 0; j < shape[dim]; j++) {
                int pick = j + random.nextInt((int) rows - j);
                long v = pool[pick];
                pool[pick] = pool[j];
                pool[j] = v;
                at[dim] = j;
                t.setDouble(v, at);
            }
            at[dim] = 0;
        }
        return t;
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
