package org.hostir.studio.ir.op;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/** Axes and extents as the shape rules read them, and as their messages write them. */
public final class Shapes {
    private Shapes() {}

    /** The axes that exist at run time: reduction axes do not. */
    public static List<IterDomain> runtime(TensorView t) { return t.allocationAxes(); }

    public static List<IterDomain> reductions(TensorView t) {
        return t.axes().stream().filter(IterDomain::isReduction).toList();
    }

    /** A broadcast axis or an axis of constant extent 1: it stretches to any extent. */
    public static boolean isUnit(IterDomain a) {
        return a.isBroadcast() || (a.extent() instanceof Extent.Constant c && c.value() == 1);
    }

    public static String extent(Extent e) {
        return switch (e) {
            case Extent.Symbolic s -> s.name();
            case Extent.Constant c -> Long.toString(c.value());
        };
    }

    /** {@code [S, rD, M]}: extents by the user's names, r for reduction and b for broadcast axes. */
    public static String shape(List<IterDomain> axes) {
        return axes.stream().map(a -> (a.isReduction() ? "r" : a.isBroadcast() ? "b" : "") + extent(a.extent()))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    public static String extents(List<Extent> extents) {
        return extents.stream().map(Shapes::extent).collect(Collectors.joining(", ", "[", "]"));
    }

    public static List<Extent> extentsOf(List<IterDomain> axes) {
        return axes.stream().map(IterDomain::extent).toList();
    }

    /**
     * {@code ops::newOutputIterDomain}'s choice among the input axes meeting in one output axis: broadcast axes
     * skipped, the first constant, else the first symbol (its {@code promoteSize}).
     */
    public static Extent choose(IterDomain... axes) {
        Extent first = null;
        for (IterDomain a : axes) {
            if (a == null || isUnit(a)) continue;
            if (a.extent() instanceof Extent.Constant) return a.extent();
            if (first == null) first = a.extent();
        }
        return first;
    }

    /**
     * Per axis of {@code op}'s output, the extent it takes from the op's inputs as nvFuser's ops build their
     * outputs, or null where the op does not give one ({@link OpDefinition#outputExtents}); symbol numbering
     * reuses them. The axes are matched as validation reads the file, so the order of the output's axes is the
     * file's.
     */
    public static List<Extent> outputExtents(FusionOp op, BiPredicate<Extent, Extent> same) {
        Extent[] e = new Extent[op.output().rank()];
        OpFamily.definition(op).outputExtents(op, e, same);
        return Arrays.asList(e);
    }

    /** The kept extents fill the output's non-reduction axes in order, the reduced ones its reduction axes. */
    static void fill(Extent[] e, TensorView out, List<Extent> kept, List<Extent> reduced) {
        int k = 0;
        int r = 0;
        for (int o = 0; o < out.rank() && o < e.length; o++) {
            if (out.axis(o).isReduction()) {
                if (r < reduced.size()) e[o] = reduced.get(r++);
            } else if (k < kept.size()) {
                e[o] = kept.get(k++);
            }
        }
    }
}
