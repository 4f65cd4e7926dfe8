package org.hostir.studio.exec.cuda;

import java.util.Arrays;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.ir.DataType;

/**
 * A strided view of device memory: element {@code (i0, i1, ...)} lives at {@code base + (offset + sum i_k *
 * strides[k]) * dtype.bytes()}. Views share {@code block}, the allocation that owns the memory (null for views).
 */
record CudaBuffer(CudaDevice device, long base, long offset, long[] shape, long[] strides, DataType dtype,
                  Block block) implements Buffer {

    /** An allocation of the caching allocator. */
    record Block(long pointer, long bytes) {}

    static CudaBuffer of(Buffer b) {
        if (!(b instanceof CudaBuffer c)) throw new IllegalArgumentException("not a CUDA buffer: " + b);
        return c;
    }

    long address() { return base + offset * dtype.bytes(); }

    static long[] contiguousStrides(long[] shape) {
        long[] s = new long[shape.length];
        long acc = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            s[i] = acc;
            acc *= shape[i];
        }
        return s;
    }

    boolean contiguous() {
        long acc = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            if (shape[i] != 1 && strides[i] != acc) return false;
            acc *= shape[i];
        }
        return true;
    }

    CudaBuffer select(int axis, long index) {
        return new CudaBuffer(device, base, offset + index * strides[axis], drop(shape, axis), drop(strides, axis),
                dtype, null);
    }

    CudaBuffer narrow(int axis, long start, long length) {
        long[] s = shape.clone();
        s[axis] = length;
        return new CudaBuffer(device, base, offset + start * strides[axis], s, strides.clone(), dtype, null);
    }

    CudaBuffer permute(int[] perm) {
        long[] s = new long[perm.length];
        long[] st = new long[perm.length];
        for (int i = 0; i < perm.length; i++) {
            s[i] = shape[perm[i]];
            st[i] = strides[perm[i]];
        }
        return new CudaBuffer(device, base, offset, s, st, dtype, null);
    }

    /** The same elements in another shape; only for contiguous buffers. */
    CudaBuffer reshape(long[] newShape) {
        if (!contiguous()) throw new IllegalStateException("reshape of a strided view");
        return new CudaBuffer(device, base, offset, newShape.clone(), contiguousStrides(newShape), dtype, null);
    }

    private static long[] drop(long[] a, int i) {
        long[] r = new long[a.length - 1];
        System.arraycopy(a, 0, r, 0, i);
        System.arraycopy(a, i + 1, r, i, a.length - i - 1);
        return r;
    }

    @Override
    public String toString() {
        return "CudaBuffer" + Arrays.toString(shape) + " " + dtype.fileName() + " on rank " + device.rank();
    }

    @Override
    public boolean equals(Object o) { return this == o; }

    @Override
    public int hashCode() { return System.identityHashCode(this); }
}
