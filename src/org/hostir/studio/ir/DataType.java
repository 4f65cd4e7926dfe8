package org.hostir.studio.ir;

/**
 * Element types of tensors and scalars, with the spelling nvFuser's dumps use ({@code data_type2string}: int32 is
 * {@code int}, int64 {@code int64_t}, the fp8 types {@code __e4m3} and {@code __e5m2}).
 */
public enum DataType {
    FLOAT("float", "float", 4),
    BFLOAT16("bfloat16", "__bfloat", 2),
    HALF("half", "__half", 2),
    INT64("int64", "int64_t", 8),
    DOUBLE("double", "double", 8),
    INT32("int32", "int", 4),
    BOOL("bool", "bool", 1),
    /** OCP e4m3 without infinities (torch's float8_e4m3fn): a matmul input type. */
    FLOAT8_E4M3FN("float8_e4m3fn", "__e4m3", 1),
    /** OCP e5m2: a matmul input type. */
    FLOAT8_E5M2("float8_e5m2", "__e5m2", 1);

    private final String fileName;
    private final String dumpName;
    private final int bytes;

    DataType(String fileName, String dumpName, int bytes) {
        this.fileName = fileName;
        this.dumpName = dumpName;
        this.bytes = bytes;
    }

    /** The name used in fusion files. */
    public String fileName() { return fileName; }

    /** The name nvFuser prints inside a tensor's name, as in {@code T0_g_float}. */
    public String dumpName() { return dumpName; }

    public int bytes() { return bytes; }

    /** nvFuser's isFloatingPointType (fp8 included). */
    public boolean isFloatingPoint() {
        return switch (this) {
            case FLOAT, BFLOAT16, HALF, DOUBLE, FLOAT8_E4M3FN, FLOAT8_E5M2 -> true;
            case INT64, INT32, BOOL -> false;
        };
    }

    public boolean isIntegral() { return this == INT64 || this == INT32; }

    public boolean isFloat8() { return this == FLOAT8_E4M3FN || this == FLOAT8_E5M2; }

    /** The short name used in nvFuser's cast function names ({@code __float2bfloat}, {@code __e4m32half}). */
    public String castName() {
        return switch (this) {
            case FLOAT -> "float";
            case BFLOAT16 -> "bfloat";
            case HALF -> "half";
            case INT64 -> "int";
            case DOUBLE -> "double";
            case INT32 -> "int32";
            case BOOL -> "bool";
            case FLOAT8_E4M3FN -> "e4m3";
            case FLOAT8_E5M2 -> "e5m2";
        };
    }

    public static DataType fromFileName(String name) {
        for (DataType t : values()) {
            if (t.fileName.equals(name)) return t;
        }
        throw new IllegalArgumentException("unknown dtype '" + name + "'");
    }
}
