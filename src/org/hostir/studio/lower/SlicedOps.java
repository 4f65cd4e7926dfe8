package org.hostir.studio.lower;

import java.util.Map;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.op.OpFamily;

/**
 * An op rewired to slices taken inside a stream loop. Slicing drops the stream axis, so attributes that count
 * axes (reduced axes, a permutation, broadcast and squeeze flags) are renumbered for the rank-reduced tensors, as
 * each family's definition says ({@link org.hostir.studio.ir.op.OpDefinition#withoutAxis}).
 */
final class SlicedOps {
    private SlicedOps() {}

    /** {@code op} on the slices in {@code slices}; {@code slicedOutAxis} is the output axis the loop removed. */
    static FusionOp slice(FusionOp op, Map<Integer, TensorView> slices, int slicedOutAxis) {
        FusionOp rewired = TensorSubstitution.apply(op, slices);
        if (!slices.containsKey(op.output().id())) return rewired;
        return OpFamily.definition(rewired).withoutAxis(rewired, op, slicedOutAxis);
    }
}
