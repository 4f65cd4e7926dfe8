package org.hostir.studio.exec.tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Which elements of an output too large to recompute validation checks (docs/validation.md, "Sampled
 * validation"). Axes of at most {@link #SMALL} indices (stream iterations, device shards, batches) are taken
 * whole. Each larger axis is cut into equal strata with one random index from each, and the grid of all those
 * indices is checked: a misplaced, dropped or stale block that spans a stratum along every large axis is always
 * hit, and a fault that corrupts a fraction f of the elements at random escapes with probability (1 - f)^n for
 * the grid's n elements. Lines along each large axis (every index of it, one random index of the other large
 * axes, the small axes whole: a whole row or column per stream chunk and rank shard) are checked besides.
 *
 * @param boxes     the grid first, then one line per large axis
 * @param gridCount elements of the grid
 * @param strata    per axis, how many indices of it the grid holds
 */
public record SamplePlan(List<Box> boxes, long gridCount, long[] strata, long[] shape) {
    /** Axes up to this size are checked whole. */
    public static final int SMALL = 16;
    /** The grid's target size, in elements. */
    public static final long DEFAULT_GRID = 1L << 16;

    public SamplePlan {
        boxes = List.copyOf(boxes);
    }

    public static SamplePlan of(long[] shape, long grid, long seed) {
        Random random = new Random(seed);
        int rank = shape.length;
        long fixed = 1;
        int large = 0;
        for (long s : shape) {
            if (s <= SMALL) fixed *= s;
            else large++;
        }
        long per = large == 0 ? 1 : Math.max(SMALL, (long) Math.floor(Math.pow((double) grid / fixed, 1.0 / large)));
        int[][] gridAxes = new int[rank][];
        long[] strata = new long[rank];
        long count = 1;
        for (int i = 0; i < rank; i++) {
            strata[i] = shape[i] <= SMALL ? shape[i] : Math.min(shape[i], per);
            if (shape[i] > SMALL && strata[i] < shape[i]) gridAxes[i] = stratified(shape[i], (int) strata[i], random);
            count *= strata[i];
        }
        List<Box> boxes = new ArrayList<>(List.of(new Box(gridAxes)));
        for (int a = 0; a < rank; a++) {
            if (shape[a] <= SMALL) continue;
            int[][] line = new int[rank][];
            for (int i = 0; i < rank; i++) {
                boolean whole = i == a || (shape[i] <= SMALL && fixed <= SMALL * SMALL);
                if (!whole) line[i] = new int[] {random.nextInt((int) shape[i])};
            }
            boxes.add(new Box(line));
        }
        return new SamplePlan(boxes, count, strata, shape.clone());
    }

    /** One random index in each of {@code c} equal strata of [0, n), ascending. */
    private static int[] stratified(long n, int c, Random random) {
        int[] idx = new int[c];
        for (int i = 0; i < c; i++) {
            long lo = i * n / c;
            long hi = (i + 1) * n / c;
            idx[i] = (int) (lo + random.nextLong(hi - lo));
        }
        return idx;
    }

    /** Elements on the lines (one that is also on the grid or another line counts again). */
    public long lineElements() {
        long n = 0;
        for (Box b : boxes.subList(1, boxes.size())) n += b.numel(shape);
        return n;
    }

    /** The probability that a fault corrupting {@code fraction} of the elements at random misses the grid. */
    public double missProbability(double fraction) { return Math.exp(gridCount * Math.log1p(-fraction)); }

    /**
     * Per axis, the length of a run of indices that always holds a whole stratum, so one of the grid's indices:
     * 2 strata less one index (1 on an axis taken whole).
     */
    public long[] alwaysHitBlock() {
        long[] b = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            b[i] = strata[i] == shape[i] ? 1 : 2 * ((shape[i] + strata[i] - 1) / strata[i]) - 1;
        }
        return b;
    }

    /** {@code sampled 65536 + 65600 of 1073741824 elements (...)}, for the validation line. */
    public String describe() {
        long total = 1;
        for (long s : shape) total *= s;
        return String.format(Locale.ROOT, "sampled %d + %d of %d elements (a grid of %s, %d whole lines); a fault "
                        + "corrupting 0.1%% of the elements at random escapes with probability %.1e; every block of "
                        + "%s elements is hit", gridCount, lineElements(), total, join(strata), boxes.size() - 1,
                missProbability(1e-3), join(alwaysHitBlock()));
    }

    private static String join(long[] a) {
        return String.join(" x ", Arrays.stream(a).mapToObj(Long::toString).toList());
    }
}
