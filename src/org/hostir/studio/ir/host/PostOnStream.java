package org.hostir.studio.ir.host;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.TensorView;

/** Runs a HostUnit on the current stream with these inputs and outputs. */
public record PostOnStream(int id, HostUnit unit, List<TensorView> inputs, List<TensorView> outputs)
        implements HostNode {
    public PostOnStream {
        Objects.requireNonNull(unit);
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    public PostOnStream(int id, HostUnit unit) { this(id, unit, unit.inputs(), unit.outputs()); }
}
