package org.hostir.studio.exec.tensor;

import org.hostir.studio.ir.DataType;

/**
 * The element loop behind {@link DenseTensor#copyFrom}: an odometer over the outer axes and one row copy per
 * innermost run. A float32-to-float32 copy keeps its float loop (a copy into float, int64 or double does not
 * round); an integer-to-integer copy keeps its long loop, wrapping into int32 ({@link Rounding#wrap}); an integer
 * into a float rounds once from the exact integer; any other copy reads and writes doubles, rounding once to the
 * destination dtype ({@link Rounding#round(double, DataType)}: a float into an integer
 * truncates toward zero). Shapes are equal and the buffers distinct.
 */
final class ElementCopy {
    private ElementCopy() {}

    /** Copies {@code n} elements stepping {@code ds} in the destination and {@code ss} in the source. */
    private interface Row {
        void copy(int d, int s, int n, int ds, int ss);
    }

    static void copy(DenseTensor dst, DenseTensor src) {
        long total = dst.numel();
        if (total == 0) return;
        int rank = dst.shape.length;
        Row row = row(dst, src);
        if (rank == 0) {
            row.copy(dst.offset, src.offset, 1, 0, 0);
            return;
        }
        int n = dst.shape[rank - 1];
        int ds = dst.strides[rank - 1];
        int ss = src.strides[rank - 1];
        int[] idx = new int[rank];
        int d = dst.offset;
        int s = src.offset;
        for (long r = total / n; r > 0; r--) {
            row.copy(d, s, n, ds, ss);
            // odometer over the outer axes
            for (int ax = rank - 2; ax >= 0; ax--) {
                d += dst.strides[ax];
                s += src.strides[ax];
                if (++idx[ax] < dst.shape[ax]) break;
                d -= dst.strides[ax] * dst.shape[ax];
                s -= src.strides[ax] * src.shape[ax];
                idx[ax] = 0;
            }
        }
    }

    private static Row row(DenseTensor dst, DenseTensor src) {
        var dtype = dst.dtype;
        if (dst.data != null && src.data != null) {
            float[] to = dst.data;
            float[] from = src.data;
            if (Rounding.isExact(dtype)) {
                return (d, s, n, ds, ss) -> { for (int i = 0; i < n; i++) to[d + i * ds] = from[s + i * ss]; };
            }
            return (d, s, n, ds, ss) -> {
                for (int i = 0; i < n; i++) to[d + i * ds] = Rounding.round(from[s + i * ss], dtype);
            };
        }
        if (dst.wide != null && src.wide != null) {
            double[] to = dst.wide;
            double[] from = src.wide;
            // double and int64 keep every double: a plain copy
            return (d, s, n, ds, ss) -> { for (int i = 0; i < n; i++) to[d + i * ds] = from[s + i * ss]; };
        }
        if (src.ints != null) return fromIntegers(dst, src);
        // between the float storages: widening is exact, narrowing rounds once to the destination dtype
        return (d, s, n, ds, ss) -> {
            for (int i = 0; i < n; i++) dst.write(d + i * ds, Rounding.round(src.read(s + i * ss), dtype));
        };
    }

    /** An integer source: wrapped into an integer, exact into double, rounded once into float. */
    private static Row fromIntegers(DenseTensor dst, DenseTensor src) {
        var dtype = dst.dtype;
        long[] from = src.ints;
        if (dst.ints != null) {
            long[] to = dst.ints;
            return (d, s, n, ds, ss) -> {
                for (int i = 0; i < n; i++) to[d + i * ds] = Rounding.wrap(from[s + i * ss], dtype);
            };
        }
        if (dst.data != null && dtype == DataType.FLOAT) {
            float[] to = dst.data;
            return (d, s, n, ds, ss) -> { for (int i = 0; i < n; i++) to[d + i * ds] = (float) from[s + i * ss]; };
        }
        return (d, s, n, ds, ss) -> {
            for (int i = 0; i < n; i++) dst.write(d + i * ds, Rounding.round((double) from[s + i * ss], dtype));
        };
    }
}
