package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;

/**
 * Where DecomposeReshardings moves data for an op that computes and reshards at once. nvFuser's whereToReshard
 * (csrc/preseg_passes/decompose_reshardings.cpp:40-50 at 81c4b22fd) picks "after" for an expression with one input
 * and one output: insertReshardingSetsAfter (lines 156-244) computes the op with its input's sharding and mesh
 * (shardLoopLike from the input, lines 204-213), keeping the output's Stream axes (lines 238-242), and a set after
 * it moves the result to the output's sharding: a cast of a replicated half tensor into a sharded float one casts,
 * then scatters the float result. Ops with more inputs get their inputs moved before them (the caller).
 */
final class InsertReshardingAfter {
    private InsertReshardingAfter() {}

    /**
     * Whether {@code op} is resharded after it: one input (the caller has already given a reduction over a split
     * sharded axis its rFactor, and left a single-axis one over the devices as it is). A reduction over a sharded axis
     * and others at once keeps the set in front: computed with its input's sharding it would still reduce over the
     * devices in several axes, which nvFuser's isLowerableToCommunication refuses (lines 62-91), so nvFuser has no
     * program for it to follow.
     */
    static boolean applies(FusionOp op) {
        if (op instanceof FusionOp.Reduction r) {
            return r.axes().stream().noneMatch(a -> r.input().axis(a).isDeviceDim());
        }
        return op.inputs().size() == 1;
    }

    /** The op into a tensor sharded as its input, then a set from it to the op's own output. */
    static List<FusionOp> decompose(IrBuilder b, FusionOp op) {
        TensorView in = op.inputs().get(0);
        TensorView out = op.output();
        List<IterDomain> axes = new ArrayList<>();
        for (int o = 0; o < out.rank(); o++) {
            IterDomain a = out.axis(o);
            int p = AxisMap.producerAxis(op, 0, o);
            ParallelType type = a.isStream() ? ParallelType.STREAM : ParallelType.SERIAL;
            if (p != AxisMap.NONE && in.axis(p).isDeviceDim() && !in.axis(p).isReduction()) {
                type = in.axis(p).parallelType();
            }
            axes.add(b.copy(a).withParallelType(type));
        }
        TensorView computed = SplitStream.streamedLike(b, out.dtype(), in.mesh(), axes, out);
        // a reduction's computed tensor keeps the reduction axes, and the set reads it into out without them (out's
        // id and label, standing for out in later ops): nvFuser's set(output) (line 194) makes new_output with
        // ops::newValLike, whose newOutputDomain drops reduction axes (csrc/ops/utils.cpp:476, 534-540), and
        // replaces output with it in every later use and the fusion's outputs (line 195)
        TensorView moved = op instanceof FusionOp.Reduction ? out.withoutReductions() : out;
        return List.of(TensorSubstitution.apply(op, Map.of(out.id(), computed)), new FusionOp.Set(moved, computed));
    }
}
