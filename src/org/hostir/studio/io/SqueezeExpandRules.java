package org.hostir.studio.io;

import static org.hostir.studio.io.ValidationContext.isUnit;
import static org.hostir.studio.io.ValidationContext.runtime;
import static org.hostir.studio.io.ValidationContext.shape;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;

/** Shapes through squeeze (SqueezeOp: flags over the input's axes) and expand (ExpandOp). */
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
                c.fail(Rule.SHAPE_EXPAND, "axis " + i + " has extent " + c.valued(in.get(i).extent())
                        + ": only a broadcast axis (extent 1) expands, not to " + c.valued(out.get(i).extent()));
                return;
            }
        }
    }
}
