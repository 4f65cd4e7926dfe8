package org.hostir.studio.exec.cuda;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Float8;
import org.hostir.studio.ir.DataType;

/**
 * A host tensor's values as the bytes of a device buffer's elements, and back (the staging memory of
 * {@link CudaDevice#upload} and {@link CudaDevice#download}): float32 host tensors for the narrow dtypes, float64
 * ones for double and int64 ones for int32 and int64, as {@link DenseTensor} holds them (the integers exactly).
 */
final class HostElements {
    private HostElements() {}

    /** {@code host}'s values stored in {@code seg} as its dtype's elements. */
    static void store(MemorySegment seg, DenseTensor host) {
        if (host.isIntegral()) {
            long[] values = host.toLongArray();
            for (int i = 0; i < values.length; i++) {
                if (host.dtype() == DataType.INT32) seg.setAtIndex(ValueLayout.JAVA_INT, i, (int) values[i]);
                else seg.setAtIndex(ValueLayout.JAVA_LONG, i, values[i]);
            }
        } else if (host.isWide()) {
            storeWide(seg, host.toDoubleArray());
        } else {
            storeNarrow(seg, host.toArray(), host.dtype());
        }
    }

    /** The {@code n} elements of {@code dtype} in {@code seg} as a host tensor of {@code shape}. */
    static DenseTensor load(MemorySegment seg, int n, DataType dtype, long[] shape) {
        if (DenseTensor.isIntegral(dtype)) {
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = dtype == DataType.INT32 ? seg.getAtIndex(ValueLayout.JAVA_INT, i)
                        : seg.getAtIndex(ValueLayout.JAVA_LONG, i);
            }
            return DenseTensor.ofLongs(dtype, shape, values);
        }
        return DenseTensor.isWide(dtype) ? DenseTensor.ofDoubles(dtype, shape, wideValues(seg, n))
                : DenseTensor.of(dtype, shape, narrowValues(seg, n, dtype));
    }

    /** A buffer's elements as the floats a float32 host tensor holds (the dtypes DenseTensor does not hold wide). */
    private static float[] narrowValues(MemorySegment seg, int n, DataType dtype) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = switch (dtype) {
                case FLOAT -> seg.getAtIndex(ValueLayout.JAVA_FLOAT, i);
                case BFLOAT16 -> Float.intBitsToFloat((seg.getAtIndex(ValueLayout.JAVA_SHORT, i) & 0xffff) << 16);
                case HALF -> Float.float16ToFloat(seg.getAtIndex(ValueLayout.JAVA_SHORT, i));
                case BOOL -> seg.getAtIndex(ValueLayout.JAVA_BYTE, i) != 0 ? 1 : 0;
                case FLOAT8_E4M3FN, FLOAT8_E5M2 -> Float8.decode(seg.getAtIndex(ValueLayout.JAVA_BYTE, i), dtype);
                case INT64, INT32, DOUBLE -> throw new IllegalStateException(dtype + " is not held in float32");
            };
        }
        return values;
    }

    /** A double buffer's elements as the doubles a wide host tensor holds. */
    private static double[] wideValues(MemorySegment seg, int n) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) values[i] = seg.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
        return values;
    }

    /** A wide host tensor's doubles stored as double elements. */
    private static void storeWide(MemorySegment seg, double[] values) {
        for (int i = 0; i < values.length; i++) seg.setAtIndex(ValueLayout.JAVA_DOUBLE, i, values[i]);
    }

    /** {@code values} stored in {@code seg} as {@code dtype}'s elements. */
    private static void storeNarrow(MemorySegment seg, float[] values, DataType dtype) {
        ElementStore store = switch (dtype) {
            case FLOAT -> (i, v) -> seg.setAtIndex(ValueLayout.JAVA_FLOAT, i, v);
            case BFLOAT16 -> (i, v) -> seg.setAtIndex(ValueLayout.JAVA_SHORT, i, toBf16(v));
            case HALF -> (i, v) -> seg.setAtIndex(ValueLayout.JAVA_SHORT, i, Float.floatToFloat16(v));
            case BOOL -> (i, v) -> seg.setAtIndex(ValueLayout.JAVA_BYTE, i, (byte) (v != 0 ? 1 : 0));
            case FLOAT8_E4M3FN, FLOAT8_E5M2 -> (i, v) -> seg.setAtIndex(ValueLayout.JAVA_BYTE, i, Float8.encode(v, dtype));
            case INT64, INT32, DOUBLE -> throw new IllegalStateException(dtype + " is not held in float32");
        };
        for (int i = 0; i < values.length; i++) store.set(i, values[i]);
    }

    @FunctionalInterface
    private interface ElementStore {
        void set(int index, float value);
    }

    static short toBf16(float v) {
        if (Float.isNaN(v)) return (short) 0x7fc0;
        int u = Float.floatToRawIntBits(v);
        return (short) ((u + 0x7fff + ((u >>> 16) & 1)) >>> 16);
    }
}
