package org.hostir.studio.exec.tensor;

import java.util.Arrays;
import java.util.Objects;

import org.hostir.studio.ir.DataType;

/**
 * A host tensor: a strided view over a float32 buffer, a float64 one for double ({@link #isWide(DataType)}: it
 * computes in float64 as PyTorch does), or an int64 one for the integer dtypes ({@link #isIntegral(DataType)}:
 * int64 and int32 hold every value exactly and compute in 64-bit integers, an int32 store wrapping to 32 bits as
 * two's complement, as PyTorch's and C++'s integer arithmetic do).
 * Views ({@link #select}, {@link #narrow}, {@link #permute}, {@link #expand}, {@link #unsqueeze}, a
 * {@link #reshape} of a contiguous tensor) share the buffer, so writing into a view writes into the tensor it
 * was taken from, which is what {@code HirAliasSelect} needs. Every store rounds to the dtype ({@link Rounding});
 * arithmetic is float32 into a float32 buffer and float64 into a float64 one (the kernels pick by the output's
 * storage, {@link #storedAs}).
 *
 * <p>Runtime convention (the evaluator and the kernels follow it): a tensor's shape is its TensorView's axes
 * without the reduction axes, in order; a broadcast axis has size 1; a DID axis has its full extent in the
 * unsharded world and size 1 in a rank's local tensor.
 *
 * <p>Shapes, strides and indices are {@code long} in the API, like the backends' buffers, and {@code int}
 * inside: a Java array cannot hold more than 2^31 elements anyway.
 */
public final class DenseTensor {
    /** The float32 storage, or null for a wide tensor. */
    final float[] data;
    /** The float64 storage of a double tensor, else null. */
    final double[] wide;
    /** The int64 storage of an int32 or int64 tensor, else null. */
    final long[] ints;
    final int offset;
    final int[] shape;
    final int[] strides;
    final DataType dtype;

    private DenseTensor(float[] data, double[] wide, long[] ints, int offset, int[] shape, int[] strides,
                        DataType dtype) {
        this.data = data;
        this.wide = wide;
        this.ints = ints;
        this.offset = offset;
        this.shape = shape;
        this.strides = strides;
        this.dtype = Objects.requireNonNull(dtype, "dtype");
    }

    /** A view of this tensor's storage. */
    private DenseTensor view(int off, int[] s, int[] st) {
        return new DenseTensor(data, wide, ints, off, s, st, dtype);
    }

    public static DenseTensor zeros(long[] shape, DataType dtype) {
        int[] s = toInts(shape);
        int n = checkedNumel(s);
        int[] st = contiguousStrides(s);
        if (isIntegral(dtype)) return new DenseTensor(null, null, new long[n], 0, s, st, dtype);
        return isWide(dtype) ? new DenseTensor(null, new double[n], null, 0, s, st, dtype)
                : new DenseTensor(new float[n], null, null, 0, s, st, dtype);
    }

    /**
     * Whether {@code dtype} is held in float64: double. The integer dtypes are held in int64
     * ({@link #isIntegral(DataType)}), every other dtype in float32, which holds all of its values.
     */
    public static boolean isWide(DataType dtype) { return dtype == DataType.DOUBLE; }

    /**
     * Whether {@code dtype} is held in int64: int64 and int32. float32 held integers exactly only to 2^24, float64
     * to 2^53, and neither wraps on overflow as PyTorch's integer tensors do (an int32 product of 1080450000 came
     * out -1080450048).
     */
    public static boolean isIntegral(DataType dtype) { return dtype.isIntegral(); }

    /** Bytes one element takes on the host: 8 for double and the integers (a {@code long[]}), else 4. */
    public static int hostBytes(DataType dtype) {
        return isWide(dtype) || isIntegral(dtype) ? Double.BYTES : Float.BYTES;
    }

    public boolean isWide() { return wide != null; }

    public boolean isIntegral() { return ints != null; }

    public static DenseTensor zeros(DataType dtype, long... shape) { return zeros(shape, dtype); }

    /** A new tensor holding {@code values} in row-major order, rounded to the dtype. */
    public static DenseTensor of(DataType dtype, long[] shape, float... values) {
        DenseTensor t = zeros(shape, dtype);
        if (values.length != t.numel()) {
            throw new IllegalArgumentException(values.length + " values for shape " + Arrays.toString(shape));
        }
        for (int i = 0; i < values.length; i++) t.write(i, Rounding.round(values[i], dtype));
        return t;
    }

    /** A new tensor holding {@code values} in row-major order, rounded to the dtype (exact for a wide one). */
    public static DenseTensor ofDoubles(DataType dtype, long[] shape, double... values) {
        DenseTensor t = zeros(shape, dtype);
        if (values.length != t.numel()) {
            throw new IllegalArgumentException(values.length + " values for shape " + Arrays.toString(shape));
        }
        for (int i = 0; i < values.length; i++) t.write(i, Rounding.round(values[i], dtype));
        return t;
    }

