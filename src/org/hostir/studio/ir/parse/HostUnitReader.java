package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostUnit;

/**
 * A HostUnit's definition after the container's nodes: {@code HostUnit0: Inputs={..} -> Outputs={..}}, then its
 * fusion's math as {@code FusionPrinter} writes it ({@code Inputs:}, {@code Outputs:}, {@code %kernel { .. }}).
 */
final class HostUnitReader {
    private final DumpCursor in;
    private final ReadState state;
    private final DumpValues values;
    private final TensorStatements ops;

    HostUnitReader(DumpCursor in, ReadState state, DumpValues values, TensorStatements ops) {
        this.in = in;
        this.state = state;
        this.values = values;
        this.ops = ops;
    }

    HostUnit definition() {
        in.expect("HostUnit");
        int number = in.intNumber();
        state.sawHostUnit(number);
        in.expect(":");
        in.expect("Inputs={");
        List<TensorView> inputs = values.listed('}');
        in.expect("->");
        in.expect("Outputs={");
        List<TensorView> outputs = values.listed('}');
        if (in.accept("Inputs:")) {
            List<TensorView> mathInputs = until("Outputs:");
            List<TensorView> mathOutputs = until("%kernel");
            if (!mathInputs.equals(inputs) || !mathOutputs.equals(outputs)) {
                throw in.error("HostUnit" + number + "'s fusion has other inputs or outputs than its header");
            }
        } else { // nvFuser before #2889: %kernel right after the header
            in.expect("%kernel");
            state.saw("HostUnit math without Inputs:/Outputs:", NvFuserGeneration.EARLY_2024);
        }
        in.expect("{");
        List<FusionOp> body = new ArrayList<>();
        while (!in.accept("} // %kernel")) body.add(ops.op(values.tensor(), true));
        return new HostUnit(number, inputs, outputs, body);
    }

    private List<TensorView> until(String marker) {
        List<TensorView> out = new ArrayList<>();
        while (!in.accept(marker)) out.add(values.tensor());
        return out;
    }
}
