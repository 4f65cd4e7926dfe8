package org.hostir.studio.rules;

import static org.hostir.studio.rules.ValidationContext.extent;
import static org.hostir.studio.rules.ValidationContext.isUnit;
import static org.hostir.studio.rules.ValidationContext.reductions;
import static org.hostir.studio.rules.ValidationContext.runtime;
import static org.hostir.studio.rules.ValidationContext.shape;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;

/**
 * Shapes and dtypes through each op. Shapes compare the axes that exist at run time (reduction axes do not),
 * extents by symbol name or constant; parallel types may change across an op (DIDx in, Stream out is how a
 * fusion asks for communication), so they are not compared here.
 */
final class ShapeRules {
    private final ValidationContext cx;
    private final Set<String> inputSymbols;

    ShapeRules(ValidationContext cx, Set<String> inputSymbols) {
        this.cx = cx;
        this.inputSymbols = inputSymbols;
    }

    /** The symbols that size some fusion input's logical axis: what the unsharded reference knows sizes by. */
    static Set<String> inputSymbols(Fusion fusion) {
        // D, the device count, is always bound (and a DID axis is sized from it)
        Set<String> names = new HashSet<>(Set.of(FusionBindings.DEVICES_SYMBOL));
        for (TensorView in : fusion.inputs()) {
            for (IterDomain a : in.loopDomain().logical()) {
                if (a.extent() instanceof Extent.Symbolic sym) names.add(sym.name());
            }
        }
        return names;
    }

    void check(List<FusionOp> ops) {
        for (int k = 0; k < ops.size(); k++) {
            FusionOp op = ops.get(k);
            Checker c = new Checker(k, op);
            DtypeRules.check(c, op);
            switch (op) {
                case FusionOp.Set s -> set(c, s);
                case FusionOp.Unary u -> unary(c, u);
                case FusionOp.Where w -> where(c, w);
                case FusionOp.Squeeze q -> SqueezeExpandRules.squeeze(c, q);
                case FusionOp.Expand e -> SqueezeExpandRules.expand(c, e);
                case FusionOp.Reshape r -> SqueezeExpandRules.reshape(c, r);
                case FusionOp.Binary b -> binary(c, b);
                case FusionOp.Reduction r -> reduction(c, r);
                case FusionOp.Broadcast b -> broadcast(c, b);
                case FusionOp.Matmul m -> MatmulRules.matmul(c, m);
                case FusionOp.Linear l -> MatmulRules.linear(c, l);
            }
        }
    }

    /** Reports for one op: the op is named in every message. */
    final class Checker {
        final int index;
        final FusionOp op;

        Checker(int index, FusionOp op) {
            this.index = index;
            this.op = op;
        }

        /** Whether two extents may be equal under the bindings ({@link ValidationContext#sameExtent}). */
        boolean same(Extent a, Extent b) { return cx.sameExtent(a, b); }

