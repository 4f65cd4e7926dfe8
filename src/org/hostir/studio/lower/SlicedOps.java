package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;

/**
 * An op rewired to slices taken inside a stream loop. Slicing drops the stream axis, so attributes that count
 * axes (reduced axes, a permutation, broadcast flags) are renumbered for the rank-reduced tensors.
 */
final class SlicedOps {
    private SlicedOps() {}

    /** {@code op} on the slices in {@code slices}; {@code slicedOutAxis} is the output axis the loop removed. */
    static FusionOp slice(FusionOp op, Map<Integer, TensorView> slices, int slicedOutAxis) {
        FusionOp rewired = TensorSubstitution.apply(op, slices);
        if (!slices.containsKey(op.output().id())) return rewired;
        return switch (rewired) {
            case FusionOp.Reduction r -> {
                List<Integer> axes = new ArrayList<>();
                for (int p = 0; p < r.output().rank() && p < r.input().rank(); p++) {
                    if (r.output().axis(p).isReduction() && !r.input().axis(p).isReduction()) axes.add(p);
                }
                yield new FusionOp.Reduction(r.op(), r.output(), r.input(), axes);
            }
            case FusionOp.Set s when s.isPermute() -> {
                int dropped = s.permutation().get(slicedOutAxis);
                List<Integer> perm = new ArrayList<>();
                for (int o = 0; o < s.permutation().size(); o++) {
                    if (o == slicedOutAxis) continue;
                    int p = s.permutation().get(o);
                    perm.add(p > dropped ? p - 1 : p);
                }
                yield new FusionOp.Set(s.output(), s.input(), perm);
            }
            case FusionOp.Broadcast b -> {
                List<Boolean> flags = new ArrayList<>(b.flags());
                flags.remove(slicedOutAxis);
                yield new FusionOp.Broadcast(b.output(), b.input(), flags);
            }
            case FusionOp.Squeeze q -> {
                List<Boolean> flags = new ArrayList<>(q.flags());
                int in = AxisMap.producerAxis(op, 0, slicedOutAxis);
                if (in != AxisMap.NONE && in < flags.size()) flags.remove(in);
                yield new FusionOp.Squeeze(q.output(), q.input(), flags);
            }
            // these carry no axis-indexed attribute: substituting the slices is all they need
            case FusionOp.Set _, FusionOp.Unary _, FusionOp.Binary _, FusionOp.Where _, FusionOp.Expand _, FusionOp.Reshape _,
                 FusionOp.Matmul _, FusionOp.Linear _ -> rewired;
        };
    }
}
