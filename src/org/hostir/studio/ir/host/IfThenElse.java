package org.hostir.studio.ir.host;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.Scalar;

/** {@code IF Manual ( predicate ):} then-body, {@code ELSE:} else-body. */
public record IfThenElse(int id, Scalar predicate, List<HostNode> thenBody, List<HostNode> elseBody)
        implements HostNode {
    public IfThenElse {
        Objects.requireNonNull(predicate);
        thenBody = List.copyOf(thenBody);
        elseBody = List.copyOf(elseBody);
    }

    @Override
    public List<List<HostNode>> bodies() { return List.of(thenBody, elseBody); }
}
