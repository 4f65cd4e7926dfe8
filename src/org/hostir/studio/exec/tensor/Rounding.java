package org.hostir.studio.exec.tensor;

import org.hostir.studio.ir.DataType;

/**
 * Storage rounding. Every tensor is stored as float32; a bfloat16 or half tensor keeps only the values its dtype
 * can represent, so each store rounds to the narrower type (round to nearest, ties to even, as the hardware
 * conversions do) and widens back; fp8 likewise ({@link Float8}); int32 truncates toward zero and bool keeps 0 or
 * 1. Float is stored as is. Int64 and double are stored unrounded in float32: the CPU backend and the reference
 * compute in float32 for every dtype, so a double tensor carries float32 precision there (docs/validation.md).
 */
public final class Rounding {
    private Rounding() {}

    public static float round(float value, DataType dtype) {
        return switch (dtype) {
            case FLOAT, INT64, DOUBLE -> value;
            case BFLOAT16 -> toBfloat16(value);
            case HALF -> Float.float16ToFloat(Float.floatToFloat16(value));
            // a store into an integer truncates toward zero, as C's conversion (nvFuser's __to_int32) does
            case INT32 -> Float.isNaN(value) ? 0 : (float) (int) value;
            case BOOL -> value != 0 ? 1 : 0;
            case FLOAT8_E4M3FN, FLOAT8_E5M2 -> Float8.round(value, dtype);
        };
    }

    /** Whether storing in {@code dtype} can change a value: lets copy loops skip the rounding call. */
    public static boolean isExact(DataType dtype) {
        return switch (dtype) {
            case FLOAT, INT64, DOUBLE -> true;
            case BFLOAT16, HALF, INT32, BOOL, FLOAT8_E4M3FN, FLOAT8_E5M2 -> false;
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
