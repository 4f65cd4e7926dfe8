package org.hostir.studio.exec.tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A set of elements of a tensor as a product of per-axis index sets: for each runtime axis the sorted indices
 * chosen, or null for the whole axis. Validation samples an output in boxes ({@link SamplePlan}), and
 * {@link SampledReference} asks each op's operands for the box its output box needs.
 */
public final class Box {
    private final int[][] axes;

    public Box(int[][] axes) {
        this.axes = axes.clone();
    }

    /** The whole tensor of this rank. */
    public static Box all(int rank) { return new Box(new int[rank][]); }

    public int rank() { return axes.length; }

    /** The indices along {@code axis}, or null where the box spans the axis. */
    int[] indices(int axis) { return axes[axis]; }

    /** How many elements the box holds in a tensor of {@code shape}. */
    public long numel(long[] shape) {
        long n = 1;
        for (int i = 0; i < axes.length; i++) n *= axes[i] == null ? shape[i] : axes[i].length;
        return n;
    }

    /** The shape of the box's sub-tensor of a tensor of {@code shape}. */
    long[] shape(long[] shape) {
        long[] s = new long[axes.length];
        for (int i = 0; i < axes.length; i++) s[i] = axes[i] == null ? shape[i] : axes[i].length;
        return s;
    }

    /** The box's elements of {@code t} as a new contiguous tensor (the tensor itself when the box spans it). */
    public DenseTensor gather(DenseTensor t) {
        if (t.rank() != axes.length) {
            throw new IllegalArgumentException("a box of rank " + axes.length + " for shape " + Arrays.toString(t.shape));
        }
        if (Arrays.stream(axes).allMatch(a -> a == null)) return t;
        DenseTensor out = DenseTensor.zeros(shape(t.shape()), t.dtype);
        int[] idx = new int[axes.length];
        int rank = axes.length;
        int n = (int) out.numel();
        for (int o = 0; o < n; o++) {
            int pos = t.offset;
            for (int i = 0; i < rank; i++) pos += (axes[i] == null ? idx[i] : axes[i][idx[i]]) * t.strides[i];
            if (t.ints != null) out.ints[o] = t.ints[pos]; // an int64 exactly, past 2^53 too
            else out.write(o, t.read(pos));
            for (int i = rank - 1; i >= 0; i--) {
                if (++idx[i] < out.shape[i]) break;
                idx[i] = 0;
            }
        }
        return out;
    }

    /** The index in the whole tensor of the box's element at {@code local}. */
    public List<Long> global(List<Long> local) {
        List<Long> g = new ArrayList<>();
        for (int i = 0; i < axes.length; i++) {
            long l = local.get(i);
            g.add(axes[i] == null ? l : axes[i][(int) l]);
        }
        return g;
    }

    /**
     * The part of this box within indices [lo, lo + length) of {@code axis}: {@code [global, local]}, the same
     * elements in the whole tensor's indices and in those of the slice; null when the box misses the slice.
     */
    public Box[] within(int axis, int lo, int length) {
        int[] global;
        if (axes[axis] == null) {
            global = new int[length];
            for (int i = 0; i < length; i++) global[i] = lo + i;
        } else {
            global = Arrays.stream(axes[axis]).filter(i -> i >= lo && i < lo + length).toArray();
        }
        if (global.length == 0) return null;
        int[][] g = axes.clone();
        int[][] l = axes.clone();
        g[axis] = global;
        l[axis] = Arrays.stream(global).map(i -> i - lo).toArray();
        return new Box[] {new Box(g), new Box(l)};
    }

    /** Set.Permute: output axis i is input axis perm[i]. */
    Box unpermute(List<Integer> perm) {
        int[][] in = new int[axes.length][];
        for (int i = 0; i < perm.size(); i++) in[perm.get(i)] = axes[i];
        return new Box(in);
    }

    /** Broadcast: the input has the output's axes but the new ones. */
    Box without(boolean[] fresh) {
        List<int[]> in = new ArrayList<>();
        for (int i = 0; i < axes.length; i++) if (!fresh[i]) in.add(axes[i]);
        return new Box(in.toArray(int[][]::new));
    }

    /** A binary op's operand of {@code shape}: right-aligned, whole where the operand is broadcast (size 1). */
    Box rightAligned(long[] shape) {
        int[][] in = new int[shape.length][];
        int lead = axes.length - shape.length;
        for (int i = 0; i < shape.length; i++) in[i] = shape[i] == 1 ? null : axes[lead + i];
        return new Box(in);
    }

    /** A reduction's input: whole along the reduced axes, the output's kept axes in order elsewhere. */
    Box expanded(boolean[] reduced) {
        int[][] in = new int[reduced.length][];
        int k = 0;
        for (int i = 0; i < reduced.length; i++) in[i] = reduced[i] ? null : axes[k++];
        return new Box(in);
    }

    @Override
    public boolean equals(Object o) { return o instanceof Box b && Arrays.deepEquals(axes, b.axes); }

    @Override
    public int hashCode() { return Arrays.deepHashCode(axes); }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < axes.length; i++) {
            s.append(i == 0 ? "" : ", ").append(axes[i] == null ? ":" : axes[i].length + " indices");
        }
        return s.append(']').toString();
    }
}
