package org.hostir.studio.ir;

/**
 * Where a tensor lives; the letter is the one nvFuser prints in {@code T0_g_float} (TensorView::toString,
 * csrc/tensor_view.cpp:64-86 at 81c4b22fd), the dump name the one {@code ALLOCATE(.., mem_type=..)} prints.
 */
public enum MemoryType {
    GLOBAL("g", "global"),
    LOCAL("l", "local"),
    SHARED("s", "shared"),
    /**
     * nvFuser's {@code MemoryType::Symmetric} (#5520): global memory every device of the team can map, allocated
     * through the symmetric-memory allocator; printed {@code T0_sym_float}, {@code mem_type=symmetric}
     * (csrc/type.cpp:851).
     */
    SYMMETRIC("sym", "symmetric");

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
