package org.hostir.studio.ir.op;

/** The attributes a fusion file's op may carry, each belonging to the families whose definition lists it. */
public enum OpAttribute {
    /** Input axis positions, required and non-empty (the reductions; index_select's one {@code dim}). */
    AXES("axes", true, "the reductions, index_select and take_along_axis"),
    /** One boolean per axis, required (broadcast: per output axis; squeeze: per input axis). */
    FLAGS("flags", true, "broadcast and squeeze"),
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