    /** A new integer tensor holding {@code values} in row-major order, wrapped to the dtype. */
    public static DenseTensor ofLongs(DataType dtype, long[] shape, long... values) {
        if (!isIntegral(dtype)) throw new IllegalArgumentException(dtype.fileName() + " is not an integer dtype");
        DenseTensor t = zeros(shape, dtype);
        if (values.length != t.numel()) {
            throw new IllegalArgumentException(values.length + " values for shape " + Arrays.toString(shape));
        }
        for (int i = 0; i < values.length; i++) t.writeLong(i, values[i]);
        return t;
    }

    public DataType dtype() { return dtype; }

    public int rank() { return shape.length; }

    public long[] shape() { return toLongs(shape); }

    public long size(int axis) { return shape[checkAxis(axis)]; }

    /** Element strides of the view, for backends that read the buffer directly. */
    public long[] strides() { return toLongs(strides); }

    /** Position of element [0, .., 0] in {@link #buffer()} (or {@link #wideBuffer()}). */
    public int offset() { return offset; }

    /** The shared float32 storage (null for a wide or integer tensor); writes through it bypass rounding. */
    public float[] buffer() { return data; }

    /** The shared float64 storage of a wide tensor (else null); writes through it bypass rounding. */
    public double[] wideBuffer() { return wide; }

    /** The shared int64 storage of an integer tensor (else null); writes through it bypass the int32 wrap. */
    public long[] intBuffer() { return ints; }

    public long numel() {
        long n = 1;
        for (int s : shape) n *= s;
        return n;
    }

    /** Bytes the tensor occupies in its dtype (not in the host storage): what a device would allocate. */
    public long bytes() { return numel() * dtype.bytes(); }

    public boolean sharesBuffer(DenseTensor other) { return array() == other.array(); }

    /** The storage array, float[], double[] or long[]: identity tells whether two tensors share it. */
    Object array() { return ints != null ? ints : wide != null ? wide : data; }

