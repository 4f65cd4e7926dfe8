package org.hostir.studio.ir;

/** Where a tensor lives; the letter is the one nvFuser prints in {@code T0_g_float}. */
public enum MemoryType {
    GLOBAL("g", "global"),
    LOCAL("l", "local"),
    SHARED("s", "shared");

    private final String letter;
    private final String dumpName;

    MemoryType(String letter, String dumpName) {
        this.letter = letter;
        this.dumpName = dumpName;
    }

    public String letter() { return letter; }

    /** As printed in {@code ALLOCATE(..., mem_type=global, ...)}. */
    public String dumpName() { return dumpName; }
}
