package org.hostir.studio.rules;

import java.util.List;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.op.Shapes;

/**
 * What the conversion of a file to the IR ({@code file.SymbolNumbering}) asks of the rules: the extents an op's
 * output takes from its inputs, matched as validation matches them, and whether two extents are known equal.
 */
public final class ConversionExtents {
    private ConversionExtents() {}

    /** Per axis of {@code op}'s output, the extent it takes from the inputs, or null where none is given. */
    public static List<Extent> outputExtents(FusionOp op, FusionBindings bindings) {
        return Shapes.outputExtents(op, (x, y) -> ValidationContext.sameExtent(bindings, x, y));
    }

    /** Whether two extents are known to be equal: one name, or both values known and equal. */
    public static boolean knownSame(FusionBindings bindings, Extent a, Extent b) {
        return ValidationContext.knownSame(bindings, a, b);
    }
}
