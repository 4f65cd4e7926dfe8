package org.hostir.studio.exec.tensor;

import org.hostir.studio.ir.DataType;

/**
 * Storage rounding. Every tensor is stored as float32; a bfloat16 or half tensor keeps only the values its dtype
 * can represent, so each store rounds to the narrower type (round to nearest, ties to even, as the hardware
 * conversions do) and widens back. Float is stored as is. Int64 tensors do not occur (int64 is for scalars), so
 * it is stored unrounded too.
 */
public final class Rounding {
    private Rounding() {}

    public static float round(float value, DataType dtype) {
        return switch (dtype) {
            case FLOAT, INT64 -> value;
            case BFLOAT16 -> toBfloat16(value);
            case HALF -> Float.float16ToFloat(Float.floatToFloat16(value));
        };
    }

    /** Whether storing in {@code dtype} can change a value: lets copy loops skip the rounding call. */
    public static boolean isExact(DataType dtype) {
        return switch (dtype) {
            case FLOAT, INT64 -> true;
            case BFLOAT16, HALF -> false;
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
