package org.hostir.studio.rules;

import static org.hostir.studio.rules.ValidationContext.extent;
import static org.hostir.studio.rules.ValidationContext.isUnit;
import static org.hostir.studio.rules.ValidationContext.reductions;
import static org.hostir.studio.rules.ValidationContext.runtime;
import static org.hostir.studio.rules.ValidationContext.shape;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * Shapes of matmul ({@code at::matmul}: 1-D, 2-D and batched) and linear ({@code at::linear}). The output lists
 * the batch axes, M and N, then the contracted K as its last axis, a reduction axis, as nvFuser prints it
 * ({@code T2[iS6{i2}, iS7{i5}, rS8{i3}] = matmul(T0[.., K], T1[K, N])}).
 *
 * <p>Batch axes broadcast as in at::matmul, with one addition: a DID-parallel axis counts as extent 1, because
 * each rank multiplies its local shard, where that axis has extent 1. This is what lets the seeds' matmul+AR
 * fusion, {@code [DIDx D, S, M, K] x [DIDx D, K, N] -> [DIDx D, S, M, N, rK]}, pair each device's slices.
 */
final class MatmulRules {
    private MatmulRules() {}

    static void matmul(ShapeRules.Checker c, FusionOp.Matmul m) {
        List<IterDomain> a = runtime(m.a());
        List<IterDomain> b = runtime(m.b());
        if (a.isEmpty() || b.isEmpty()) {
            c.fail(Rule.SHAPE_MATMUL, "operands need at least one axis, got " + shape(a) + " and " + shape(b));
            return;
        }
        IterDomain kA = a.getLast();
        IterDomain kB = b.size() == 1 ? b.getFirst() : b.get(b.size() - 2);
        if (!c.same(kA.extent(), kB.extent())) {
            c.fail(Rule.SHAPE_MATMUL, "contracted axes differ: " + m.a().label() + " " + shape(a) + " has K = "
                    + c.valued(kA.extent()) + " but " + m.b().label() + " " + shape(b) + " has K = "
                    + c.valued(kB.extent()));
            return;
        }
        List<IterDomain> batchA = a.size() > 2 ? a.subList(0, a.size() - 2) : List.of();
        List<IterDomain> batchB = b.size() > 2 ? b.subList(0, b.size() - 2) : List.of();
        List<Extent> expected = batch(c, batchA, batchB);
        if (expected == null) return;
        if (a.size() > 1) expected.add(a.get(a.size() - 2).extent());
        if (b.size() > 1) expected.add(b.getLast().extent());
        output(c, Rule.SHAPE_MATMUL, m.output(), expected, kA.extent());
    }

    static void linear(ShapeRules.Checker c, FusionOp.Linear l) {
        List<IterDomain> in = runtime(l.input());
        List<IterDomain> w = runtime(l.weight());
        if (in.isEmpty()) {
            c.fail(Rule.SHAPE_LINEAR, "the input needs at least one axis [.., K]");
            return;
        }
        if (w.isEmpty() || w.size() > 2) {
            c.fail(Rule.SHAPE_LINEAR, "the weight " + shape(w) + " must be [N, K] or [K]");
            return;
        }
        Extent k = in.getLast().extent();
        if (!c.same(k, w.getLast().extent())) {
            c.fail(Rule.SHAPE_LINEAR, "contracted axes differ: input " + shape(in) + " has K = " + c.valued(k)
                    + " but weight " + shape(w) + " has K = " + c.valued(w.getLast().extent()));
            return;
        }
        List<Extent> expected = new ArrayList<>(ShapeRules.extentsOf(in.subList(0, in.size() - 1)));
        if (w.size() == 2) {
            Extent n = w.getFirst().extent();
            expected.add(n);
            if (l.bias() != null) {
                List<IterDomain> bias = runtime(l.bias());
                if (bias.size() != 1 || !c.same(bias.getFirst().extent(), n)) {
                    c.fail(Rule.SHAPE_LINEAR, "the bias " + shape(bias) + " must be [N] = [" + extent(n) + "]");
                    return;
                }
            }
        } else if (l.bias() != null && !runtime(l.bias()).isEmpty()) {
            c.fail(Rule.SHAPE_LINEAR, "with a 1-D weight [K] the bias must be a scalar, got "
                    + shape(runtime(l.bias())));
            return;
        }
        output(c, Rule.SHAPE_LINEAR, l.output(), expected, k);
    }

    /** Broadcasts batch axes right-aligned; null (after reporting) when they do not broadcast. */
    private static List<Extent> batch(ShapeRules.Checker c, List<IterDomain> a, List<IterDomain> b) {
        List<IterDomain> chosen = batchAxes(a, b, c::same);
        List<Extent> out = new ArrayList<>();
        int n = chosen.size();
        for (int i = 0; i < n; i++) {
            if (chosen.get(i) == null) {
                IterDomain x = a.get(i - (n - a.size()));
                IterDomain y = b.get(i - (n - b.size()));
                c.fail(Rule.SHAPE_MATMUL, "batch axes do not broadcast: " + c.valued(x.extent()) + " in "
                        + shape(a) + " against " + c.valued(y.extent()) + " in " + shape(b));
                return null;
            }
            out.add(chosen.get(i).extent());
        }
        return out;
    }

    /**
     * The batch axes of the output, right-aligned as in at::matmul: per position the operand axis whose extent it
     * takes, null where the two do not broadcast. Validation and symbol numbering ({@link OutputExtents}) share it.
     */
    static List<IterDomain> batchAxes(List<IterDomain> a, List<IterDomain> b, BiPredicate<Extent, Extent> same) {
        int n = Math.max(a.size(), b.size());
        List<IterDomain> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            IterDomain x = i - (n - a.size()) >= 0 ? a.get(i - (n - a.size())) : null;
            IterDomain y = i - (n - b.size()) >= 0 ? b.get(i - (n - b.size())) : null;
            if (x == null || y == null) {
                out.add(x == null ? y : x);
            } else if (same.test(x.extent(), y.extent())) {
                out.add(isUnit(x) && !x.isDeviceDim() ? y : x);
            } else if (localUnit(x) && !localUnit(y)) {
                out.add(y);
            } else if (localUnit(y) && !localUnit(x)) {
                out.add(x);
            } else if (localUnit(x) && localUnit(y) && !(x.isDeviceDim() && y.isDeviceDim())) {
                // a broadcast axis against a device axis: the device axis survives
                out.add(x.isDeviceDim() ? x : y);
            } else {
                out.add(null);
            }
        }
        return out;
    }

    /** Extent 1 in each rank's local tensor: broadcast, constant 1, or sharded across devices. */
    private static boolean localUnit(IterDomain a) {
        return isUnit(a) || a.isDeviceDim();
    }

    /** The output: {@code expected} non-reduction extents, then K as its one reduction axis, last. */
    private static void output(ShapeRules.Checker c, Rule rule, TensorView out, List<Extent> expected, Extent k) {
        if (!c.sameShape(rule, "output's non-reduction axes", runtime(out), expected)) return;
        List<IterDomain> red = reductions(out);
        if (red.size() != 1 || !out.axes().getLast().isReduction()) {
            c.fail(rule, "the output " + shape(out.axes()) + " must end with the contracted axis as its only"
                    + " reduction axis, r" + extent(k));
            return;
        }
        c.sameShape(rule, "output's reduction axis", red, List.of(k));
    }
}
