package org.hostir.studio.ir;

/** Element types of tensors and scalars, with the spelling nvFuser's dumps use. */
public enum DataType {
    FLOAT("float", "float", 4),
    BFLOAT16("bfloat16", "__bfloat", 2),
    HALF("half", "__half", 2),
    INT64("int64", "int64_t", 8);

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

    public static DataType fromFileName(String name) {
        for (DataType t : values()) {
            if (t.fileName.equals(name)) return t;
        }
        throw new IllegalArgumentException("unknown dtype '" + name + "'");
    }
}
