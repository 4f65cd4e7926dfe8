package org.hostir.studio.rules;

import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.op.DtypeChecks;
import org.hostir.studio.ir.op.OpChecks;
import org.hostir.studio.ir.op.OpDefinition;
import org.hostir.studio.ir.op.OpFamily;
import org.hostir.studio.ir.op.OpRule;
import org.hostir.studio.ir.op.Shapes;

/**
 * Shapes and dtypes through each op, as each op family's definition ({@link OpFamily}) states them; this class
 * gives the definitions the file's bindings and turns their reports into diagnostics. Shapes compare the axes
 * that exist at run time (reduction axes do not), extents by symbol name or constant; parallel types may change
 * across an op (DIDx in, Stream out is how a fusion asks for communication), so they are not compared here.
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
            OpDefinition<FusionOp> definition = OpFamily.definition(op);
            DtypeChecks.check(definition, op, c);
            definition.checkShape(op, c);
        }
    }

    /** The validator's rule of an op definition's rule (the same id). */
    static Rule rule(OpRule r) {
        return Arrays.stream(Rule.values()).filter(x -> x.id().equals(r.id())).findFirst().orElseThrow();
    }

    /** Reports for one op: the op is named in every message. */
    final class Checker implements OpChecks {
        final int index;
        final FusionOp op;

        Checker(int index, FusionOp op) {
            this.index = index;
            this.op = op;
        }

        /** Whether two extents may be equal under the bindings ({@link ValidationContext#sameExtent}). */
        public boolean same(Extent a, Extent b) { return cx.sameExtent(a, b); }

        /**
         * Whether every symbolic extent of the output's logical axes also sizes a fusion input: the reference
         * computes a reshape's or expand's unsharded output with no bindings but the inputs' sizes.
         */
        public boolean outputSizedByInputs(OpRule rule) {
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
        public OptionalLong value(Extent e) { return cx.value(e); }

        /** An extent for a message, with its value where it has one. */
        public String valued(Extent e) { return cx.valued(e); }

        public void fail(OpRule rule, String what) {
            cx.report(cx.locator.op(index), rule(rule), ValidationContext.op(op) + ": " + what);
        }

        /** Whether {@code actual} has the extents of {@code expected}; reports the first difference. */
        public boolean sameShape(OpRule rule, String what, List<IterDomain> actual, List<Extent> expected) {
            if (actual.size() != expected.size()) {
                fail(rule, what + " " + shape(actual) + " has " + actual.size() + " axes, expected " + expected.size()
                        + " " + Shapes.extents(expected));
                return false;
            }
            for (int i = 0; i < actual.size(); i++) {
                if (!cx.sameExtent(actual.get(i).extent(), expected.get(i))) {
                    fail(rule, what + " " + shape(actual) + ": axis " + i + " has extent "
                            + cx.valued(actual.get(i).extent()) + ", expected " + cx.valued(expected.get(i))
                            + " (expected " + Shapes.extents(expected) + ")");
                    return false;
                }
            }
            return true;
        }

        /** The output must not have reduction axes: only sum, max, matmul and linear reduce. */
        public boolean noReductions(OpRule rule) {
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
}
