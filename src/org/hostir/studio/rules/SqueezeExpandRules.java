package org.hostir.studio.rules;

import static org.hostir.studio.rules.ValidationContext.isUnit;
import static org.hostir.studio.rules.ValidationContext.runtime;
import static org.hostir.studio.rules.ValidationContext.shape;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.ReshapeAxes;

/** Shapes through squeeze (SqueezeOp: flags over the input's axes), expand (ExpandOp) and reshape (ReshapeOp). */
final class SqueezeExpandRules {
    private SqueezeExpandRules() {}

    static void squeeze(ShapeRules.Checker c, FusionOp.Squeeze q) {
        List<IterDomain> in = q.input().axes();
        if (!c.noReductions(Rule.SHAPE_SQUEEZE)) return;
        if (q.flags().size() != in.size()) {
            c.fail(Rule.SHAPE_SQUEEZE, "flags " + q.flags() + " has " + q.flags().size() + " entries but the input "
                    + shape(in) + " has " + in.size() + " axes (one flag per input axis)");
            return;
        }
        List<Extent> kept = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            IterDomain a = in.get(i);
            if (a.isReduction()) continue;
            if (!q.flags().get(i)) {
                kept.add(a.extent());
            } else if (!isUnit(a) || a.isDeviceDim()) {
                c.fail(Rule.SHAPE_SQUEEZE, "input axis " + i + " of " + shape(in) + " is flagged but is not a"
                        + " broadcast axis of extent 1");
                return;
            }
        }
        c.sameShape(Rule.SHAPE_SQUEEZE, "output", q.output().axes(), kept);
    }

    /**
     * The element count, and the DID axes: each must stay one axis, with equal products of the extents before
     * it on both sides. nvFuser keeps a sharding through a reshape only on the outermost reshaped axis of an outer
     * split by the device count (csrc/multidevice/propagation.cpp), which a logical DID axis cannot express.
     */
    static void reshape(ShapeRules.Checker c, FusionOp.Reshape r) {
        List<IterDomain> in = runtime(r.input());
        List<IterDomain> out = r.output().axes();
        if (!c.noReductions(Rule.SHAPE_RESHAPE) || !c.outputSizedByInputs(Rule.SHAPE_RESHAPE)) return;
        if (!ReshapeAxes.sameCount(in, out, c::value)) {
            c.fail(Rule.SHAPE_RESHAPE, "the input " + shape(in) + " and the output " + shape(out)
                    + " have different numbers of elements");
            return;
        }
        int[] kept = ReshapeAxes.kept(in, out, c::value);
        for (int i = 0; i < in.size(); i++) {
            if (!in.get(i).isDeviceDim()) continue;
            if (kept[i] == AxisMap.NONE) {
                c.fail(Rule.RESHAPE_SHARDED_AXIS, "input axis " + i + " of " + shape(in) + " is "
                        + in.get(i).parallelType().fileName() + "-sharded and the reshape to " + shape(out)
                        + " splits or merges it; keep it a whole axis of the output with the same parallel type");
                return;
            }
            if (out.get(kept[i]).parallelType() != in.get(i).parallelType()) {
                // the reshape is fine: the output does not say the kept axis is sharded (issue 30 item 10)
                c.fail(Rule.RESHAPE_SHARDED_AXIS, "input axis " + i + " of " + shape(in) + " is "
                        + in.get(i).parallelType().fileName() + "-sharded and the reshape keeps it whole as output"
                        + " axis " + kept[i] + ", which is " + out.get(kept[i]).parallelType().fileName()
                        + "; annotate output axis " + kept[i] + " " + in.get(i).parallelType().fileName()
                        + " (a reshape moves no data between devices: to gather it, set the output afterwards)");
                return;
            }
        }
        for (int o = 0; o < out.size(); o++) {
            boolean fromInput = false;
            for (int k : kept) fromInput |= k == o;
            if (out.get(o).isDeviceDim() && !fromInput) {
                c.fail(Rule.RESHAPE_SHARDED_AXIS, "output axis " + o + " of " + shape(out) + " is "
                        + out.get(o).parallelType().fileName() + "-sharded but is made by splitting or merging"
                        + " input axes; shard an axis the reshape keeps whole");
                return;
            }
        }
    }

    /**
     * Expand keeps every axis but a broadcast (extent 1) one, which takes any extent: nvFuser's expand checks that a
     * concrete non-broadcast extent equals the size asked for (csrc/ops/alias.cpp:1156-1168 at 81c4b22fd, "Invalid
     * expand size"), as PyTorch's expand does ("must match the existing size at non-singleton dimension"). That is
     * checked before the output's symbols, so that a non-broadcast axis is refused for what it is.
     */
    static void expand(ShapeRules.Checker c, FusionOp.Expand e) {
        List<IterDomain> in = runtime(e.input());
        List<IterDomain> out = e.output().axes();
        if (!c.noReductions(Rule.SHAPE_EXPAND)) return;
        if (in.size() != out.size()) {
            c.fail(Rule.SHAPE_EXPAND, "the output " + shape(out) + " has " + out.size() + " axes, the input "
                    + shape(in) + " " + in.size());
            return;
        }
        for (int i = 0; i < in.size(); i++) {
            if (!isUnit(in.get(i)) && !c.same(in.get(i).extent(), out.get(i).extent())) {
                c.fail(Rule.SHAPE_EXPAND, "input axis " + i + " of extent " + c.valued(in.get(i).extent())
                        + " is not a broadcast axis, so it keeps its extent, not " + c.valued(out.get(i).extent())
                        + " (expand only expands broadcast, extent 1, axes)");
                return;
            }
        }
        c.outputSizedByInputs(Rule.SHAPE_EXPAND);
    }
}
