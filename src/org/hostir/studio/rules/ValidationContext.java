package org.hostir.studio.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.op.Shapes;

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

    /** {@code 'out' = matmul('a', 'b')} with the file's names, quoted as every name in a message is. */
    static String op(FusionOp op) {
        return Texts.quote(op.output().label()) + " = " + op.opName() + "("
                + op.inputs().stream().map(t -> Texts.quote(t.label())).collect(Collectors.joining(", ")) + ")";
    }

    /** An extent for a message: a symbol's name quoted as every name in a message is ({@code 'K'}), or its value. */
    static String extent(Extent e) {
        return e instanceof Extent.Symbolic s ? Texts.quote(s.name()) : Shapes.extent(e);
    }

    /**
     * Whether two extents may be equal: symbols of one name always, else by value where both have one (a constant,
     * or a symbol bound by the file's defaults or {@code --set}: {@code K} and {@code K2} agree when both are 4).
     * Where a value is missing it cannot be decided here, so it is accepted; a run needs every value and loads
     * the fusion again with them, so it is decided there.
     */
    boolean sameExtent(Extent a, Extent b) { return sameExtent(bindings, a, b); }

    OptionalLong value(Extent e) { return value(bindings, e); }

    static boolean sameExtent(FusionBindings bindings, Extent a, Extent b) {
        if (a instanceof Extent.Symbolic x && b instanceof Extent.Symbolic y && x.name().equals(y.name())) return true;
        OptionalLong x = value(bindings, a);
        OptionalLong y = value(bindings, b);
        return x.isEmpty() || y.isEmpty() || x.getAsLong() == y.getAsLong();
    }

    /** Whether two extents are known to be equal: one name, or both values known and equal. */
    static boolean knownSame(FusionBindings bindings, Extent a, Extent b) {
        if (a instanceof Extent.Symbolic x && b instanceof Extent.Symbolic y && x.name().equals(y.name())) return true;
        OptionalLong x = value(bindings, a);
        OptionalLong y = value(bindings, b);
        return x.isPresent() && y.isPresent() && x.getAsLong() == y.getAsLong();
    }

    static OptionalLong value(FusionBindings bindings, Extent e) {
        return switch (e) {
            case Extent.Symbolic s -> bindings.value(s.name());
            case Extent.Constant c -> OptionalLong.of(c.value());
        };
    }

    /**
     * An extent for a message: its name, with its value where it has one ({@code K2 (5)}). Unquoted, unlike free
     * text: a shape symbol is an identifier by the time a rule sees it ({@code TensorParser} refuses anything else).
     */
    String valued(Extent e) {
        return switch (e) {
            case Extent.Symbolic s -> s.name() + (bindings.value(s.name()).isPresent() ? " ("
                    + bindings.value(s.name()).getAsLong() + ")" : "");
            case Extent.Constant c -> Long.toString(c.value());
        };
    }
}
