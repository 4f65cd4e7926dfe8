package org.hostir.studio.ir.host;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/**
 * A collective among {@code team}. {@code root} is set for the types that have one (it may be a run-time
 * scalar, e.g. {@code StreamIdx} for the Broadcast form of the allgather); {@code reduction} for reducing types.
 */
public record Communication(int id, CommunicationType type, List<Integer> team, Scalar root, TensorView input,
                            TensorView output, ReductionOpType reduction, CommunicatorBackend backend)
        implements HostNode {
    public Communication {
        Objects.requireNonNull(type);
        team = DeviceMesh.ids(team);
        Objects.requireNonNull(input);
        Objects.requireNonNull(output);
        Objects.requireNonNull(backend);
        if (type.hasRoot() && root == null) {
            throw new IllegalArgumentException(type.dumpName() + " needs a root");
        }
    }
}