        /**
         * Whether every symbolic extent of the output's logical axes also sizes a fusion input: the reference
         * computes a reshape's or expand's unsharded output with no bindings but the inputs' sizes.
         */
        boolean outputSizedByInputs(Rule rule) {
            List<IterDomain> out = op.output().loopDomain().logical();
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).extent() instanceof Extent.Symbolic sym
                        && !inputSymbols.contains(sym.name())) {
                    fail(rule, "output axis " + i + " has extent " + cx.valued(sym) + ", a symbol that no fusion"
                            + " input carries, so the unsharded reference cannot size it; write its value as a number"
                            + " or give an input an axis of that extent");
                    return false;
                }
            }
            return true;
        }

        /** The extent's value under the bindings, where it has one. */
        OptionalLong value(Extent e) { return cx.value(e); }

        /** An extent for a message, with its value where it has one. */
        String valued(Extent e) { return cx.valued(e); }

        void fail(Rule rule, String what) {
            cx.report(cx.locator.op(index), rule, ValidationContext.op(op) + ": " + what);
        }

        /** Whether {@code actual} has the extents of {@code expected}; reports the first difference. */
        boolean sameShape(Rule rule, String what, List<IterDomain> actual, List<Extent> expected) {
            if (actual.size() != expected.size()) {
                fail(rule, what + " " + shape(actual) + " has " + actual.size() + " axes, expected " + expected.size()
                        + " " + extents(expected));
                return false;
            }
            for (int i = 0; i < actual.size(); i++) {
                if (!cx.sameExtent(actual.get(i).extent(), expected.get(i))) {
                    fail(rule, what + " " + shape(actual) + ": axis " + i + " has extent "
                            + cx.valued(actual.get(i).extent()) + ", expected " + cx.valued(expected.get(i))
                            + " (expected " + extents(expected) + ")");
                    return false;
                }
            }
            return true;
        }

        /** The output must not have reduction axes: only sum, max, matmul and linear reduce. */
        boolean noReductions(Rule rule) {
            List<IterDomain> out = op.output().axes();
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).isReduction()) {
                    fail(rule, "output axis " + i + " is a reduction axis, but " + op.opName() + " does not reduce");
                    return false;
                }
            }
            return true;
        }
    }

    static String extents(List<Extent> extents) {
        return extents.stream().map(ValidationContext::extent).collect(Collectors.joining(", ", "[", "]"));
    }

    static List<Extent> extentsOf(List<IterDomain> axes) {
        return axes.stream().map(IterDomain::extent).toList();
    }

    private void unary(Checker c, FusionOp.Unary u) {
        if (c.noReductions(Rule.SHAPE_UNARY)) {
            c.sameShape(Rule.SHAPE_UNARY, "output", u.output().axes(), extentsOf(runtime(u.input())));
        }
    }

    private void set(Checker c, FusionOp.Set s) {
        List<IterDomain> in = runtime(s.input());
        if (!s.isPermute()) {
            if (c.noReductions(Rule.SHAPE_SET)) {
                c.sameShape(Rule.SHAPE_SET, "output", s.output().axes(), extentsOf(in));
            }
            return;
        }
        List<Integer> perm = s.permutation();
        Set<Integer> distinct = new HashSet<>(perm);
        boolean valid = perm.size() == in.size() && distinct.size() == perm.size()
                && perm.stream().allMatch(p -> p >= 0 && p < in.size());
        if (!valid) {
            c.fail(Rule.SHAPE_PERMUTE, "permute " + perm + " is not a permutation of the input's " + in.size()
                    + " axes " + shape(in));
            return;
        }
        if (!c.noReductions(Rule.SHAPE_PERMUTE)) return;
        List<Extent> expected = perm.stream().map(p -> in.get(p).extent()).toList();
        c.sameShape(Rule.SHAPE_PERMUTE, "output", s.output().axes(), expected);
    }

    /** x and y as a binary op's operands, then the condition against their result. */
    private void where(Checker c, FusionOp.Where w) {
        if (!c.noReductions(Rule.SHAPE_WHERE)) return;
        List<Extent> xy = pointwise(c, Rule.SHAPE_WHERE, runtime(w.x()), runtime(w.y()));
        if (xy == null) return;
        List<IterDomain> cond = runtime(w.condition());
        List<IterDomain> xyAxes = new ArrayList<>();
        for (Extent e : xy) xyAxes.add(new IterDomain(0, e, IterType.ITERATION, ParallelType.SERIAL));
        List<Extent> expected = pointwise(c, Rule.SHAPE_WHERE, cond, xyAxes);
        if (expected != null) c.sameShape(Rule.SHAPE_WHERE, "output", w.output().axes(), expected);
    }

    private void binary(Checker c, FusionOp.Binary b) {
        if (!c.noReductions(Rule.SHAPE_BINARY)) return;
        List<Extent> expected = pointwise(c, Rule.SHAPE_BINARY, runtime(b.lhs()), runtime(b.rhs()));
        if (expected != null) c.sameShape(Rule.SHAPE_BINARY, "output", b.output().axes(), expected);
    }

    /** Two operands' extents combined position by position (a unit extent stretches); null after a report. */
    private List<Extent> pointwise(Checker c, Rule rule, List<IterDomain> l, List<IterDomain> r) {
        if (l.size() != r.size()) {
            c.fail(rule, "operands have different ranks: " + shape(l) + " and " + shape(r));
            return null;
        }
        List<Extent> expected = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            IterDomain x = l.get(i);
            IterDomain y = r.get(i);
            if (cx.sameExtent(x.extent(), y.extent())) {
                expected.add(isUnit(x) ? y.extent() : x.extent());
            } else if (isUnit(x)) {
                expected.add(y.extent());
            } else if (isUnit(y)) {
                expected.add(x.extent());
            } else {
                c.fail(rule, "axis " + i + " has extent " + cx.valued(x.extent()) + " in " + shape(l)
                        + " but " + cx.valued(y.extent()) + " in " + shape(r));
                return null;
            }
        }
        return expected;
    }

    private void reduction(Checker c, FusionOp.Reduction r) {
        TensorView in = r.input();
        List<Integer> axes = r.axes();
        if (axes.isEmpty()) {
            c.fail(Rule.SHAPE_REDUCTION, "no axes to reduce");
            return;
        }
        Set<Integer> distinct = new HashSet<>();
        for (int a : axes) {
            if (a < 0 || a >= in.rank()) {
                c.fail(Rule.SHAPE_REDUCTION, "axis " + a + " is out of range for input " + shape(in.axes()));
                return;
            }
            if (!distinct.add(a)) {
                c.fail(Rule.SHAPE_REDUCTION, "axis " + a + " is listed twice");
                return;
            }
            if (in.axis(a).isReduction()) {
                c.fail(Rule.SHAPE_REDUCTION, "axis " + a + " of input " + shape(in.axes())
                        + " is already a reduction axis");
                return;
            }
        }
        List<Extent> kept = new ArrayList<>();
        List<Extent> reduced = new ArrayList<>();
        for (int i = 0; i < in.rank(); i++) {
            if (distinct.contains(i)) {
                reduced.add(in.axis(i).extent());
            } else if (!in.axis(i).isReduction()) {
                kept.add(in.axis(i).extent());
            }
        }
        // the reduction axes may sit anywhere among the kept ones (nvFuser's dumps show them moved)
        if (c.sameShape(Rule.SHAPE_REDUCTION, "output's non-reduction axes", runtime(r.output()), kept)) {
            c.sameShape(Rule.SHAPE_REDUCTION, "output's reduction axes", reductions(r.output()), reduced);
        }
    }

    private void broadcast(Checker c, FusionOp.Broadcast b) {
        List<IterDomain> in = runtime(b.input());
        List<IterDomain> out = b.output().axes();
        List<Boolean> flags = b.flags();
        if (!c.noReductions(Rule.SHAPE_BROADCAST)) return;
        if (flags.size() != out.size()) {
            c.fail(Rule.SHAPE_BROADCAST, "flags " + flags + " has " + flags.size() + " entries but the output "
                    + shape(out) + " has " + out.size() + " axes (one flag per output axis)");
            return;
        }
        long kept = flags.stream().filter(f -> !f).count();
        if (kept != in.size()) {
            c.fail(Rule.SHAPE_BROADCAST, "flags " + flags + " keep " + kept + " axes but the input " + shape(in)
                    + " has " + in.size());
            return;
        }
        List<IterDomain> keptOut = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            if (!flags.get(i)) {
                keptOut.add(out.get(i));
            } else if (!out.get(i).isBroadcast()) {
                c.fail(Rule.SHAPE_BROADCAST, "output axis " + i + " is flagged as new but is not a broadcast axis"
                        + " (write it as {\"extent\": 1, \"iter\": \"broadcast\"})");
                return;
            }
        }
        c.sameShape(Rule.SHAPE_BROADCAST, "output's kept axes", keptOut, extentsOf(in));
    }
}
