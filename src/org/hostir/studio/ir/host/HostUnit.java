package org.hostir.studio.ir.host;

import java.util.List;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/** A fusion segment compiled and run as one unit ({@code HostUnit0}); posted by {@link PostOnStream}. */
public record HostUnit(int number, List<TensorView> inputs, List<TensorView> outputs, List<FusionOp> ops) {
    public HostUnit {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        ops = List.copyOf(ops);
    }

    public String name() { return "HostUnit" + number; }
}
