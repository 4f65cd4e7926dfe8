package org.hostir.studio.ir;

import java.util.Optional;

/**
 * nvFuser's cast function names ({@code supported_casts2string} in csrc/type.cpp) for the dtypes of this IR; a
 * pair without a name is a cast nvFuser refuses ("Illegal Cast value"), e.g. fp8 to or from an integer.
 */
public final class CastFunctions {
    private CastFunctions() {}

    public static Optional<String> name(DataType from, DataType to) {
        if (from == to) return Optional.empty();
        return Optional.ofNullable(switch (to) {
            case FLOAT, DOUBLE, INT32, INT64, BOOL -> toWide(from, to);
            case HALF, BFLOAT16 -> toHalfLike(from, to);
            case FLOAT8_E4M3FN, FLOAT8_E5M2 -> from.isFloatingPoint() && !from.isFloat8()
                    ? "__" + from.castName() + "2" + to.castName() : null;
        });
    }

    /** Float, double, the integers and bool: the generic {@code __to_X} from non-16-bit types. */
    private static String toWide(DataType from, DataType to) {
        String generic = switch (to) {
            case FLOAT -> "__to_float";
            case DOUBLE -> "__to_double";
            case INT32 -> "__to_int32";
            case INT64 -> "__to_int64";
            default -> "__to_bool";
        };
        return switch (from) {
            case FLOAT, DOUBLE, INT32, INT64, BOOL -> generic;
            case HALF, BFLOAT16 -> "__" + from.castName() + "2" + (to == DataType.INT64 ? "int" : to.castName());
            case FLOAT8_E4M3FN, FLOAT8_E5M2 ->
                    to == DataType.FLOAT || to == DataType.DOUBLE ? "__" + from.castName() + "2" + to.castName() : null;
        };
    }

    private static String toHalfLike(DataType from, DataType to) {
        String target = to.castName();
        return switch (from) {
            case INT32, INT64 -> "__int2" + target;
            case FLOAT, DOUBLE, BOOL, HALF, BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2 -> "__" + from.castName() + "2" + target;
        };
    }
}
