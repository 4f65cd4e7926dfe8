package org.hostir.studio.exec.tensor;

import org.hostir.studio.ir.DataType;

/**
 * Storage rounding. A tensor is stored as float32, as float64 for double ({@link DenseTensor#isWide}), or as
 * int64 for int64 and int32 ({@link DenseTensor#isIntegral}); a bfloat16 or half tensor keeps only the values its
 * dtype can represent, so each store rounds to the narrower type (round to nearest, ties to even, as the hardware
 * conversions do) and widens back; fp8 likewise ({@link Float8}); a float stored into an integer truncates toward
 * zero (C's conversion, nvFuser's cast functions), an integer into int32 wraps to 32 bits ({@link #wrap}), and
 * bool keeps 0 or 1. Float is stored as is, double as is in float64.
 */
public final class Rounding {
    private Rounding() {}

    public static float round(float value, DataType dtype) {
        return switch (dtype) {
            case FLOAT, DOUBLE -> value;
            case BFLOAT16 -> toBfloat16(value);
            case HALF -> Float.float16ToFloat(Float.floatToFloat16(value));
            // a store into an integer truncates toward zero, as C's conversion (nvFuser's __to_int32) does
            case INT32 -> Float.isNaN(value) ? 0 : (float) (int) value;
            case INT64 -> Float.isNaN(value) ? 0 : (float) (long) value;
            case BOOL -> value != 0 ? 1 : 0;
            case FLOAT8_E4M3FN, FLOAT8_E5M2 -> Float8.round(value, dtype);
        };
    }

    /**
     * {@code value} rounded once to {@code dtype}, for a store from float64: double keeps it, the integers
     * truncate toward zero, float
     * rounds to nearest, and the narrower floats round through float32 with round-to-odd, which makes the two
     * roundings equal a direct one (float32 has at least two more significand bits than each of them).
     */
    public static double round(double value, DataType dtype) {
        return switch (dtype) {
            case DOUBLE -> value;
            case FLOAT -> (float) value;
            case BFLOAT16, HALF, FLOAT8_E4M3FN, FLOAT8_E5M2 -> round(toOddFloat(value), dtype);
            case INT32 -> Double.isNaN(value) ? 0 : (double) (int) value;
            case INT64 -> Double.isNaN(value) ? 0 : (double) (long) value;
            case BOOL -> value != 0 ? 1 : 0;
        };
    }

    /** float32 nearest to {@code value} rounded to odd: an inexact result is truncated and gets its last bit set. */
    static float toOddFloat(double value) {
        float f = (float) value;
        if (f == value || Double.isNaN(value) || Float.isInfinite(f)) return f;
        int bits = Float.floatToRawIntBits(f);
        if (Math.abs((double) f) > Math.abs(value)) bits--; // one step toward zero, in either sign
        return Float.intBitsToFloat(bits | 1);
    }

    /** Whether storing in {@code dtype} can change a value: lets copy loops skip the rounding call. */
    public static boolean isExact(DataType dtype) {
        return switch (dtype) {
            case FLOAT, DOUBLE -> true;
            case BFLOAT16, HALF, INT64, INT32, BOOL, FLOAT8_E4M3FN, FLOAT8_E5M2 -> false;
        };
    }

    /**
     * An integer result stored into {@code dtype}: int32 keeps the low 32 bits as two's complement (C++'s and
     * PyTorch's int32 arithmetic wraps: {@code torch.tensor([65536], dtype=torch.int32) * 65536} is 0), int64
     * keeps it (long arithmetic already wraps at 2^64), bool is 0 or 1.
     */
    public static long wrap(long value, DataType dtype) {
        return switch (dtype) {
            case INT32 -> (int) value;
            case BOOL -> value != 0 ? 1 : 0;
            case INT64, FLOAT, DOUBLE, BFLOAT16, HALF, FLOAT8_E4M3FN, FLOAT8_E5M2 -> value;
        };
    }

    /**
     * bfloat16 is the upper half of a float32: add half an ulp of the kept part (minus one when the kept part is
     * even, so a tie goes to the even neighbour), then drop the low 16 bits. NaN is returned as is, since the
     * carry could turn a NaN's payload into infinity.
     */
    static float toBfloat16(float value) {
        int bits = Float.floatToRawIntBits(value);
        if ((bits & 0x7fffffff) > 0x7f800000) return value;
        int keptLsb = (bits >>> 16) & 1;
        bits += 0x7fff + keptLsb;
        return Float.intBitsToFloat(bits & 0xffff0000);
    }
}
