package org.hostir.studio.ir.op;

import java.util.List;

/** A file op's attribute values; an attribute the op does not have is an empty list. */
public record OpAttributes(List<Integer> axes, List<Boolean> flags, List<Integer> permute) {
    public OpAttributes {
        axes = List.copyOf(axes);
        flags = List.copyOf(flags);
        permute = List.copyOf(permute);
    }
}