    /** Row-major and dense; axes of size 1 may have any stride, as they are never stepped over. */
    public boolean isContiguous() {
        int expected = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            if (shape[i] == 1) continue;
            if (strides[i] != expected) return false;
            expected *= shape[i];
        }
        return true;
    }

    /** The view at {@code index} along {@code axis}, that axis dropped. */
    public DenseTensor select(int axis, long index) {
        checkAxis(axis);
        int i = checkIndex(index, shape[axis], "index");
        return view(offset + i * strides[axis], remove(shape, axis), remove(strides, axis));
    }

    /** The view of {@code length} elements from {@code start} along {@code axis}; the axis stays. */
    public DenseTensor narrow(int axis, long start, long length) {
        checkAxis(axis);
        if (start < 0 || length < 0 || start + length > shape[axis]) {
            throw new IndexOutOfBoundsException("narrow(" + axis + ", " + start + ", " + length + ") of shape "
                    + Arrays.toString(shape));
        }
        int[] s = shape.clone();
        s[axis] = (int) length;
        int off = length == 0 ? offset : offset + (int) start * strides[axis];
        return view(off, s, strides.clone());
    }

    /** Same as {@link #narrow}; the name the evaluator's slices use. */
    public DenseTensor slice(int axis, long start, long length) { return narrow(axis, start, length); }

    /** Axis i of the view is axis {@code perm[i]} of this tensor. */
    public DenseTensor permute(int... perm) {
        if (perm.length != shape.length) {
            throw new IllegalArgumentException("permutation " + Arrays.toString(perm) + " for rank " + rank());
        }
        boolean[] seen = new boolean[perm.length];
        int[] s = new int[perm.length];
        int[] st = new int[perm.length];
        for (int i = 0; i < perm.length; i++) {
            int p = perm[i];
            if (p < 0 || p >= perm.length || seen[p]) {
                throw new IllegalArgumentException(Arrays.toString(perm) + " is not a permutation");
            }
            seen[p] = true;
            s[i] = shape[p];
            st[i] = strides[p];
        }
        return view(offset, s, st);
    }

    /** A view with a new axis of size 1 at {@code axis} (0..rank). */
    public DenseTensor unsqueeze(int axis) {
        if (axis < 0 || axis > shape.length) throw new IndexOutOfBoundsException("unsqueeze axis " + axis);
        return view(offset, insert(shape, axis, 1), insert(strides, axis, 0));
    }

    /**
     * A read-only-by-convention view that repeats size-1 axes (stride 0) to {@code newShape}; new leading axes
     * may be added, as in {@code torch.expand}. Writing into it writes the same element many times.
     */
    public DenseTensor expand(long... newShape) {
        int[] target = toInts(newShape);
        int lead = target.length - shape.length;
        if (lead < 0) throw new IllegalArgumentException("cannot expand rank " + rank() + " to " + target.length);
        int[] st = new int[target.length];
        for (int i = 0; i < shape.length; i++) {
            int t = target[lead + i];
            if (shape[i] == t) {
                st[lead + i] = strides[i];
            } else if (shape[i] == 1) {
                st[lead + i] = 0;
            } else {
                throw new IllegalArgumentException("cannot expand " + Arrays.toString(shape) + " to "
                        + Arrays.toString(target));
            }
        }
        return view(offset, target, st);
    }

    /** A view with another shape of the same numel when contiguous, else a reshaped copy. */
    public DenseTensor reshape(long... newShape) {
        int[] s = toInts(newShape);
        if (checkedNumel(s) != numel()) {
            throw new IllegalArgumentException("cannot reshape " + Arrays.toString(shape) + " to "
                    + Arrays.toString(s));
        }
        DenseTensor c = contiguous();
        return c.view(c.offset, s, contiguousStrides(s));
    }

    /** This tensor when it is contiguous (no copy, as {@code torch.contiguous}), else a contiguous copy. */
    public DenseTensor contiguous() { return isContiguous() ? this : copy(); }

    /** A new contiguous tensor with the same values and dtype, sharing nothing. */
    public DenseTensor copy() {
        DenseTensor c = zeros(shape(), dtype);
        c.copyFrom(this);
        return c;
    }

    /** One element, narrowed to float32 for a wide tensor ({@link #getDouble} reads it exactly). */
    public float get(long... index) { return (float) read(position(index)); }

    public double getDouble(long... index) { return read(position(index)); }

    /** One element as an integer, exactly for an integer tensor (a float one's value truncated toward zero). */
    public long getLong(long... index) { return readLong(position(index)); }

    /** Stores one element, rounded to the dtype. */
    public void set(float value, long... index) { write(position(index), Rounding.round(value, dtype)); }

    /** Stores one element, rounded to the dtype (exactly, from double, for every dtype). */
    public void setDouble(double value, long... index) { write(position(index), Rounding.round(value, dtype)); }

    public void fill(float value) {
        copyFrom(of(DataType.FLOAT, new long[0], value).expand(shape()));
    }

    /**
     * The values in row-major order; a wide tensor's narrowed to float32, an integer one's rounded to float32
     * ({@link #toDoubleArray} and {@link #toLongArray} keep them).
     */
    public float[] toArray() {
        DenseTensor c = contiguous();
        if (c.data != null) return c == this ? Arrays.copyOfRange(data, offset, offset + (int) numel()) : c.data;
        float[] out = new float[(int) numel()];
        for (int i = 0; i < out.length; i++) {
            out[i] = c.ints != null ? (float) c.ints[c.offset + i] : (float) c.wide[c.offset + i];
        }
        return out;
    }

    /** The values in row-major order, exactly (an int64 beyond 2^53 rounded to the nearest double). */
    public double[] toDoubleArray() {
        DenseTensor c = contiguous();
        if (c.wide != null) return c == this ? Arrays.copyOfRange(wide, offset, offset + (int) numel()) : c.wide;
        double[] out = new double[(int) numel()];
        for (int i = 0; i < out.length; i++) out[i] = c.read(c.offset + i);
        return out;
    }

    /** The values of an integer tensor in row-major order, exactly. */
    public long[] toLongArray() {
        DenseTensor c = contiguous();
        if (c.ints != null) return c == this ? Arrays.copyOfRange(ints, offset, offset + (int) numel()) : c.ints;
        long[] out = new long[(int) numel()];
        for (int i = 0; i < out.length; i++) out[i] = c.readLong(c.offset + i);
        return out;
    }

    /** Element at storage position {@code pos}, widened to double. */
    double read(int pos) { return ints != null ? ints[pos] : wide != null ? wide[pos] : data[pos]; }

    /** Element at storage position {@code pos} as an integer: exact for an integer tensor, else truncated. */
    long readLong(int pos) { return ints != null ? ints[pos] : (long) read(pos); }

    /**
     * Stores at storage position {@code pos} without rounding to the dtype (a float32 store rounds to float; an
     * integer store truncates toward zero, so pass a value {@link Rounding} rounded).
     */
    void write(int pos, double value) {
        if (ints != null) ints[pos] = (long) value;
        else if (wide != null) wide[pos] = value;
        else data[pos] = (float) value;
    }

    /** Stores an integer into an integer tensor, wrapped to its dtype ({@link Rounding#wrap}). */
    void writeLong(int pos, long value) { ints[pos] = Rounding.wrap(value, dtype); }

    /** The storage a kernel computes in: float32, float64 (double) or int64 (the integer dtypes). */
    enum Storage {
        FLOAT32(DataType.FLOAT), FLOAT64(DataType.DOUBLE), INT64(DataType.INT64);

        /** The dtype of a converted operand in this storage. */
        final DataType dtype;

        Storage(DataType dtype) { this.dtype = dtype; }
    }

    Storage storage() { return ints != null ? Storage.INT64 : wide != null ? Storage.FLOAT64 : Storage.FLOAT32; }

    /**
     * This tensor where its storage is {@code storage}, else a contiguous copy converted to it: how an op mixing
     * storages computes (widening is exact, narrowing rounds once, a float into an integer truncates).
     */
    DenseTensor storedAs(Storage storage) {
        if (storage() == storage) return this;
        DenseTensor c = zeros(shape(), storage.dtype);
        c.copyFrom(this);
        return c;
    }

    /** {@link #storedAs(Storage)} in the storage of {@code out}. */
    DenseTensor storedLike(DenseTensor out) { return storedAs(out.storage()); }

    /**
     * Writes {@code src} into this view element by element, rounding to this tensor's dtype. Shapes must be
     * equal (expand {@code src} first to broadcast). A source that shares this buffer is read in full before
     * anything is written, so overlapping views copy as if through a temporary.
     */
    public void copyFrom(DenseTensor src) {
        if (!Arrays.equals(shape, src.shape)) {
            throw new IllegalArgumentException("copy of shape " + Arrays.toString(src.shape) + " into shape "
                    + Arrays.toString(shape));
        }
        if (src.array() == array()) src = src.copy();
        ElementCopy.copy(this, src);
    }

    /** Rounds every element of this (contiguous, freshly computed) tensor to its dtype in place. */
    void roundInPlace() {
        if (Rounding.isExact(dtype) || ints != null) return; // integer kernels store wrapped values
        int n = (int) numel();
        for (int i = offset; i < offset + n; i++) data[i] = Rounding.round(data[i], dtype);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("DenseTensor[").append(dtype.fileName()).append(' ')
                .append(Arrays.toString(shape)).append("]{");
        int n = (int) Math.min(numel(), 16);
        DenseTensor c = contiguous();
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ", ");
            if (isIntegral()) b.append(c.ints[c.offset + i]);
            else if (isWide()) b.append(c.wide[c.offset + i]);
            else b.append(c.data[c.offset + i]);
        }
        return b.append(numel() > 16 ? ", ..}" : "}").toString();
    }

    private int position(long[] index) {
        if (index.length != shape.length) {
            throw new IllegalArgumentException("index of rank " + index.length + " for shape " + Arrays.toString(shape));
        }
        int p = offset;
        for (int i = 0; i < index.length; i++) p += checkIndex(index[i], shape[i], "index") * strides[i];
        return p;
    }

    private int checkAxis(int axis) {
        if (axis < 0 || axis >= shape.length) {
            throw new IndexOutOfBoundsException("axis " + axis + " of a tensor of rank " + shape.length);
        }
        return axis;
    }

    private static int checkIndex(long index, int size, String what) {
        if (index < 0 || index >= size) throw new IndexOutOfBoundsException(what + " " + index + " of size " + size);
        return (int) index;
    }

    static int[] contiguousStrides(int[] shape) {
        int[] st = new int[shape.length];
        int s = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            st[i] = s;
            s *= Math.max(shape[i], 1);
        }
        return st;
    }

    static int checkedNumel(int[] shape) {
        long n = 1;
        for (int s : shape) {
            if (s < 0) throw new IllegalArgumentException("negative size in " + Arrays.toString(shape));
            n *= s;
            if (n > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("tensor too large: " + Arrays.toString(shape));
        }
        return (int) n;
    }

    static int[] toInts(long[] shape) {
        int[] s = new int[shape.length];
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] < 0 || shape[i] > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("size " + shape[i] + " out of range in " + Arrays.toString(shape));
            }
            s[i] = (int) shape[i];
        }
        return s;
    }

    static long[] toLongs(int[] a) {
        long[] l = new long[a.length];
        for (int i = 0; i < a.length; i++) l[i] = a[i];
        return l;
    }

    private static int[] remove(int[] a, int at) {
        int[] r = new int[a.length - 1];
        System.arraycopy(a, 0, r, 0, at);
        System.arraycopy(a, at + 1, r, at, a.length - at - 1);
        return r;
    }

    private static int[] insert(int[] a, int at, int value) {
        int[] r = new int[a.length + 1];
        System.arraycopy(a, 0, r, 0, at);
        r[at] = value;
        System.arraycopy(a, at, r, at + 1, a.length - at);
        return r;
    }
}
