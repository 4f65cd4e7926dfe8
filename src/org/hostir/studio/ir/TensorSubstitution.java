package org.hostir.studio.ir;

import java.util.Map;

/** Replaces tensors (matched by id) inside fusion ops: how passes rewire ops to new tensors and slices. */
public final class TensorSubstitution {
    private TensorSubstitution() {}

    public static TensorView apply(TensorView tv, Map<Integer, TensorView> replacements) {
        return tv == null ? null : replacements.getOrDefault(tv.id(), tv);
    }

    public static FusionOp apply(FusionOp op, Map<Integer, TensorView> r) {
        return op.mapTensors(tv -> apply(tv, r));
    }
}
