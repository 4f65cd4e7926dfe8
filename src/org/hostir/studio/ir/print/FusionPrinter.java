package org.hostir.studio.ir.print;

import java.util.List;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.TensorView;

/** Prints a fusion's math as nvFuser's {@code Fusion::printMath}: inputs, outputs, then the {@code %kernel}. */
public final class FusionPrinter {
    private FusionPrinter() {}

    public static String print(Fusion fusion) {
        return printMath(fusion.inputs(), fusion.outputs(), fusion.ops(), NvFuserGeneration.V2025_06);
    }

    static String printMath(List<TensorView> inputs, List<TensorView> outputs, List<FusionOp> ops,
                            NvFuserGeneration g) {
        StringBuilder out = new StringBuilder("Inputs:\n");
        for (TensorView t : inputs) out.append("  ").append(IrText.tensor(t, g)).append('\n');
        out.append("Outputs:\n");
        for (TensorView t : outputs) out.append("  ").append(IrText.tensor(t, g)).append('\n');
        out.append("\n%kernel {\n");
        HostIrPrinter.printOps(ops, "", out, g);
        out.append("} // %kernel\n");
        return out.toString();
    }

    /** {@code i0 = D}, one line per symbol: the user's names for nvFuser's symbolic extents. */
    public static String legend(Fusion fusion) {
        return String.join("\n", fusion.legend());
    }
}
