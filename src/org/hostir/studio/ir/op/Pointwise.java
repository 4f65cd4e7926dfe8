package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.choose;
import static org.hostir.studio.ir.op.Shapes.isUnit;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;

/** How pointwise operands (binary ops, where) combine their shapes: position by position, a unit extent stretches. */
final class Pointwise {
    private Pointwise() {}

    /** Two operands' extents combined position by position; null after a report. */
    static List<Extent> combined(OpChecks c, OpRule rule, List<IterDomain> l, List<IterDomain> r) {
        if (l.size() != r.size()) {
            c.fail(rule, "operands have different ranks: " + shape(l) + " and " + shape(r));
            return null;
        }
        List<Extent> expected = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            IterDomain x = l.get(i);
            IterDomain y = r.get(i);
            if (c.same(x.extent(), y.extent())) {
                expected.add(isUnit(x) ? y.extent() : x.extent());
            } else if (isUnit(x)) {
                expected.add(y.extent());
            } else if (isUnit(y)) {
                expected.add(x.extent());
            } else {
                c.fail(rule, "axis " + i + " has extent " + c.valued(x.extent()) + " in " + shape(l)
                        + " but " + c.valued(y.extent()) + " in " + shape(r));
                return null;
            }
        }
        return expected;
    }

    /** The extents nvFuser's output takes where two operands of one rank meet ({@link Shapes#choose}). */
    static void outputExtents(Extent[] e, List<IterDomain> l, List<IterDomain> r) {
        if (l.size() != r.size()) return;
        for (int i = 0; i < l.size() && i < e.length; i++) e[i] = choose(l.get(i), r.get(i));
    }
}
