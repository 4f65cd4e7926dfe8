package org.hostir.studio.exec.tensor;

import org.hostir.studio.ir.DataType;

/**
 * The two OCP fp8 formats as PyTorch converts to them (c10's fp8 conversions): e4m3fn (bias 7, 3 mantissa bits,
 * largest 448, no infinity: a larger value becomes NaN) and e5m2 (bias 15, 2 mantissa bits, largest 57344, a
 * larger value becomes infinity). Rounding is to nearest, ties to even, with subnormals.
 */
public final class Float8 {
    private Float8() {}

    private record Format(int mantissaBits, int bias, float max, boolean nanOnOverflow) {
        int minExponent() { return 1 - bias; }
    }

    private static final Format E4M3FN = new Format(3, 7, 448f, true);
    private static final Format E5M2 = new Format(2, 15, 57344f, false);

    private static Format format(DataType t) {
        return switch (t) {
            case FLOAT8_E4M3FN -> E4M3FN;
            case FLOAT8_E5M2 -> E5M2;
            case FLOAT, BFLOAT16, HALF, INT64, DOUBLE, INT32, BOOL ->
                    throw new IllegalArgumentException(t.fileName() + " is not an fp8 type");
        };
    }

    /** {@code value} rounded to the nearest value of the fp8 type, widened back to float. */
    public static float round(float value, DataType type) {
        Format f = format(type);
        if (Float.isNaN(value) || Float.isInfinite(value)) return f.nanOnOverflow ? Float.NaN : value;
        float a = Math.abs(value);
        if (a == 0) return value;
        int e = Math.max(Math.getExponent(a), f.minExponent());
        double quantum = Math.scalb(1.0, e - f.mantissaBits);
        double q = Math.rint(a / quantum) * quantum;
        if (q > f.max) return f.nanOnOverflow ? Float.NaN : Math.copySign(Float.POSITIVE_INFINITY, value);
        return Math.copySign((float) q, value);
    }

    /** The byte of {@code value} in the fp8 type (for device buffers). */
    public static byte encode(float value, DataType type) {
        Format f = format(type);
        float q = round(value, type);
        int sign = (Float.floatToRawIntBits(q) >>> 31) << 7;
        int expField = (1 << (7 - f.mantissaBits)) - 1;
        if (Float.isNaN(q)) return (byte) 0x7f;
        if (Float.isInfinite(q)) return (byte) (sign | expField << f.mantissaBits);
        float a = Math.abs(q);
        if (a == 0) return (byte) sign;
        int e = Math.getExponent(a);
        if (e < f.minExponent()) {
            int m = (int) Math.round(a / Math.scalb(1.0, f.minExponent() - f.mantissaBits));
            return (byte) (sign | m);
        }
        int m = (int) Math.round(a / Math.scalb(1.0, e - f.mantissaBits)) - (1 << f.mantissaBits);
        return (byte) (sign | (e + f.bias) << f.mantissaBits | m);
    }

    public static float decode(byte bits, DataType type) {
        Format f = format(type);
        int b = bits & 0xff;
        int sign = b >>> 7;
        int exp = (b >>> f.mantissaBits) & ((1 << (7 - f.mantissaBits)) - 1);
        int m = b & ((1 << f.mantissaBits) - 1);
        int expMax = (1 << (7 - f.mantissaBits)) - 1;
        float v;
        if (f.nanOnOverflow && exp == expMax && m == (1 << f.mantissaBits) - 1) {
            v = Float.NaN;
        } else if (!f.nanOnOverflow && exp == expMax) {
            v = m == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
        } else if (exp == 0) {
            v = (float) Math.scalb((double) m, f.minExponent() - f.mantissaBits);
        } else {
            v = (float) Math.scalb((double) (m + (1 << f.mantissaBits)), exp - f.bias - f.mantissaBits);
        }
        return sign == 1 ? -v : v;
    }
}
