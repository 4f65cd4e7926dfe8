package org.hostir.studio.rules;

import static org.hostir.studio.rules.ValidationContext.isUnit;
import static org.hostir.studio.rules.ValidationContext.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.ReshapeAxes;
import org.hostir.studio.ir.TensorView;

/**
 * The extent each axis of an op's output takes from the op's inputs, as nvFuser's ops build their outputs: a new
 * output axis reuses an input axis's extent Val, never a fresh symbol ({@code ops::newOutputDomain} for set and
 * binary ops, {@code newForReduction}, {@code broadcast}, {@code newForMatmul}, {@code newForLinear}). Where several
 * input axes meet in one output axis, {@code ops::newOutputIterDomain} skips broadcast axes and takes the first
 * constant, else the first symbol (its {@code promoteSize}); so matmul's N is B's, its reduction axis A's K.
 *
 * <p>The axes are matched as validation reads the file (the output lists its axes; {@link ShapeRules} and
 * {@link MatmulRules} check them), so the order of the output's axes is the file's.
 */
final class OutputExtents {
    private OutputExtents() {}

    /** Per axis of {@code op}'s output, the extent it takes, or null where the op does not give one. */
    static List<Extent> of(FusionOp op, BiPredicate<Extent, Extent> same) {
        TensorView out = op.output();
        Extent[] e = new Extent[out.rank()];
        switch (op) {
            case FusionOp.Set s -> {
                List<IterDomain> in = runtime(s.input());
                for (int o = 0; o < out.rank() && (!s.isPermute() || o < s.permutation().size()); o++) {
                    int k = s.isPermute() ? s.permutation().get(o) : o;
                    if (k >= 0 && k < in.size()) e[o] = in.get(k).extent();
                }
            }
            case FusionOp.Unary u -> binary(e, runtime(u.input()), runtime(u.input()));
            case FusionOp.Where w -> {
                binary(e, runtime(w.x()), runtime(w.y()));
                List<IterDomain> c = runtime(w.condition());
                for (int i = 0; i < e.length && i < c.size(); i++) if (e[i] == null) e[i] = choose(c.get(i));
            }
            case FusionOp.Squeeze q -> {
                List<IterDomain> in = q.input().axes();
                int o = 0;
                for (int i = 0; i < in.size() && i < q.flags().size() && o < e.length; i++) {
                    if (!q.flags().get(i) && !in.get(i).isReduction()) e[o++] = in.get(i).extent();
                }
            }
            case FusionOp.Reshape r -> {
                // the axes the reshape keeps whole take the input's extents; split and merged ones are the file's
                List<IterDomain> in = runtime(r.input());
                int[] kept = ReshapeAxes.kept(in, out.axes());
                for (int i = 0; i < kept.length; i++) if (kept[i] != AxisMap.NONE) e[kept[i]] = in.get(i).extent();
            }
            case FusionOp.Expand x -> {
                List<IterDomain> in = runtime(x.input());
                for (int i = 0; i < e.length && i < in.size(); i++) if (!isUnit(in.get(i))) e[i] = in.get(i).extent();
            }
            case FusionOp.Binary b -> binary(e, runtime(b.lhs()), runtime(b.rhs()));
            case FusionOp.Reduction r -> reduction(e, r);
            case FusionOp.Broadcast b -> {
                List<IterDomain> in = runtime(b.input());
                int i = 0;
                for (int o = 0; o < out.rank() && o < b.flags().size() && i < in.size(); o++) {
                    if (!b.flags().get(o)) e[o] = in.get(i++).extent();
                }
            }
            case FusionOp.Matmul m -> matmul(e, m, same);
            case FusionOp.Linear l -> linear(e, l);
        }
        return Arrays.asList(e);
    }

    /** {@code ops::newOutputIterDomain}'s choice among the input axes meeting in one output axis. */
    static Extent choose(IterDomain... axes) {
        Extent first = null;
        for (IterDomain a : axes) {
            if (a == null || isUnit(a)) continue;
            if (a.extent() instanceof Extent.Constant) return a.extent();
            if (first == null) first = a.extent();
        }
        return first;
    }

    private static void binary(Extent[] e, List<IterDomain> l, List<IterDomain> r) {
        if (l.size() != r.size()) return;
        for (int i = 0; i < l.size() && i < e.length; i++) e[i] = choose(l.get(i), r.get(i));
    }

    /** The kept axes fill the output's non-reduction axes in order, the reduced ones its reduction axes. */
    private static void reduction(Extent[] e, FusionOp.Reduction r) {
        TensorView in = r.input();
        Set<Integer> reducedAt = new HashSet<>(r.axes());
        List<Extent> kept = new ArrayList<>();
        List<Extent> reduced = new ArrayList<>();
        for (int i = 0; i < in.rank(); i++) {
            if (reducedAt.contains(i)) {
                reduced.add(in.axis(i).extent());
            } else if (!in.axis(i).isReduction()) {
                kept.add(in.axis(i).extent());
            }
        }
        fill(e, r.output(), kept, reduced);
    }

    private static void matmul(Extent[] e, FusionOp.Matmul m, BiPredicate<Extent, Extent> same) {
        List<IterDomain> a = runtime(m.a());
        List<IterDomain> b = runtime(m.b());
        if (a.isEmpty() || b.isEmpty()) return;
        List<IterDomain> batchA = a.size() > 2 ? a.subList(0, a.size() - 2) : List.of();
        List<IterDomain> batchB = b.size() > 2 ? b.subList(0, b.size() - 2) : List.of();
        List<Extent> kept = new ArrayList<>();
        for (IterDomain x : MatmulRules.batchAxes(batchA, batchB, same)) kept.add(x == null ? null : x.extent());
        if (a.size() > 1) kept.add(a.get(a.size() - 2).extent());
        if (b.size() > 1) kept.add(b.getLast().extent());
        IterDomain kB = b.size() == 1 ? b.getFirst() : b.get(b.size() - 2);
        List<Extent> k = new ArrayList<>();
        k.add(choose(a.getLast(), kB));
        fill(e, m.output(), kept, k);
    }

    private static void linear(Extent[] e, FusionOp.Linear l) {
        List<IterDomain> in = runtime(l.input());
        List<IterDomain> w = runtime(l.weight());
        if (in.isEmpty() || w.isEmpty()) return;
        List<Extent> kept = new ArrayList<>();
        for (IterDomain x : in.subList(0, in.size() - 1)) kept.add(x.extent());
        if (w.size() == 2) {
            List<IterDomain> bias = l.bias() == null ? List.of() : runtime(l.bias());
            kept.add(choose(w.getFirst(), bias.size() == 1 ? bias.getFirst() : null));
        }
        List<Extent> k = new ArrayList<>();
        k.add(choose(in.getLast(), w.getLast()));
        fill(e, l.output(), kept, k);
    }

    private static void fill(Extent[] e, TensorView out, List<Extent> kept, List<Extent> reduced) {
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
