package org.hostir.studio.ir.op;

/** The attributes a fusion file's op may carry, each belonging to the families whose definition lists it. */
public enum OpAttribute {
    /** Input axis positions, required and non-empty (the reductions; the one {@code dim} of the others). */
    AXES("axes", true, "the reductions, index_select, take_along_axis, topk, topk_indices and scatter"),
    /** Booleans, required (broadcast: per output axis; squeeze: per input axis; topk: [largest, sorted]). */
    FLAGS("flags", true, "broadcast, squeeze, topk and topk_indices"),
    /** Output axis i is input axis permute[i], optional (set, making it Set.Permute). */
    PERMUTE("permute", false, "set");

    private final String key;
    private final boolean required;
    private final String owners;

    OpAttribute(String key, boolean required, String owners) {
        this.key = key;
        this.required = required;
        this.owners = owners;
    }

    /** The JSON key. */
    public String key() { return key; }

    /** Whether an op that has it must write it. */
    public boolean required() { return required; }

    /** Who has it, for the message about a foreign attribute. */
    public String owners() { return owners; }
}
