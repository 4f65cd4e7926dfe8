package org.hostir.studio.io;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/** What the validation rules share: where to report, the bindings, and how to name things in messages. */
final class ValidationContext {
    final FusionLocator locator;
    final FusionBindings bindings;
    final List<Diagnostic> diagnostics = new ArrayList<>();

    ValidationContext(FusionLocator locator, FusionBindings bindings) {
        this.locator = locator;
        this.bindings = bindings;
    }

    void report(FusionLocator.Location at, Rule rule, String message) {
        diagnostics.add(Diagnostic.at(locator.file(), at, rule.id(), message));
    }

    /** {@code 'out' (T2)}, or just {@code T2} when the tensor has no name of its own. */
    static String tensor(TensorView t) {
        return t.label().equals(t.name()) ? t.name() : Texts.quote(t.label()) + " (" + t.name() + ")";
    }

    /** {@code out = matmul(a, b)} with the file's names. */
    static String op(FusionOp op) {
        return op.output().label() + " = " + op.opName() + "("
                + op.inputs().stream().map(TensorView::label).collect(Collectors.joining(", ")) + ")";
    }

    static String extent(Extent e) {
        return switch (e) {
            case Extent.Symbolic s -> s.name();
            case Extent.Constant c -> Long.toString(c.value());
        };
    }

    /** {@code [S, rD, M]}: extents by the user's names, r for reduction and b for broadcast axes. */
    static String shape(List<IterDomain> axes) {
        return axes.stream().map(a -> (a.isReduction() ? "r" : a.isBroadcast() ? "b" : "") + extent(a.extent()))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /**
     * Whether two extents may be equal: symbols by name, constants by value. A symbol against a constant cannot
     * be decided without values, so it is accepted.
     */
    static boolean sameExtent(Extent a, Extent b) {
        if (a instanceof Extent.Symbolic x && b instanceof Extent.Symbolic y) return x.name().equals(y.name());
        if (a instanceof Extent.Constant x && b instanceof Extent.Constant y) return x.value() == y.value();
        return true;
    }

    /**
     * As {@link #sameExtent(Extent, Extent)}, and a symbol against a constant compared by the symbol's value
     * (its default or {@code --set}, D the device count) when it has one: {@code [M, 3]} against {@code [M, M]}
     * with M = 8 is refused here instead of failing in the run. An unbound symbol is refused by {@code run}.
     */
    static boolean sameExtent(Extent a, Extent b, FusionBindings bindings) {
        if (!sameExtent(a, b)) return false;
        OptionalLong x = value(a, bindings), y = value(b, bindings);
        boolean mixed = a instanceof Extent.Constant != b instanceof Extent.Constant;
        return !mixed || x.isEmpty() || y.isEmpty() || x.getAsLong() == y.getAsLong();
    }

    static OptionalLong value(Extent e, FusionBindings bindings) {
        return switch (e) {
            case Extent.Constant c -> OptionalLong.of(c.value());
            case Extent.Symbolic s -> bindings.value(s.name());
        };
    }

    /**
     * {@code " (M = 8)"}: the values of the symbols among {@code extents}, a symbol without one named as undefined
     * (a typo in one tensor is otherwise only "a shape mismatch"); empty when there is no symbol.
     */
    static String values(List<Extent> extents, FusionBindings bindings) {
        String bound = extents.stream().distinct().filter(e -> e instanceof Extent.Symbolic)
                .map(e -> value(e, bindings).isPresent() ? extent(e) + " = " + value(e, bindings).getAsLong()
                        : "undefined symbol " + extent(e) + ": no default in symbols and no --set " + extent(e) + "=N")
                .collect(Collectors.joining("; "));
        return bound.isEmpty() ? "" : " (" + bound + ")";
    }

    /** The axes that exist at run time: reduction axes do not. */
    static List<IterDomain> runtime(TensorView t) { return t.allocationAxes(); }

    static List<IterDomain> reductions(TensorView t) {
        return t.axes().stream().filter(IterDomain::isReduction).toList();
    }

    /** A broadcast axis or an axis of constant extent 1: it stretches to any extent. */
    static boolean isUnit(IterDomain a) {
        return a.isBroadcast() || (a.extent() instanceof Extent.Constant c && c.value() == 1);
    }
}
