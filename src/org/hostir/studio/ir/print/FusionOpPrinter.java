package org.hostir.studio.ir.print;

import java.util.function.Function;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.op.DumpLine;
import org.hostir.studio.ir.op.OpFamily;

/**
 * Prints fusion ops as nvFuser does: the output on one line, {@code   = op( ... )} on the next (each family's
 * spelling is its definition's, {@link org.hostir.studio.ir.op.OpDefinition#dump}).
 */
final class FusionOpPrinter {
    private FusionOpPrinter() {}

    static void print(FusionOp op, String indent, StringBuilder out, NvFuserGeneration g) {
        Function<TensorView, String> tensor = tv -> IrText.tensor(tv, g);
        var definition = OpFamily.definition(op);
        if (!definition.printsOutput()) out.append(indent).append(tensor.apply(op.output())).append('\n');
        definition.dump(op, new DumpLine(indent, out, tensor));
    }
}
